/**
 * The history log kept between runs (issue 16): a second run at the same HEAD asks git for no
 * log; a HEAD that moved on logs only the new commits (a merge of an older side branch among
 * them) and gives the index a whole log gives; a rewritten history, a damaged file and a file of
 * another work tree are logged again. Real git, real files.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { HistoryIndex } from '../../../../src/core/git/parse'
import { clearHistoryCache, openRepo, readHistory } from '../../../../src/node/git/history'
import { keepHistoryIn, keptLogPath } from '../../../../src/node/git/history-store'
import { gitProcessesStarted } from '../../../../src/node/git/run'
import { git, gitAt } from '../../../helpers/git'
import { write } from '../audit/scripted-repo'

const base = mkdtempSync(join(tmpdir(), 'mc-history-store-'))
const kept = join(base, 'state', 'history')
afterAll(() => rmSync(base, { recursive: true, force: true }))
afterEach(() => keepHistoryIn(null))

/** The index as plain data, without log positions (a tie-break only). */
function plain(ix: HistoryIndex): unknown {
  const strip = (t: { sha: string; time: number; date: string }): unknown => ({
    ...t,
    order: undefined,
  })
  return {
    lastTouch: [...ix.lastTouch].map(([k, v]) => [k, strip(v)]).sort(),
    leaves: [...ix.leaves].map(([k, v]) => [k, v.map(strip)]).sort(),
    arrivals: [...ix.arrivals].map(([k, v]) => [k, strip(v)]).sort(),
    commits: ix.commits.map(strip),
  }
}

async function indexOf(repo: string, keep: boolean): Promise<{ ix: HistoryIndex; runs: number }> {
  keepHistoryIn(keep ? kept : null)
  clearHistoryCache()
  const opened = await openRepo(repo)
  if (!opened.ok) throw new Error('not a repository')
  const before = gitProcessesStarted()
  const h = await readHistory(opened.state)
  if (!h.ok) throw new Error(h.reason)
  return { ix: h.index, runs: gitProcessesStarted() - before }
}

describe('the history log kept between runs', () => {
  const repo = join(base, 'repo')
  git(base, 'init', '-q', '-b', 'main', repo)
  write(repo, 'src/a.ts', 'export const a = 1\n'.repeat(20))
  write(repo, 'src/b.ts', 'export const b = 1\n')
  git(repo, 'add', '-A')
  gitAt('2026-01-01T12:00:00Z', repo, 'commit', '-q', '-m', 'c1')

  it('logs once, then reads the kept log while HEAD stays', async () => {
    const first = await indexOf(repo, true)
    expect(existsSync(keptLogPath(kept, repo))).toBe(true)
    const second = await indexOf(repo, true)
    expect(plain(second.ix)).toEqual(plain(first.ix))
    // The kept log spares the `git log` run: no git at all.
    expect(first.runs).toBeGreaterThan(0)
    expect(second.runs).toBe(0)
  })

  it('logs only the new commits when HEAD moved on, and gives the whole index', async () => {
    await indexOf(repo, true)
    // A side branch with an older date, merged after newer work on main; a move and a delete.
    git(repo, 'checkout', '-q', '-b', 'side')
    write(repo, 'other/side.ts', 'export const side = 1\n')
    git(repo, 'add', '-A')
    gitAt('2026-01-05T12:00:00Z', repo, 'commit', '-q', '-m', 'side')
    git(repo, 'checkout', '-q', 'main')
    mkdirSync(join(repo, 'lib'))
    git(repo, 'mv', 'src/a.ts', 'lib/a.ts')
    git(repo, 'rm', '-q', 'src/b.ts')
    gitAt('2026-02-01T12:00:00Z', repo, 'commit', '-q', '-m', 'move')
    gitAt('2026-02-02T12:00:00Z', repo, 'merge', '-q', '--no-ff', '-m', 'merge', 'side')
    const incremental = await indexOf(repo, true)
    const whole = await indexOf(repo, false)
    // Two git runs (the ancestry check, the log of the new commits) where a whole log is one;
    // each may list the repository's config first (run.ts), the later ones no more than earlier.
    expect(incremental.runs).toBeGreaterThan(whole.runs)
    expect(plain(incremental.ix)).toEqual(plain(whole.ix))
    expect(incremental.ix.leaves.get('src/a.ts')?.[0]).toMatchObject({ kind: 'renamed' })
    expect(incremental.ix.commits).toHaveLength(4)
  })

  it('logs everything again after a rewrite, or from a damaged or foreign file', async () => {
    await indexOf(repo, true)
    git(repo, 'reset', '-q', '--hard', 'HEAD~1')
    write(repo, 'src/c.ts', 'export const c = 1\n')
    git(repo, 'add', '-A')
    gitAt('2026-03-01T12:00:00Z', repo, 'commit', '-q', '-m', 'rewritten')
    const rewritten = await indexOf(repo, true)
    expect(plain(rewritten.ix)).toEqual(plain((await indexOf(repo, false)).ix))
    expect(rewritten.ix.commits).toHaveLength(3)

    const file = keptLogPath(kept, repo)
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, text.replace(JSON.stringify(repo), JSON.stringify(join(base, 'other'))))
    expect(plain((await indexOf(repo, true)).ix)).toEqual(plain(rewritten.ix))
    writeFileSync(file, 'not a log\n\x1egarbage\0')
    expect(plain((await indexOf(repo, true)).ix)).toEqual(plain(rewritten.ix))
  })

  it('keeps at most 24 logs, the most recently written', async () => {
    const dir = join(base, 'many')
    const made: string[] = []
    for (let i = 0; i < 26; i++) {
      const r = join(base, `r${i}`)
      git(base, 'init', '-q', '-b', 'main', r)
      write(r, 'x.ts', `x${i}\n`)
      git(r, 'add', '-A')
      gitAt('2026-01-01T12:00:00Z', r, 'commit', '-q', '-m', 'x')
      keepHistoryIn(dir)
      clearHistoryCache()
      const opened = await openRepo(r)
      if (!opened.ok) throw new Error('not a repository')
      await readHistory(opened.state)
      made.push(keptLogPath(dir, r))
    }
    expect(readdirSync(dir).filter((n) => n.endsWith('.log'))).toHaveLength(24)
    expect(existsSync(made[25])).toBe(true)
  }, 60_000)

  it('keeps nothing where the process names no folder', async () => {
    const other = join(base, 'plain')
    git(base, 'init', '-q', '-b', 'main', other)
    write(other, 'x.ts', 'x\n')
    git(other, 'add', '-A')
    gitAt('2026-01-01T12:00:00Z', other, 'commit', '-q', '-m', 'x')
    await indexOf(other, false)
    expect(existsSync(keptLogPath(kept, other))).toBe(false)
  })
})
