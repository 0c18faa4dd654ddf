/**
 * The `.git` a git run would use, read before it starts (run.ts): the nearest `.git` above a
 * folder, whether a `.git` file leads outside its repository, and a reading of the config files
 * that keeps their listing while they read the same.
 */
import type { Stats } from 'node:fs'
import { lstat, readFile, realpath } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { parseGitFile } from '../../core/git/parse'

/** A config file changed more recently than this is listed every time. */
const RACY_MS = 2000

/** The `.git` folder found and a reading of its config files, or null (not kept). */
export async function configStamp(
  found: DotGit | null,
): Promise<{ gitDir: string; stamp: string } | null> {
  if (found === null || !found.st.isDirectory()) return null
  const { dotGit } = found
  // A `commondir` file sends git to another folder's config: listed every time.
  if ((await lstat(join(dotGit, 'commondir')).catch(() => null)) !== null) return null
  const parts = await Promise.all(
    ['config', 'config.worktree'].map(async (name) => {
      const f = await lstat(join(dotGit, name), { bigint: true }).catch(() => null)
      if (f === null) return 'none'
      // A file changed within the last moments could change again within the same tick
      // of the file system's clock, unseen by these times (git's "racy" case): not kept.
      const newest = Number(f.mtimeNs > f.ctimeNs ? f.mtimeNs : f.ctimeNs) / 1e6
      if (!f.isFile() || Date.now() - newest < RACY_MS) return null
      return `${f.dev}:${f.ino}:${f.size}:${f.mtimeNs}:${f.ctimeNs}`
    }),
  )
  return parts.includes(null) ? null : { gitDir: dotGit, stamp: parts.join('|') }
}

/**
 * Why git must not start in `cwd`: the nearest `.git` above it is a file whose `gitdir:` leads
 * neither to a linked worktree that names this `.git` back (`<gitdir>/gitdir`, written by
 * `git worktree add`) nor into `<ancestor>/.git/modules/` (a submodule). Null when there is no
 * such file. Exported for tests.
 */
export async function foreignGitFile(cwd: string): Promise<string | null> {
  return foreignOf(await nearestDotGit(cwd))
}

export async function foreignOf(found: DotGit | null): Promise<string | null> {
  // No `.git` above (git itself reports a missing folder), or a `.git` folder: nothing foreign.
  if (found === null || found.st.isDirectory()) return null
  const { dotGit, st } = found
  const d = dirname(dotGit)
  const refused = `${dotGit} leads outside this repository; git is not run there`
  if (!st.isFile() || st.size > 4096) return refused
  const target = parseGitFile(await readFile(dotGit, 'utf8').catch(() => ''))
  if (target === null) return refused
  const gitDir = await realpath(isAbsolute(target) ? target : resolve(d, target)).catch(() => null)
  if (gitDir === null) return null // git reports the broken link and reads nothing
  const back = await readFile(join(gitDir, 'gitdir'), 'utf8').catch(() => null)
  // Relative when the worktree was added with `worktree.useRelativePaths` (git 2.48).
  const backPath = back === null ? null : resolve(gitDir, back.trim())
  if (backPath !== null && (await realpath(backPath).catch(() => null)) === dotGit) return null
  for (let a = dirname(d); ; a = dirname(a)) {
    if (gitDir.startsWith(join(a, '.git', 'modules') + sep)) return null
    if (dirname(a) === a) break
  }
  return refused
}

/** The nearest `.git` at or above `cwd` (its real path) and what it is, or null: none, or no `cwd`. */
export interface DotGit {
  readonly dotGit: string
  readonly st: Stats
}

export async function nearestDotGit(cwd: string): Promise<DotGit | null> {
  let d: string
  try {
    d = await realpath(cwd)
  } catch {
    return null
  }
  for (;;) {
    const dotGit = join(d, '.git')
    const st = await lstat(dotGit).catch(() => null)
    if (st) return { dotGit, st }
    if (dirname(d) === d) return null
    d = dirname(d)
  }
}
