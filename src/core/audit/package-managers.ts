/**
 * Which JavaScript package manager a repository uses, read from the lock files it tracks, and
 * whether the manager a note's commands name is still the one (issue 12: a command that no
 * longer runs; blind set AC: a Tauri app moved from npm to bun, `package-lock.json` deleted and
 * `bun.lock` added, while the notes still said `npm run tauri dev`). Pure: the node layer
 * (src/node/audit/runner-flips.ts) lists the trees then and now.
 */
import type { CommandRunner } from './reference'

export type PackageManager = Extract<CommandRunner, 'npm' | 'pnpm' | 'yarn' | 'bun'>

/** Each manager's lock files, by file name. */
const LOCK_FILES: Readonly<Record<PackageManager, readonly string[]>> = {
  npm: ['package-lock.json', 'npm-shrinkwrap.json'],
  pnpm: ['pnpm-lock.yaml'],
  yarn: ['yarn.lock'],
  bun: ['bun.lockb', 'bun.lock'],
}

export function isPackageManager(runner: CommandRunner): runner is PackageManager {
  return runner in LOCK_FILES
}

/**
 * The managers whose lock file a tree holds, with that file (the shallowest). Vendored and
 * installed packages (`node_modules/`) carry their own and are not the repository's.
 */
export function lockFiles(paths: Iterable<string>): Map<PackageManager, string> {
  const out = new Map<PackageManager, string>()
  for (const p of paths) {
    if (p.includes('node_modules/')) continue
    const name = p.slice(p.lastIndexOf('/') + 1)
    for (const m of Object.keys(LOCK_FILES) as PackageManager[]) {
      if (!LOCK_FILES[m].includes(name)) continue
      const had = out.get(m)
      if (had === undefined || p.split('/').length < had.split('/').length) out.set(m, p)
    }
  }
  return out
}

/**
 * How the manager a note runs was replaced: its lock file was in the tree when the note was
 * written and is in none now, and another manager's is. Null when it still is, or never was
 * (a note may name a manager the repository never locked with: nothing to say).
 */
export function managerSwitch(
  runner: PackageManager,
  then: ReadonlyMap<PackageManager, string>,
  now: ReadonlyMap<PackageManager, string>,
): { readonly was: string; readonly by: PackageManager; readonly lock: string } | null {
  const was = then.get(runner)
  if (was === undefined || now.has(runner)) return null
  for (const [by, lock] of now) if (!then.has(by)) return { was, by, lock }
  return null
}
