/**
 * What a note says a package script runs, on a real git repository (issue 12 item 5; blind set
 * Z2: "`pnpm build` (tsc)", the build script `tsc -p tsconfig.json` then and a `tsdown` chain
 * now). A tool the script ran then and does not now flags the note; a bracket that never named
 * what the script ran says nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scriptBodyClaims } from '../../../../src/core/audit/script-bodies'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('scriptBodyClaims', () => {
  it('reads the bracket after a back-ticked script run', () => {
    expect(scriptBodyClaims('- Type-check/build: `pnpm build` (tsc)')).toEqual([
      { written: 'pnpm build', script: 'build', tools: ['tsc'] },
    ])
    expect(scriptBodyClaims('`npm run test:e2e` — (playwright + xvfb)')).toEqual([
      { written: 'npm run test:e2e', script: 'test:e2e', tools: ['playwright', 'xvfb'] },
    ])
    expect(scriptBodyClaims('run `make build` (tsc)')).toEqual([])
  })
})

describe('a script that runs another tool since the note', () => {
  const { repo, mem, commit } = historyCase('script-bodies')
  let notes: readonly AuditNote[] = []
  const pkg = (scripts: Record<string, string>): string =>
    JSON.stringify({ name: 'app', scripts }, null, 2)

  beforeAll(async () => {
    write(repo, 'package.json', pkg({ build: 'tsc -p tsconfig.json', test: 'vitest run' }))
    commit('c1', '2026-02-01T12:00:00Z')
    write(
      repo,
      'package.json',
      pkg({ build: 'tsdown && node scripts/copy.js', test: 'vitest run' }),
    )
    commit('tsdown', '2026-02-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Build', '- Type-check/build: `pnpm build` (tsc)'],
        ['Test', '- Tests: `pnpm test` (vitest)'],
        ['Watch', '- Build: `pnpm build` (fast)'],
      ],
      '2026-02-10T12:00:00Z',
    )
  }, 120_000)

  it('flags the note, quoting the script now', () => {
    const n = byTitle(notes, 'Build')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('runs `tsc`')
    expect(text).toContain('now `tsdown && node scripts/copy.js`')
  })

  it('says nothing of a tool it still runs, or of words it never ran', () => {
    const test = byTitle(notes, 'Test')
    expect(test.verdict, test.reasons.join('\n')).toBe('fresh')
    // The build line changed since (another rule's finding); "fast" was never its tool.
    expect(byTitle(notes, 'Watch').reasons.join('\n')).not.toContain('the note says')
  })
})
