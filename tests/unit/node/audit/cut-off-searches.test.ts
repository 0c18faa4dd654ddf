/**
 * A search cut off by its time limit answers nothing, so the finding it would have made is
 * missing (issue 12). The audit says so instead of dropping it silently: the run is gathered
 * (node/git/cut-offs.ts), the audit reports it as a problem, every fresh note carries a reason,
 * the window does not keep such an audit as the last word, and the CLI prints it. Real git in
 * temp folders; to cut searches off on purpose, `git grep` runs get a 1 ms limit.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type * as RunModule from '../../../../src/node/git/run'

const limits = vi.hoisted(() => ({ grepMs: null as number | null }))
vi.mock('../../../../src/node/git/run', async (original) => {
  const real = await original<typeof RunModule>()
  return {
    ...real,
    runGit: (args: readonly string[], options: { cwd: string; timeoutMs?: number }) =>
      real.runGit(
        args,
        args[0] === 'grep' && limits.grepMs !== null
          ? { ...options, timeoutMs: limits.grepMs }
          : options,
      ),
  }
})

import { auditMemory, cutShort } from '../../../../src/node/audit/audit'
import { cutOffsText, gatheringCutOffs } from '../../../../src/node/git/cut-offs'
import { runGit } from '../../../../src/node/git/run'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { clearPickaxeCache } from '../../../../src/node/audit/pickaxe'
import { auditReport } from '../../../../src/cli/report'
import { byTitle, removeBase, topic, write } from './scripted-repo'
import { historyCase } from './topic-audit'

afterAll(removeBase)

describe('git runs cut off by their time limit', () => {
  const { repo, commit } = historyCase('cut-off-runs')

  it('are gathered per job, and only inside it', async () => {
    write(repo, 'src/a.ts', 'export const a = 1\n')
    // 24 MB to inflate: a search of it outlasts its 1 ms limit however loaded the machine (a
    // `git log` of one commit could finish, under load, before the timer's turn came).
    write(repo, 'data/big.txt', `${'export const filler = 0123456789abcdef\n'.repeat(600_000)}`)
    commit('c1', '2026-06-01T12:00:00Z')
    const slow = (): ReturnType<typeof runGit> =>
      runGit(['grep', '-c', 'no-such-text', 'HEAD', '--'], { cwd: repo, timeoutMs: 1 })
    const [one, two] = await Promise.all([
      gatheringCutOffs(async () => {
        await slow()
        await slow()
        return 'one'
      }),
      gatheringCutOffs(async () => {
        const r = await runGit(['log', '--format=%H'], { cwd: repo })
        return r.code
      }),
    ])
    expect(one.value).toBe('one')
    expect(one.cutOffs).toEqual([
      { command: 'git grep', limitMs: 1 },
      { command: 'git grep', limitMs: 1 },
    ])
    // The job beside it, run at the same time, finished its search: nothing gathered.
    expect(two).toEqual({ value: 0, cutOffs: [] })
    expect(cutOffsText(one.cutOffs)).toBe('2 searches ran out of time: git grep (limit 1 ms) ×2')
    // Outside a job a cut-off goes nowhere (and throws nothing).
    expect((await slow()).stderr).toContain('timed out after 1 ms')
  })
})

describe('an audit whose searches were cut off', () => {
  const { repo, mem, commit } = historyCase('cut-off-audit')

  const audit = async () => {
    clearHistoryCache()
    clearPickaxeCache()
    return auditMemory({ memoryDir: mem, repo })
  }

  it('says so, and no fresh note reads as checked', async () => {
    write(repo, 'src/price.ts', 'export function price() {\n  return applyDiscount(1)\n}\n')
    write(repo, 'src/stable.ts', 'export const stableValue = 7\n')
    // Enough to read that no search of it ends within 1 ms, however the machine is loaded.
    write(repo, 'data/big.txt', `${'export const filler = 0123456789abcdef\n'.repeat(300_000)}`)
    commit('c1', '2026-06-01T12:00:00Z')
    write(repo, 'src/price.ts', 'export function price() {\n  return 1\n}\n')
    commit('c2', '2026-06-20T12:00:00Z')
    mkdirSync(mem)
    const notes = [
      ['Price', '- `price()` in `src/price.ts` calls `applyDiscount` first'],
      ['Stable', '- `src/stable.ts` exports `stableValue`'],
    ] as const
    for (const [name, body] of notes)
      writeFileSync(join(mem, `${name}.md`), topic(body, '2026-06-10T12:00:00Z'))
    writeFileSync(
      join(mem, 'MEMORY.md'),
      `# Memory\n\n${notes.map(([n]) => `- [${n}](${n}.md) — ${n}`).join('\n')}\n`,
    )

    // Every search finished: no problem, no caveat, and the audit may be kept.
    limits.grepMs = null
    const whole = await audit()
    expect(whole.problems).toEqual([])
    expect(cutShort(whole)).toBe(false)
    expect(byTitle(whole.notes, 'Stable').verdict).toBe('fresh')
    expect(byTitle(whole.notes, 'Price').verdict).toBe('stale')
    for (const n of whole.notes) expect(n.reasons.join('\n')).not.toContain('not every check')

    // Every `git grep` cut off: the audit names the searches, and each fresh note says so.
    limits.grepMs = 1
    const cut = await audit()
    limits.grepMs = null
    // The symbol search's own failure, and the audit's word on every cut-off run.
    expect(cut.problems.map((p) => p.path)).toEqual([repo, repo])
    expect(cut.problems[0].reason).toBe('git grep failed: git grep timed out after 1 ms')
    const late = cut.problems[1].reason
    expect(late).toMatch(/^\d+ searches ran out of time: git grep \(limit 1 ms\) ×\d+; what/)
    expect(cutShort(cut)).toBe(true)
    // A name the failed search did not find is not gone: not checked, never stale.
    const price = byTitle(cut.notes, 'Price')
    expect(price.verdict).not.toBe('stale')
    expect(price.reasons).toContain(
      '`applyDiscount`: the search for it failed (git grep failed: git grep timed out after 1 ms); not checked',
    )
    const fresh = cut.notes.filter((n) => n.verdict === 'fresh')
    expect(fresh.length).toBeGreaterThan(0)
    for (const n of fresh)
      expect(n.reasons.at(-1)).toMatch(/^not every check finished \(.*git grep.*\): this note may/)
    for (const n of cut.notes.filter((x) => x.verdict !== 'fresh'))
      expect(n.reasons.join('\n')).not.toContain('not every check')
    // The CLI's report prints the problem under the summary line.
    expect(auditReport(cut).split('\n').slice(2, 4)).toEqual(
      cut.problems.map((p) => `  ! ${repo}: ${p.reason}`),
    )
  })
})
