/**
 * Which git repository a directory belongs to, and its main worktree — the folder
 * whose encoded path keys the shared memory folder (memory-facts §1). Uses real git.
 */
import { dirname, resolve } from 'node:path'
import { stat } from 'node:fs/promises'
import { runGit } from './git-run'

export interface RepoInfo {
  /** Top level of the worktree that contains the directory. */
  readonly toplevel: string
  /** Root of the repository's main worktree (equal to `toplevel` outside linked worktrees). */
  readonly mainRoot: string
  /** True when `toplevel` is a linked worktree rather than the main one. */
  readonly isLinkedWorktree: boolean
}

const cache = new Map<string, Promise<RepoInfo | null>>()

/** Find the repository of `dir`; null when `dir` is missing or not inside a git work tree. */
export function findRepo(dir: string): Promise<RepoInfo | null> {
  const key = resolve(dir)
  let hit = cache.get(key)
  if (!hit) {
    hit = lookup(key)
    cache.set(key, hit)
  }
  return hit
}

/** Forget cached lookups (tests create and remove repositories). */
export function clearRepoCache(): void {
  cache.clear()
}

async function lookup(dir: string): Promise<RepoInfo | null> {
  try {
    if (!(await stat(dir)).isDirectory()) return null
  } catch {
    return null
  }
  const r = await runGit(
    ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir'],
    { cwd: dir, timeoutMs: 15_000 },
  )
  if (r.code !== 0) return null
  const [toplevel, commonDir] = r.stdout.split('\n')
  if (!toplevel || !commonDir) return null
  // The common dir of a non-bare repository is `<main worktree>/.git`.
  const mainRoot = commonDir.endsWith('/.git') ? dirname(commonDir) : toplevel
  return { toplevel, mainRoot, isLinkedWorktree: mainRoot !== toplevel }
}
