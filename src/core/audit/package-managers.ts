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
 * written and is in none now, and another manager's is. Or the note ran one the repository did
 * not lock with, and the repository's one manager then gave way to one other manager now
 * (blind set AE: `npm run build` in a repository on `yarn.lock` that moved to `pnpm-lock.yaml`).
 * Null when it still is, or nothing says which manager the repository moved to.
 */
export function managerSwitch(
  runner: PackageManager,
  then: ReadonlyMap<PackageManager, string>,
  now: ReadonlyMap<PackageManager, string>,
): {
  readonly from: PackageManager
  readonly was: string
  readonly by: PackageManager
  readonly lock: string
} | null {
  if (now.has(runner)) return null
  const was = then.get(runner)
  if (was !== undefined) {
    for (const [by, lock] of now) if (!then.has(by)) return { from: runner, was, by, lock }
    return null
  }
  if (then.size !== 1 || now.size !== 1) return null
  const [[from, lockThen]] = [...then]
  const [[by, lock]] = [...now]
  return by === from || now.has(from) ? null : { from, was: lockThen, by, lock }
}
