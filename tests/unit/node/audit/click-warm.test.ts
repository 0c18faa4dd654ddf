/**
 * A click on a note after an audit (issue 16: a diff within 150 ms): once warm, it starts no
 * git process; after a commit, a checkout, a `git add` or a branch switch it looks again, and
 * every note's diffs equal a fresh look's. On a real repository (tests/helpers/audit-fixture.ts).
 */
import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { auditMemory, type AuditReport } from '../../../../src/node/audit/audit'
import { AuditFactsCache } from '../../../../src/node/audit/audit-cache'
import { noteDiffs } from '../../../../src/node/audit/note-diffs'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { gitProcessesStarted } from '../../../../src/node/git/run'
import type { NoteDiff } from '../../../../src/shared/model'
import { createAuditFixture, type AuditFixture } from '../../../helpers/audit-fixture'
import { git } from '../../../helpers/git'

let fx: AuditFixture
let cache: AuditFactsCache

beforeEach(() => {
  clearHistoryCache()
  fx = createAuditFixture()
  cache = new AuditFactsCache()
})
afterEach(() => {
  cache.close()
  clearHistoryCache()
  fx.cleanup()
})

type Note = AuditReport['notes'][number]

const click = (n: Note, withCache = true): Promise<NoteDiff[]> =>
  noteDiffs({
    memoryDir: fx.memoryDir,
    repo: fx.repo,
    file: n.file,
    line: n.line,
    ...(withCache ? { cache } : {}),
  })

/** Audit, then click every note until warm: the last round starts no git process. */
async function warmed(): Promise<AuditReport> {
  const report = await auditMemory({ memoryDir: fx.memoryDir, repo: fx.repo, cache })
  for (const n of report.notes) await click(n)
  const started = gitProcessesStarted()
  for (const n of report.notes) await click(n)
  expect(gitProcessesStarted()).toBe(started)
  expect(cache.stats.readFromResult).toBe(2 * report.notes.length)
  return report
}

/** After `change`, the first click does not read the kept result, and every click is fresh. */
async function seesChange(change: () => void): Promise<void> {
  const report = await warmed()
  change()
  const read = cache.stats.readFromResult
  const started = gitProcessesStarted()
  const clicked: NoteDiff[][] = []
  for (const n of report.notes) clicked.push(await click(n))
  expect(cache.stats.readFromResult).toBe(read)
  expect(gitProcessesStarted()).toBeGreaterThan(started)
  clearHistoryCache()
  for (const [i, n] of report.notes.entries())
    expect(clicked[i], n.title).toEqual(await click(n, false))
}

const statusOf = (diffs: NoteDiff[], text: string): string | undefined =>
  diffs.find((d) => d.reference.text === text)?.reference.status

describe('a click on a warm note', () => {
  it('starts no git process, and answers as a fresh look', async () => {
    const report = await warmed()
    for (const n of report.notes) {
      const warm = await click(n)
      expect(warm, n.title).toEqual(await click(n, false))
    }
  })

  it("stays warm while other folders are audited between clicks (the window's background checks)", async () => {
    const report = await warmed()
    const n = report.notes[0]!
    // More audits than the cache keeps (4): each click keeps the clicked audit the most recent.
    for (let i = 0; i < 6; i++) {
      const other = join(fx.root, `other-memory-${i}`)
      cpSync(fx.memoryDir, other, { recursive: true })
      await auditMemory({ memoryDir: other, repo: fx.repo, cache })
      const read = cache.stats.readFromResult
      const started = gitProcessesStarted()
      await click(n)
      expect(cache.stats.readFromResult, `after ${i + 1} other audits`).toBe(read + 1)
      expect(gitProcessesStarted()).toBe(started)
    }
  })

  it('looks again after a commit', async () => {
    await seesChange(() => git(fx.repo, 'commit', '-q', '--allow-empty', '-m', 'later'))
  })

  it('looks again after a checkout of an older commit', async () => {
    await seesChange(() => git(fx.repo, 'checkout', '-q', '--detach', 'HEAD~2'))
    // At that commit `formatPrice()` is in src/money.ts again.
    const report = await auditMemory({ memoryDir: fx.memoryDir, repo: fx.repo })
    const money = report.notes.find((n) => n.title === fx.notes.removedSymbol)!
    expect(statusOf(await click(money), 'formatPrice()')).toBe('ok')
  })

  it('looks again after `git add` (only the index changed)', async () => {
    // Written before the audit: the work tree does not change after it.
    writeFileSync(join(fx.repo, 'src', 'extra.ts'), 'export const extra = 1\n')
    await seesChange(() => git(fx.repo, 'add', 'src/extra.ts'))
  })

  it('looks again after a branch switch', async () => {
    git(fx.repo, 'branch', 'before-money', 'HEAD~2')
    await seesChange(() => git(fx.repo, 'switch', '-q', 'before-money'))
  })
})
