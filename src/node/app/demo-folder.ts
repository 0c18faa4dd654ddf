/**
 * The folder the demo lands in: its real path, the lock that keeps one builder at a time, the
 * marker that says whether an existing demo is current, and the swap that puts a new build in
 * place (staging and old copies of a killed build are cleared first).
 */
import { randomBytes } from 'node:crypto'
import { lstat, mkdir, open, readdir, realpath, rename, rm, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { pathExists, readTextFile } from '../fs/safe-read'
import { BUILDER_VERSION, DemoError, type DemoPaths } from './demo-templates'

export const MARKER = '.memory-curator-demo.json'
const LOCK_STALE_MS = 5 * 60_000
const LOCK_WAIT_MS = 120_000

export interface Marker {
  readonly builder: number
  readonly hash: string
  readonly root: string
}

/** Create the target folder and return its real path (project folders encode real paths). */
export async function prepareTarget(dir: string): Promise<string> {
  try {
    await mkdir(dir, { recursive: true })
    const real = await realpath(dir)
    if (!(await stat(real)).isDirectory()) throw new Error('not a folder')
    return real
  } catch (err) {
    throw new DemoError(`cannot use ${dir} as the demo folder: ${(err as Error).message}`)
  }
}

/** Staging and old copies left by a build that was killed (we hold the lock, so none is live). */
export async function removeLeftovers(target: string): Promise<void> {
  for (const name of await readdir(target)) {
    if (/^\.(staging|old)-[A-Za-z0-9]+$/.test(name)) {
      await rm(join(target, name), { recursive: true, force: true })
    }
  }
}

export async function swapIn(target: string, staging: string, root: string): Promise<void> {
  let old: string | null = null
  if (await pathExists(root)) {
    old = join(target, `.old-${randomBytes(6).toString('hex')}`)
    await rename(root, old)
  }
  await rename(staging, root)
  if (old) await rm(old, { recursive: true, force: true })
}

export async function isCurrent(root: string, hash: string, paths: DemoPaths): Promise<boolean> {
  const r = await readTextFile(join(root, MARKER))
  if (!r.ok) return false
  let marker: Partial<Marker>
  try {
    marker = JSON.parse(r.text) as Partial<Marker>
  } catch {
    return false
  }
  if (marker.hash !== hash || marker.builder !== BUILDER_VERSION || marker.root !== root)
    return false
  // A half-deleted demo is rebuilt rather than trusted.
  return (
    (await isKind(join(paths.repoRoot, '.git'), 'dir')) &&
    (await isKind(join(paths.worktreeRoot, '.git'), 'file')) &&
    (await isKind(paths.claudeHome, 'dir'))
  )
}

export async function isKind(path: string, kind: 'dir' | 'file'): Promise<boolean> {
  try {
    const st = await lstat(path)
    return kind === 'dir' ? st.isDirectory() : st.isFile()
  } catch {
    return false
  }
}

/** One builder at a time per target (the window and the CLI may start together). */
export async function acquireLock(path: string): Promise<() => Promise<void>> {
  const started = Date.now()
  for (;;) {
    try {
      const fh = await open(path, 'wx')
      await fh.writeFile(`${process.pid}\n`)
      await fh.close()
      return async () => {
        await unlink(path).catch(() => undefined)
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new DemoError(`cannot lock ${path}: ${(err as Error).message}`)
      }
    }
    try {
      if (Date.now() - (await stat(path)).mtimeMs > LOCK_STALE_MS) {
        await unlink(path).catch(() => undefined)
        continue
      }
    } catch {
      continue
    }
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new DemoError(`${path} is held by another process; remove it if none is running`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}
