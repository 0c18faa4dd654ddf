/**
 * The history index when the object store lacks blobs (a partial clone, `--filter=blob:none`, or
 * a damaged store): rename detection cannot read them and `git log -M` fails; the index is read
 * again without renames, so deletions and their commits are still known (issue 12 item 1: a
 * stale verdict names the commit that changed the reference).
 */
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { clearHistoryCache, openRepo, readHistory } from '../../../../src/node/git/history'
import { git, gitAt } from '../../../helpers/git'
import { write } from '../audit/scripted-repo'

const root = mkdtempSync(join(tmpdir(), 'mc-history-missing-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('readHistory without some blobs', () => {
  it('still knows what was deleted, and when, from the names alone', async () => {
    const repo = join(root, 'repo')
    git(root, 'init', '-q', '-b', 'main', repo)
    write(repo, 'src/ui/overlay.tsx', 'export const overlay = 1\n'.repeat(20))
    write(repo, 'src/keep.ts', 'export const keep = 1\n')
    git(repo, 'add', '-A')
    gitAt('2026-01-01T12:00:00Z', repo, 'commit', '-q', '-m', 'c1')
    // A move with a small edit: git pairs it as a rename by reading both blobs.
    write(
      repo,
      'apps/web/src/ui/overlay.tsx',
      `${'export const overlay = 1\n'.repeat(20)}export const z = 10\n`,
    )
    git(repo, 'rm', '-q', 'src/ui/overlay.tsx')
    git(repo, 'add', '-A')
    gitAt('2026-02-01T12:00:00Z', repo, 'commit', '-q', '-m', 'move')
    const moveSha = git(repo, 'rev-parse', 'HEAD')

    clearHistoryCache()
    const opened = await openRepo(repo)
    if (!opened.ok) throw new Error('not a repository')
    const whole = await readHistory(opened.state)
    if (!whole.ok) throw new Error(whole.reason)
    expect(whole.index.leaves.get('src/ui/overlay.tsx')?.[0]).toMatchObject({ kind: 'renamed' })

    // Lose the old blob, as a blobless clone that never fetched it would.
    const blob = git(repo, 'rev-parse', 'HEAD~1:src/ui/overlay.tsx')
    unlinkSync(join(repo, '.git', 'objects', blob.slice(0, 2), blob.slice(2)))
    clearHistoryCache()
    const reopened = await openRepo(repo)
    if (!reopened.ok) throw new Error('not a repository')
    const partial = await readHistory(reopened.state)
    if (!partial.ok) throw new Error(partial.reason)
    expect(partial.index.leaves.get('src/ui/overlay.tsx')?.[0]).toMatchObject({
      kind: 'deleted',
      sha: moveSha,
    })
    expect(partial.index.arrivals.get('apps/web/src/ui/overlay.tsx')?.sha).toBe(moveSha)
    expect(partial.index.commits).toHaveLength(2)
  })
})
