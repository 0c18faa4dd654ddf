/**
 * The commit a note was written on, from the history index once it is read (history-read.ts,
 * quote-then.ts `commitAt`): the same commit `git log -1 --before` names, with no git process
 * (issue 16: a memory of notes written at many times started one per time).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { clearHistoryCache, openRepo, readHistory } from '../../../../src/node/git/history'
import { gitProcessesStarted } from '../../../../src/node/git/run'
import { commitAt } from '../../../../src/node/audit/quote-then'
import { git, gitAt } from '../../../helpers/git'
import { write } from '../audit/scripted-repo'

const root = mkdtempSync(join(tmpdir(), 'mc-history-read-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('commitAt from the history index', () => {
  it('names the commit git log -1 --before names, starting no git process', async () => {
    const repo = join(root, 'repo')
    git(root, 'init', '-q', '-b', 'main', repo)
    const days = ['2026-01-01', '2026-01-05', '2026-01-09', '2026-01-13']
    days.forEach((d, i) => {
      write(repo, `src/f${i}.ts`, `export const f${i} = ${i}\n`)
      git(repo, 'add', '-A')
      gitAt(`${d}T12:00:00Z`, repo, 'commit', '-q', '-m', `c${i}`)
    })
    clearHistoryCache()
    const opened = await openRepo(repo)
    if (!opened.ok) throw new Error(opened.reason)
    const { head } = opened.state
    const times = ['2025-12-31', '2026-01-01', '2026-01-07', '2026-01-13', '2026-03-01'].map((d) =>
      Date.parse(`${d}T12:00:00Z`),
    )
    // Before the index is read: git answers, one process per time.
    const byGit = []
    for (const t of times) byGit.push(await commitAt(repo, head, t))
    expect(byGit.map((c) => c?.sha.slice(0, 7) ?? null)).toEqual([
      null,
      git(repo, 'rev-parse', '--short=7', 'HEAD~3'),
      git(repo, 'rev-parse', '--short=7', 'HEAD~2'),
      git(repo, 'rev-parse', '--short=7', 'HEAD'),
      git(repo, 'rev-parse', '--short=7', 'HEAD'),
    ])
    const h = await readHistory(opened.state)
    expect(h.ok).toBe(true)
    const before = gitProcessesStarted()
    const byIndex = []
    for (const t of times) byIndex.push(await commitAt(repo, head, t + 1000))
    expect(gitProcessesStarted()).toBe(before)
    expect(byIndex.map((c) => c?.sha ?? null)).toEqual(byGit.map((c) => c?.sha ?? null))
    expect(byIndex[2]?.date).toBe(byGit[2]?.date)
  })
})
