/**
 * The work tree as HEAD and the files that differ (node/git/work-tree-delta.ts; issue 16). On a
 * real repository, through a series of edits (a changed file, an untracked one, a deletion, a
 * staged change, an ignored file, a tracked file an ignore rule matches, a list cut at its
 * bound), the audit's searches of the work tree answer from HEAD's kept searches exactly what
 * searching the work tree itself answers; the second scope, HEAD's searches kept, runs no grep
 * of HEAD again; a tracked file is searched whatever the ignore rules say.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { grepLines } from '../../../../src/node/audit/prose-grep'
import { flushKeptSearches } from '../../../../src/node/git/kept-searches'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { keepHistoryIn } from '../../../../src/node/git/history-store'
import { searchPatterns } from '../../../../src/node/git/pattern-search'
import { gitProcessesStarted } from '../../../../src/node/git/run'
import {
  mergeWithDelta,
  positivesTake,
  withoutWorkTreeDeltas,
  withWorkTreeDeltas,
  workTreeDelta,
} from '../../../../src/node/git/work-tree-delta'
import { git } from '../../../helpers/git'

const base = mkdtempSync(join(tmpdir(), 'mc-work-tree-delta-'))
const kept = join(base, 'state', 'history')
afterAll(() => rmSync(base, { recursive: true, force: true }))
afterEach(() => keepHistoryIn(null))

const write = (root: string, rel: string, text: string): void => {
  mkdirSync(join(root, rel, '..'), { recursive: true })
  writeFileSync(join(root, rel), text)
}

const WORDS = ['alphaWord', 'betaWord', 'gammaWord', 'commonWord', 'depName']
const LINES = { code: ['alphaWord', 'commonWord', 'gammaWord'], manifest: ['depname'] }

/** The searches as an audit runs them; `scoped`: from HEAD, else of the work tree itself. */
async function searches(repo: string, scoped: boolean): Promise<unknown> {
  const run = async (): Promise<unknown> => {
    const words = await searchPatterns(repo, WORDS, true, { exclude: ['notes/n.md'] })
    const text = await searchPatterns(repo, ['alphaWord()', 'commonWord ='], false)
    const lines = await grepLines(repo, null, LINES)
    const plain = (m: ReadonlyMap<string, unknown> | undefined): unknown =>
      m ? Object.fromEntries(m) : null
    return {
      words: words.ok ? plain(words.files) : words.reason,
      text: text.ok ? plain(text.files) : text.reason,
      code: plain(lines?.code),
      manifest: plain(lines?.manifest),
    }
  }
  clearHistoryCache()
  const out = scoped ? await withWorkTreeDeltas(run) : await withoutWorkTreeDeltas(run)
  await flushKeptSearches()
  return out
}

describe('searches of the work tree from HEAD and the files that differ', () => {
  const repo = join(base, 'repo')

  it('answer what a search of the work tree answers, edit after edit', async () => {
    git(base, 'init', '-q', '-b', 'main', repo)
    write(repo, 'src/a.ts', 'export function alphaWord() {}\nexport const betaWord = 1\n')
    // 25 files hold commonWord: the word's file list is cut at 20.
    for (let i = 0; i < 25; i++)
      write(repo, `lib/f${String(i).padStart(2, '0')}.ts`, `export const commonWord = ${i}\n`)
    write(repo, 'package.json', '{ "dependencies": { "depName": "1.0.0" } }\n')
    write(repo, 'docs/guide.md', 'alphaWord is documented here\n')
    write(repo, 'notes/n.md', 'alphaWord betaWord\n')
    write(repo, '.gitignore', 'ignored/\n')
    git(repo, 'add', '-A')
    git(repo, 'commit', '-q', '-m', 'first')
    keepHistoryIn(kept)

    const edits: [string, () => void][] = [
      ['a clean work tree', () => undefined],
      ['a changed file', () => write(repo, 'src/a.ts', 'export function gammaWord() {}\n')],
      ['an untracked file', () => write(repo, 'src/new.ts', 'alphaWord()\ncommonWord = 1\n')],
      ['a deleted file inside the cut list', () => unlinkSync(join(repo, 'lib/f03.ts'))],
      ['a staged change', () => git(repo, 'add', 'src/a.ts')],
      ['an ignored file', () => write(repo, 'ignored/x.ts', 'alphaWord commonWord\n')],
      ['a changed manifest', () => write(repo, 'package.json', '{ "name": "depname-x" }\n')],
      ['a file the cut list ends on', () => write(repo, 'lib/f20.ts', 'const other = 1\n')],
      [
        'a tracked file an ignore rule matches',
        () => write(repo, '.gitignore', 'ignored/\nlib/\n'),
      ],
      [
        'a changed file an ignore rule matches',
        () => write(repo, 'lib/f05.ts', 'export const commonWord = 5\nalphaWord()\n'),
      ],
    ]
    for (const [what, edit] of edits) {
      edit()
      const direct = await searches(repo, false)
      expect(await searches(repo, true), what).toEqual(direct)
      // Again, HEAD's searches now kept: the same answer.
      expect(await searches(repo, true), `${what}, kept`).toEqual(direct)
    }
  })

  it('search a tracked file an ignore rule matches, and no ignored untracked one', async () => {
    keepHistoryIn(kept)
    const found = await withWorkTreeDeltas(() =>
      searchPatterns(repo, ['commonWord', 'alphaWord'], true),
    )
    const files = (w: string): readonly string[] => (found.ok ? (found.files.get(w) ?? []) : [])
    expect(files('commonWord')).toContain('lib/f00.ts') // `lib/` is ignored, lib/f00.ts tracked
    expect(files('alphaWord')).toContain('src/new.ts') // untracked, not ignored
    expect(files('alphaWord')).not.toContain('ignored/x.ts')
  })

  it('search HEAD once: on a clean work tree the next scope runs no grep', async () => {
    keepHistoryIn(kept)
    git(repo, 'add', '-A')
    git(repo, 'commit', '-q', '-m', 'second')
    await searches(repo, true)
    let before = gitProcessesStarted()
    const direct = await searches(repo, false)
    const directRuns = gitProcessesStarted() - before
    before = gitProcessesStarted()
    expect(await searches(repo, true)).toEqual(direct)
    const scopedRuns = gitProcessesStarted() - before
    clearHistoryCache()
    before = gitProcessesStarted()
    await withWorkTreeDeltas(async () => {
      await workTreeDelta(repo)
    })
    const statusRuns = gitProcessesStarted() - before
    // The work tree itself: two greps per search (tracked files, untracked ones) for four
    // searches. From HEAD, its answers kept and no file differing: the status reads only.
    expect(directRuns).toBeGreaterThanOrEqual(8)
    expect(scopedRuns).toBe(statusRuns)
  })

  it('is not read with too many files differing', async () => {
    keepHistoryIn(kept)
    expect(await withoutWorkTreeDeltas(() => workTreeDelta(repo))).toBeNull()
    for (let i = 0; i < 300; i++) write(repo, `gen/u${i}.ts`, `alphaWord ${i}\n`)
    expect(await withWorkTreeDeltas(() => workTreeDelta(repo))).toBeNull()
    const direct = await searches(repo, false)
    expect(await searches(repo, true)).toEqual(direct)
    rmSync(join(repo, 'gen'), { recursive: true })
  })
})

describe('merging HEAD and the differing files', () => {
  const delta = { head: 'h', changed: new Set(['b']), untracked: ['u'], changedIgnored: false }
  const merge = (head: string[], inDelta: string[], cap: number): string[] | null =>
    mergeWithDelta(
      delta,
      head,
      inDelta,
      cap,
      (s) => s,
      () => 0,
    )

  it('puts the differing files in git order, untracked last', () => {
    expect(merge(['a', 'b', 'c'], ['u', 'b'], 10)).toEqual(['a', 'b', 'c', 'u'])
    expect(merge(['a', 'b', 'c'], [], 10)).toEqual(['a', 'c'])
  })

  it('says nothing when a cut list could hide an earlier item', () => {
    // HEAD's list is cut at 3 after `c`; `b` is gone from it: what came after `c` is unknown.
    expect(merge(['a', 'b', 'c'], [], 3)).toBeNull()
    // The differing files put one back before the cut: the first three are known.
    expect(merge(['a', 'b', 'c'], ['b'], 3)).toEqual(['a', 'b', 'c'])
  })

  it('reads only the pathspecs it knows', () => {
    expect(positivesTake(['.', ':(exclude,glob)**/docs/**'], 'docs/x.md')).toBe(true)
    expect(positivesTake([':(glob)**/package.json'], 'a/package.json')).toBe(true)
    expect(positivesTake([':(glob)**/*.toml'], 'a/b.json')).toBe(false)
    expect(positivesTake([':(glob)src/**'], 'src/a.ts')).toBeNull()
  })
})
