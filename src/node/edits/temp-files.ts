/**
 * The temp file a write goes through: `.<name>.mc-<random>.tmp` beside the target, written
 * completely and durably with the original's mode, and the sweep that removes those a
 * crashed or failed write left behind.
 */
import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { lstat, open, readdir, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'

/** `.<name>.mc-<random>.tmp` beside the target (name cut so the temp name fits NAME_MAX). */
export function tempPathFor(target: string): string {
  return join(
    dirname(target),
    `.${basename(target).slice(0, 100)}.mc-${randomBytes(4).toString('hex')}.tmp`,
  )
}

const TEMP_NAME = /^\..*\.mc-[0-9a-f]{8}\.tmp$/
/** When this process started (ms since the epoch): a temp file older than that is no write of ours. */
const PROCESS_START_MS = performance.timeOrigin
/** No write of any process keeps its temp file this long: an older one is stale whoever made it. */
const STALE_TEMP_AGE_MS = 10 * 60 * 1000
/** Our own temp files we could not remove (e.g. the disk went read-only): retried by the next sweep. */
export const leftoverTemps = new Set<string>()

/**
 * Remove the temp files a crashed or failed write left in `dir`: those of this process that
 * could not be removed at the time, and any `.<name>.mc-<8 hex>.tmp` last written before this
 * process started (a write in flight at our start is the one case we could disturb: its rename
 * then fails with ENOENT and it reports an error, the file unchanged) or over ten minutes ago.
 * Best effort; returns the paths removed. Called before every write on the target's folder,
 * and usable as a start-up sweep.
 */
export async function sweepStaleTemps(dir: string, now: number = Date.now()): Promise<string[]> {
  const folder = resolve(dir)
  let names: string[]
  try {
    names = await readdir(folder)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    if (!TEMP_NAME.test(name)) continue
    const path = join(folder, name)
    let stale = leftoverTemps.has(path)
    if (!stale) {
      try {
        const st = await lstat(path)
        stale =
          st.isFile() && (st.mtimeMs < PROCESS_START_MS || now - st.mtimeMs > STALE_TEMP_AGE_MS)
      } catch {
        continue
      }
    }
    if (!stale) continue
    try {
      await rm(path, { force: true })
      leftoverTemps.delete(path)
      removed.push(path)
    } catch {
      // Still not removable (read-only, permissions): the next sweep tries again.
    }
  }
  return removed
}

/** Write the temp file completely and durably, with the original's mode (and owner, as root). */
export async function writeTemp(
  tmp: string,
  bytes: Uint8Array,
  like: { readonly mode: number; readonly uid: number; readonly gid: number } | null,
): Promise<void> {
  const handle = await open(tmp, 'wx', like === null ? 0o666 : like.mode & 0o777)
  try {
    await handle.writeFile(bytes)
    if (like !== null) {
      if (process.getuid?.() === 0) await handle.chown(like.uid, like.gid).catch(() => undefined)
      // After chown, which may clear set-id bits; and not masked by the umask like open() is.
      await handle.chmod(like.mode & 0o7777)
    }
    await handle.sync()
  } finally {
    await handle.close()
  }
}
