/**
 * The audit's facts kept for a click on a note (issue 7): reused only while they still
 * hold, on a real repository with real edits, commits and file-system events. Once warm, a
 * click starts no git process (issue 16: a diff within 150 ms); after a commit, a checkout, a
 * `git add` or a branch switch it looks again, and every note's diffs equal a fresh look's.
 */
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { auditMemory } from '../../../../src/node/audit/audit'
import { AuditFactsCache } from '../../../../src/node/audit/audit-cache'
import { noteDiffs } from '../../../../src/node/audit/note-diffs'
import type { AuditReport } from '../../../../src/node/audit/audit'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { watchWorkTree } from '../../../../src/node/git/repo-watch'
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
  fx.cleanup()
})

const audit = (): Promise<AuditReport> =>
  auditMemory({ memoryDir: fx.memoryDir, repo: fx.repo, cache })

function noteOf(report: AuditReport, title: string): AuditReport['notes'][number] {
  const n = report.notes.find((x) => x.title === title)
  if (!n) throw new Error(`no note titled ${title}`)
  return n
}

const diffsOf = (n: AuditReport['notes'][number], withCache = true) =>
  noteDiffs({
    memoryDir: fx.memoryDir,
    repo: fx.repo,
    file: n.file,
    line: n.line,
    ...(withCache ? { cache } : {}),
  })

const symbolStatus = async (n: AuditReport['notes'][number], name: string): Promise<string> => {
  const d = (await diffsOf(n)).find((x) => x.reference.text === name)
  if (!d) throw new Error(`no reference ${name}`)
  return d.reference.status
}

describe('AuditFactsCache', () => {
  it('answers every click after an audit by reading what its result kept (issue 12 item 8), with the same diffs as a fresh look', async () => {
    const report = await audit()
    expect(report.notes.length).toBe(7)
    for (const n of report.notes) {
      const kept = await diffsOf(n)
      const fresh = await diffsOf(n, false)
      expect(kept, n.title).toEqual(fresh)
    }
    expect(cache.stats).toEqual({ reused: 0, gathered: 0, notesKept: 0, readFromResult: 7 })
  })

  it('sees an edit in the work tree: a symbol put back is found again', async () => {
    const money = noteOf(await audit(), fx.notes.removedSymbol)
    expect(await symbolStatus(money, 'formatPrice()')).toBe('missing')
    expect(cache.stats.readFromResult).toBe(1)
    writeFileSync(
      join(fx.repo, 'src', 'money.ts'),
      'export function formatPrice(cents: number): string {\n  return String(cents)\n}\n',
    )
    expect(await symbolStatus(money, 'formatPrice()')).toBe('ok')
    expect(cache.stats).toMatchObject({ readFromResult: 1, gathered: 1 })
    // The facts found afresh are not kept: the next click looks again too.
    expect(await symbolStatus(money, 'formatPrice()')).toBe('ok')
    expect(cache.stats).toMatchObject({ readFromResult: 1, gathered: 2 })
  })

  it('sees a new untracked file in a tracked folder', async () => {
    const money = noteOf(await audit(), fx.notes.removedSymbol)
    writeFileSync(join(fx.repo, 'src', 'legacy-format.ts'), 'export const formatPrice = String\n')
    expect(await symbolStatus(money, 'formatPrice()')).toBe('ok')
    expect(cache.stats.gathered).toBe(1)
  })

  it('sees a new untracked folder', async () => {
    const money = noteOf(await audit(), fx.notes.removedSymbol)
    mkdirSync(join(fx.repo, 'lib', 'old'), { recursive: true })
    writeFileSync(join(fx.repo, 'lib', 'old', 'format.ts'), 'export const formatPrice = String\n')
    expect(await symbolStatus(money, 'formatPrice()')).toBe('ok')
    expect(cache.stats.gathered).toBe(1)
  })

  it('sees a commit that changes no file in the work tree (HEAD moved)', async () => {
    const fresh = noteOf(await audit(), fx.notes.fresh)
    git(fx.repo, 'commit', '-q', '--allow-empty', '-m', 'empty')
    await diffsOf(fresh)
    expect(cache.stats).toMatchObject({ reused: 0, gathered: 1 })
  })

  it('sees a file staged for removal (the index changed, the tracked files too)', async () => {
    const stable = noteOf(await audit(), fx.notes.fresh)
    git(fx.repo, 'rm', '-q', '--cached', 'src/stable.ts')
    await diffsOf(stable)
    expect(cache.stats).toMatchObject({ reused: 0, gathered: 1 })
  })

  it('reads the memory folder again when the index changed, and still reuses the facts of an unchanged note', async () => {
    const report = await audit()
    const stable = noteOf(report, fx.notes.fresh)
    await diffsOf(stable)
    expect(cache.stats).toEqual({ reused: 0, gathered: 0, notesKept: 0, readFromResult: 1 })
    writeFileSync(
      fx.index,
      `${readFileSync(fx.index, 'utf8')}- [Later](later.md) — added after the audit\n`,
    )
    const kept = await diffsOf(stable)
    expect(cache.stats).toEqual({ reused: 1, gathered: 0, notesKept: 0, readFromResult: 1 })
    expect(kept).toEqual(await diffsOf(stable, false))
  })

  it('checks a note whose topic file was replaced by the same text with one byte changed', async () => {
    const report = await audit()
    const stable = noteOf(report, fx.notes.fresh)
    const topic = join(fx.memoryDir, 'stable.md')
    writeFileSync(topic, readFileSync(topic, 'utf8').replace('`stableValue`', '`stableValu`'))
    const diffs = await diffsOf(stable)
    expect(diffs.map((d) => [d.reference.text, d.reference.status])).toEqual([
      ['src/stable.ts', 'ok'],
      ['stableValu', 'missing'],
    ])
    expect(cache.stats).toEqual({ reused: 0, gathered: 1, notesKept: 0, readFromResult: 0 })
  })

  it('checks an edited note afresh', async () => {
    const money = noteOf(await audit(), fx.notes.removedSymbol)
    writeFileSync(
      join(fx.memoryDir, 'money.md'),
      '---\nname: Money formatting\n---\n\nPrices are formatted by `formatMoney()` in `src/money.ts`.\n',
    )
    const diffs = await diffsOf(money)
    expect(diffs.map((d) => [d.reference.text, d.reference.status])).toEqual([
      ['formatMoney()', 'ok'],
      ['src/money.ts', 'ok'],
    ])
    expect(cache.stats).toMatchObject({ reused: 0, gathered: 1 })
  })

  it('keeps nothing when the work tree changed while the audit ran', async () => {
    const running = audit()
    // Written while the audit searches: its facts may predate this edit.
    setTimeout(() => writeFileSync(join(fx.repo, 'src', 'cart.ts'), 'export const total = 0\n'), 0)
    const report = await running
    // Either the edit landed before the watcher started (then the audit saw it and kept its
    // facts) or after (then nothing was kept): never a kept audit that missed it.
    const d = await diffsOf(noteOf(report, fx.notes.fresh2), false)
    expect(d.find((x) => x.reference.text === 'cartTotal()')?.reference.status).toBe('missing')
    const kept = await diffsOf(noteOf(report, fx.notes.fresh2))
    expect(kept).toEqual(d)
  })

  it('keeps an audit whose repository another audit, ending first, stopped relying on', async () => {
    // A second project on its own repository, audited to the end while the first one runs.
    const other = join(fx.root, 'other')
    mkdirSync(join(other, 'src'), { recursive: true })
    writeFileSync(join(other, 'src', 'a.ts'), 'export const a = 1\n')
    execFileSync('git', ['init', '-q'], { cwd: other })
    execFileSync(
      'git',
      ['-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'x'],
      { cwd: other },
    )
    const otherMemory = join(fx.root, 'other-memory')
    mkdirSync(otherMemory)
    writeFileSync(join(otherMemory, 'MEMORY.md'), '# Memory\n\n- `src/a.ts` exports `a`.\n')
    let inner: Promise<unknown> | null = null
    const report = await auditMemory({
      memoryDir: fx.memoryDir,
      repo: fx.repo,
      cache,
      // Called while the first audit judges its notes, after it armed its watcher.
      writtenAtFor: async () => {
        inner ??= auditMemory({ memoryDir: otherMemory, repo: other, cache })
        await inner
        return null
      },
    })
    expect(inner).not.toBeNull()
    await diffsOf(noteOf(report, fx.notes.fresh))
    expect(cache.stats).toMatchObject({ readFromResult: 1, gathered: 0 })
  })

  it('a click without an audit before it gathers the facts itself', async () => {
    const other = new AuditFactsCache()
    const report = await auditMemory({ memoryDir: fx.memoryDir, repo: fx.repo })
    await noteDiffs({
      memoryDir: fx.memoryDir,
      repo: fx.repo,
      file: report.notes[0]!.file,
      line: report.notes[0]!.line,
      cache: other,
    })
    expect(other.stats).toEqual({ reused: 0, gathered: 1, notesKept: 0, readFromResult: 0 })
    other.close()
  })
})

describe('watchWorkTree', () => {
  let dir: string
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mc-repo-watch-')))
    mkdirSync(join(dir, 'a', 'b'), { recursive: true })
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const settle = (): Promise<void> => new Promise((ok) => setTimeout(ok, 100))

  it('counts events in the root and in nested folders, and none after close', async () => {
    const w = watchWorkTree(dir, ['a', 'a/b', 'gone'])
    expect(w).not.toBeNull()
    await settle()
    expect(w!.changes).toBe(0)
    writeFileSync(join(dir, 'a', 'b', 'x.ts'), 'x')
    await settle()
    const afterNested = w!.changes
    expect(afterNested).toBeGreaterThan(0)
    writeFileSync(join(dir, 'top.ts'), 'y')
    await settle()
    expect(w!.changes).toBeGreaterThan(afterNested)
    w!.close()
    const closed = w!.changes
    writeFileSync(join(dir, 'a', 'z.ts'), 'z')
    await settle()
    expect(w!.changes).toBe(closed)
    expect(w!.broken).toBe(false)
  })

  it('refuses more folders than its limit', () => {
    expect(watchWorkTree(dir, ['a', 'a/b'], 2)).toBeNull()
  })
})

/** Audit, then click every note until warm: the last round starts no git process. */
async function warmed(): Promise<AuditReport> {
  const report = await audit()
  for (const n of report.notes) await diffsOf(n)
  const started = gitProcessesStarted()
  for (const n of report.notes) await diffsOf(n)
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
  for (const n of report.notes) clicked.push(await diffsOf(n))
  expect(cache.stats.readFromResult).toBe(read)
  expect(gitProcessesStarted()).toBeGreaterThan(started)
  clearHistoryCache()
  for (const [i, n] of report.notes.entries())
    expect(clicked[i], n.title).toEqual(await diffsOf(n, false))
}

const statusOf = (diffs: readonly NoteDiff[], text: string): string | undefined =>
  diffs.find((d) => d.reference.text === text)?.reference.status

describe('a click on a warm note', () => {
  it('starts no git process, and answers as a fresh look', async () => {
    const report = await warmed()
    for (const n of report.notes) {
      const warm = await diffsOf(n)
      expect(warm, n.title).toEqual(await diffsOf(n, false))
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
      await diffsOf(n)
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
    expect(statusOf(await diffsOf(money), 'formatPrice()')).toBe('ok')
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
