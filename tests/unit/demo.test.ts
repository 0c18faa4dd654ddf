import { it } from 'vitest'
import { materializeDemo } from '../../src/node/demo'
it('try', async () => {
  const t0 = Date.now()
  const r = await materializeDemo({ targetDir: '/tmp/demo-try', resourcesDir: '/work/main/resources/demo' })
  console.log(r, Date.now() - t0)
  const t1 = Date.now()
  const r2 = await materializeDemo({ targetDir: '/tmp/demo-try', resourcesDir: '/work/main/resources/demo' })
  console.log(r2.reused, Date.now() - t1)
})
