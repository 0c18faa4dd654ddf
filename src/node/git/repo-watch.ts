/**
 * Knowing whether a work tree changed without walking it: one non-recursive `fs.watch`
 * per folder that holds tracked files. The folder list comes from `git ls-files` (already
 * read for the audit), so nothing is listed or stat'ed to start watching. Any event in
 * any of those folders counts as a change; so does an error, or a folder that cannot be
 * watched. Used to keep the last audit's search results for a click on a note (issue 7:
 * `git grep` and `git status` over 20,000 files cost more than the 200 ms a click may take).
 *
 * What it cannot see, on purpose: files inside untracked folders that already existed
 * (a new untracked folder does show, as an event in its tracked parent), and changes
 * inside `.git` — HEAD and the index are compared by the caller (history.ts RepoState.stamp,
 * the work tree's identity from cache/file-identity.ts).
 */
import { watch, type FSWatcher } from 'node:fs'
import { join } from 'node:path'

/** More folders than this are not watched (inotify's per-user limit is 8,192 on older kernels). */
export const REPO_WATCH_MAX_DIRS = 4000

export interface RepoWatch {
  /** Events seen so far; compare two readings to know whether anything changed in between. */
  readonly changes: number
  /** True once an error was reported: from then on every reading counts as a change. */
  readonly broken: boolean
  close(): void
}

/**
 * Watch `root` and each of `dirs` (relative, `/`-separated). Returns null when there are too
 * many folders or a folder cannot be watched for a reason other than being gone (ENOSPC, EMFILE).
 * The watchers never keep the process alive.
 */
export function watchWorkTree(
  root: string,
  dirs: Iterable<string>,
  maxDirs = REPO_WATCH_MAX_DIRS,
): RepoWatch | null {
  const all = ['', ...dirs]
  if (all.length > maxDirs) return null
  const watchers: FSWatcher[] = []
  const state = { changes: 0, broken: false }
  const closeAll = (): void => {
    for (const w of watchers.splice(0)) w.close()
  }
  const onEvent = (): void => {
    state.changes++
  }
  const onError = (): void => {
    state.broken = true
    state.changes++
    closeAll()
  }
  for (const rel of all) {
    try {
      const w = watch(rel === '' ? root : join(root, ...rel.split('/')), { persistent: false })
      w.on('change', onEvent)
      w.on('error', onError)
      watchers.push(w)
    } catch (err) {
      // A tracked folder deleted from the work tree: its parent's watcher sees it come back.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue
      closeAll()
      return null
    }
  }
  return {
    get changes() {
      return state.changes
    },
    get broken() {
      return state.broken
    },
    close: closeAll,
  }
}
