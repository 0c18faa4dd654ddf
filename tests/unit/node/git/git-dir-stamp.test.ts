/**
 * `openRepo` answers from the `.git` reading (git-dir-stamp.ts) without starting git, and
 * never stale (issue 16): on a real repository, after each kind of change that moves HEAD, the
 * branch, the index or the refs, its answer equals a fresh one and HEAD equals git's.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { clearHistoryCache, openRepo, type RepoState } from '../../../../src/node/git/history'
import { gitDirStamp } from '../../../../src/node/git/git-dir-stamp'
import { gitProcessesStarted } from '../../../../src/node/git/run'
import { commitFiles, git } from '../../../helpers/git'

let root: string
let repo: string

beforeEach(() => {
  clearHistoryCache()
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mc-git-stamp-')))
  repo = join(root, 'repo')
  mkdirSync(repo)
  git(repo, 'init', '-q', '-b', 'main')
  commitFiles(repo, 'one', { 'a.ts': 'export const a = 1\n', 'lib/b.ts': 'export const b = 1\n' })
  commitFiles(repo, 'two', { 'a.ts': 'export const a = 2\n' })
})
afterEach(() => {
  clearHistoryCache()
  rmSync(root, { recursive: true, force: true })
})

const stateOf = async (): Promise<RepoState> => {
  const r = await openRepo(repo)
  if (!r.ok) throw new Error(r.reason)
  return r.state
}

/** openRepo twice: the second starts no git process and answers the same. */
async function warm(): Promise<RepoState> {
  const first = await stateOf()
  const started = gitProcessesStarted()
  expect(await stateOf()).toBe(first)
  expect(gitProcessesStarted()).toBe(started)
  return first
}

/** After `change`, openRepo looks again and answers as a fresh look and as git does. */
async function seesChange(change: () => void): Promise<RepoState> {
  await warm()
  change()
  const started = gitProcessesStarted()
  const now = await stateOf()
  expect(gitProcessesStarted()).toBeGreaterThan(started)
  clearHistoryCache()
  expect(await stateOf()).toEqual(now)
  const head = git(repo, 'rev-parse', 'HEAD')
  expect(now.head).toBe(head)
  expect(now.detached).toBe(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD') === 'HEAD')
  expect([...now.tracked].sort()).toEqual(git(repo, 'ls-files').split('\n').sort())
  expect(now.stamp).not.toBeNull()
  // Warm again: the new reading is kept.
  expect(await warm()).toEqual(now)
  return now
}

describe('openRepo kept by the .git reading', () => {
  it('starts no git while nothing moved, and reads again after a commit', async () => {
    const was = await warm()
    const now = await seesChange(() => git(repo, 'commit', '-q', '--allow-empty', '-m', 'three'))
    expect(now.head).not.toBe(was.head)
    expect(now.stamp).not.toBe(was.stamp)
  })

  it('sees a detached checkout of the same and of another commit', async () => {
    await seesChange(() => git(repo, 'checkout', '-q', '--detach'))
    const now = await seesChange(() => git(repo, 'checkout', '-q', 'HEAD~1'))
    expect(now.detached).toBe(true)
  })

  it('sees a file added to the index, and one removed from it', async () => {
    writeFileSync(join(repo, 'c.ts'), 'export const c = 1\n')
    const added = await seesChange(() => git(repo, 'add', 'c.ts'))
    expect(added.tracked.has('c.ts')).toBe(true)
    const removed = await seesChange(() => git(repo, 'rm', '-q', '--cached', 'lib/b.ts'))
    expect(removed.tracked.has('lib/b.ts')).toBe(false)
  })

  it('sees a branch switch, to a branch at the same commit and at another one', async () => {
    git(repo, 'branch', 'older', 'HEAD~1')
    const same = await seesChange(() => git(repo, 'switch', '-q', '-c', 'topic'))
    const older = await seesChange(() => git(repo, 'switch', '-q', 'older'))
    expect(older.head).not.toBe(same.head)
    await seesChange(() => git(repo, 'switch', '-q', 'main'))
  })

  it('sees HEAD move with refs packed, and a soft reset', async () => {
    await seesChange(() => git(repo, 'pack-refs', '--all'))
    await seesChange(() => git(repo, 'commit', '-q', '--allow-empty', '-m', 'after packing'))
    await seesChange(() => git(repo, 'pack-refs', '--all'))
    await seesChange(() => git(repo, 'reset', '-q', '--soft', 'HEAD~2'))
  })

  it('reads nothing it cannot vouch for: a linked worktree, a symbolic ref chain, an odd HEAD', async () => {
    expect(await gitDirStamp(repo)).not.toBeNull()
    const linked = join(root, 'linked')
    git(repo, 'worktree', 'add', '-q', linked, '-b', 'side')
    expect(await gitDirStamp(linked)).toBeNull()
    // HEAD naming a ref that is itself symbolic.
    git(repo, 'symbolic-ref', 'refs/heads/alias', 'refs/heads/main')
    git(repo, 'symbolic-ref', 'HEAD', 'refs/heads/alias')
    expect(await gitDirStamp(repo)).toBeNull()
    // HEAD naming something outside refs/.
    writeFileSync(join(repo, '.git', 'HEAD'), 'ref: ../../outside\n')
    expect(await gitDirStamp(repo)).toBeNull()
    expect(await gitDirStamp(join(root, 'no-such-repo'))).toBeNull()
  })

  it('keeps no answer from a failed `rev-parse` (as a timeout would give): no commit yet', async () => {
    const empty = join(root, 'empty')
    mkdirSync(empty)
    git(empty, 'init', '-q', '-b', 'main')
    expect(await gitDirStamp(empty)).not.toBeNull()
    const first = await openRepo(empty)
    expect(first.ok && first.state.head).toBeNull()
    const started = gitProcessesStarted()
    await openRepo(empty)
    expect(gitProcessesStarted()).toBeGreaterThan(started)
  })

  it('sees a config change (which decides whether git runs there at all)', async () => {
    await warm()
    writeFileSync(
      join(repo, '.git', 'config'),
      '[core]\n\trepositoryformatversion = 0\n[include]\n\tpath = /dev/null\n',
    )
    const r = await openRepo(repo)
    // The runner refuses a config that includes another file: the kept answer is not given.
    expect(r.ok).toBe(false)
  })
})
