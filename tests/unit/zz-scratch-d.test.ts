import { test } from 'vitest'
import { extractReferences } from '../../src/core/references'
import { splitBlocks } from '../../src/core/notes'
test('x', () => {
  const BIG = Array.from({ length: 5000 }, (_, i) => `export const value${i} = ${i} * 3 + 1`).join('\n')
  let t = Date.now()
  console.log(splitBlocks('# P\n\n- Build with `npm run build`.\n- Helpers live in `src/a.ts`.\n').length, Date.now() - t)
  t = Date.now()
  console.log(extractReferences('Sessions are created in `src/auth/session.ts` by `createSession()`.').length, Date.now() - t)
  t = Date.now()
  console.log(extractReferences('about values\n\na note\n\nAll values:\n\n```ts\n' + BIG.slice(0, 2000) + '\n```\n').length, Date.now() - t)
  t = Date.now()
  console.log(extractReferences('about values\n\na note\n\nAll values:\n\n```ts\n' + BIG.slice(0, 20000) + '\n```\n').length, Date.now() - t)
})
