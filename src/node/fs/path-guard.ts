/**
 * Every path that comes from the window is checked for the purpose its method serves
 * (issue 11: access follows purpose, not roots; the policy is src/core/access-policy.ts).
 * Both the path as given and the real path it leads to must be allowed, so `..`, prefix
 * siblings (`/home-evil` vs `/home`) and symlinks that leave a memory folder are refused.
 */
import { realpath } from 'node:fs/promises'
import { dirname, isAbsolute, resolve, sep, basename, join } from 'node:path'
import { decideAccess, type AccessFacts, type AccessPurpose } from '../../core/access-policy'
import { isInsidePath } from '../../core/paths'
import type { LoadOrderResult, ScanResult } from '../../shared/model'

/** True when `child` is `root` or lies below it (both already normalised). */
export function isInside(root: string, child: string): boolean {
  if (child === root) return true
  const prefix = root.endsWith(sep) ? root : root + sep
  return child.startsWith(prefix)
}

/** Real path of `p`, or of its nearest existing ancestor joined with the rest when it does not exist. */
export async function realpathLoose(p: string): Promise<string> {
  try {
    return await realpath(p)
  } catch {
    const parent = dirname(p)
    if (parent === p) return p
    return join(await realpathLoose(parent), basename(p))
  }
}

/** The checked absolute path, or why it is refused (the reason names the path). */
export type GuardVerdict =
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string }

/**
 * The facts the policy needs, gathered from what the app found itself: the Claude home, the
 * projects a scan found (a transcript's cwd names a project and nothing more) and the load
 * chains computed for the window.
 */
export class PathGuard {
  private readonly claudeHomes: string[] = []
  private readonly chainFiles = new Map<string, 'loaded' | 'import'>()
  private readonly repositories = new Set<string>()
  private readonly projectDirs = new Set<string>()

  /** The Claude home as configured and as its real path (a symlinked home still works). */
  async setClaudeHome(home: string): Promise<void> {
    for (const p of [resolve(home), await realpathLoose(resolve(home))]) {
      if (!this.claudeHomes.includes(p)) this.claudeHomes.push(p)
    }
  }

  /** Projects of a scan: their launch directories and repositories (issue 11 item 4). */
  async rememberProjects(scan: ScanResult): Promise<void> {
    for (const project of scan.projects) {
      for (const cwd of project.cwds) if (isAbsolute(cwd)) this.projectDirs.add(resolve(cwd))
      if (project.repoRoot && isAbsolute(project.repoRoot)) {
        this.repositories.add(resolve(project.repoRoot))
        this.projectDirs.add(resolve(project.repoRoot))
      }
    }
  }

  /**
   * The files of a load chain computed for the window. Instruction files become readable and
   * editable; imports only readable, and only inside the launch directory, its repository or
   * a home (docs/memory-rules.md §3.7: other imports need the person's approval, so the app won't show
   * them on its own). A real path counts only when it stays inside those places too.
   */
  async rememberChain(result: LoadOrderResult, places: readonly string[]): Promise<void> {
    const inPlace = (p: string): boolean => places.some((d) => isInsidePath(p, d))
    const files = [
      ...result.claude.startup.map((f) => ({ path: f.path, imported: f.scope === 'import' })),
      ...result.claude.onDemand.map((f) => ({ path: f.path, imported: false })),
      ...result.codex.files.map((f) => ({ path: f.path, imported: false })),
    ]
    for (const f of files) {
      if (!isAbsolute(f.path)) continue
      const abs = resolve(f.path)
      if (f.imported && !inPlace(abs)) continue
      const how = f.imported ? 'import' : 'loaded'
      // A file both loaded and imported stays editable.
      const add = (p: string): void => {
        if (this.chainFiles.get(p) !== 'loaded') this.chainFiles.set(p, how)
      }
      add(abs)
      const real = await realpathLoose(abs)
      if (real !== abs && inPlace(real)) add(real)
    }
  }

  private facts(): AccessFacts {
    return {
      claudeHomes: this.claudeHomes,
      chainFiles: this.chainFiles,
      repositories: this.repositories,
      projectDirs: [...this.projectDirs],
    }
  }

  /** May `p` be used for `purpose`? Checked as given and where it really leads. */
  async check(purpose: AccessPurpose, p: string): Promise<GuardVerdict> {
    if (typeof p !== 'string' || p.includes('\0'))
      return { ok: false, reason: `${String(p)}: not a path` }
    if (!isAbsolute(p)) return { ok: false, reason: `${p}: not an absolute path` }
    const abs = resolve(p)
    const facts = this.facts()
    const given = decideAccess(purpose, abs, facts)
    if (!given.ok) return { ok: false, reason: `${p}: ${given.reason}` }
    const real = await realpathLoose(abs)
    if (real !== abs) {
      const target = decideAccess(purpose, real, facts)
      if (!target.ok)
        return { ok: false, reason: `${p}: a symlink that leads to ${real}, ${target.reason}` }
    }
    return { ok: true, path: abs }
  }
}

/**
 * True when `path` (a file or folder found while walking the folder whose real path is
 * `realFolder`) really lies outside it: a symlink that escapes. Walkers of a memory folder do
 * not follow those, so a link in the Claude home can't make the back end read, or the window
 * show, a file outside the roots (issue 8). A path that can't be resolved counts as inside:
 * its own read reports it.
 */
export async function escapesFolder(path: string, realFolder: string): Promise<boolean> {
  try {
    return !isInside(realFolder, await realpath(path))
  } catch {
    return false
  }
}
