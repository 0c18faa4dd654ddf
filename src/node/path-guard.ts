/**
 * Every path that comes from the window must stay inside the scanned roots
 * (architecture.md habit 2): `..`, prefix siblings (`/root-evil` vs `/root`) and
 * symlinks that escape are refused. Paths are compared after `realpath`.
 */
import { realpath } from 'node:fs/promises'
import { dirname, isAbsolute, resolve, sep, basename, join } from 'node:path'

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

export class PathGuard {
  private readonly roots = new Set<string>()

  /** Add a root (resolved through symlinks once, so a symlinked home still works). */
  async addRoot(root: string): Promise<void> {
    this.roots.add(resolve(root))
    this.roots.add(await realpathLoose(resolve(root)))
  }

  list(): string[] {
    return [...this.roots]
  }

  /** The checked absolute path, or null when it is relative or escapes every root. */
  async check(p: string): Promise<string | null> {
    if (typeof p !== 'string' || p.includes('\0') || !isAbsolute(p)) return null
    const abs = resolve(p)
    const real = await realpathLoose(abs)
    // Both the path as given and where it really leads must lie inside scanned roots.
    const roots = [...this.roots]
    const given = roots.some((root) => isInside(root, abs))
    const target = roots.some((root) => isInside(root, real))
    if (given && target) return abs
    return null
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
