/**
 * Replaced inodes held open after a write, so a program writing blind into the old version
 * is caught (issue 11, item 9): such a version becomes a `raced` backup and the next read or
 * write of the path reports it.
 */
import type { FileHandle } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { ContentHash } from '../../core/content-hash'
import { READ_MAX_BYTES } from '../../core/limits'
import { createBackup } from './backups'
import { hashContent, readAll, resolveTarget } from './read-current'

/**
 * Inodes our renames replaced, kept open afterwards (issue 11, item 9). A program that opened
 * the file before our rename and truncates-then-writes it blind writes into the old inode,
 * which no longer has a name; while we hold it, its bytes are still readable. Every later
 * read or write of the path first looks at these inodes: one written to since is saved as a
 * `raced` backup and the write reports a conflict, so both versions are presented.
 */
export interface HeldInode {
  readonly handle: FileHandle
  readonly backupsDir: string
  readonly reason: string
  /** Hash of the bytes last seen in it. Always compared in full: mtime ticks are coarse. */
  hash: ContentHash
}
/**
 * How long a replaced inode is held, then checked one last time and closed. A blind writer
 * writes within moments of its truncate; holding longer keeps an unnamed file that still takes
 * disk space and makes the kernel refuse `remount,ro` (EBUSY). `MC_HOLD_REPLACED_MS` overrides
 * it (0: check at once and keep nothing), for tests of other faults.
 */
const HELD_MS = (() => {
  const v = Number(process.env.MC_HOLD_REPLACED_MS)
  return Number.isFinite(v) && v >= 0 ? v : 2000
})()
/** Replaced inodes kept per path, and in all: the oldest is checked one last time and closed. */
const HELD_PER_PATH = 8
const HELD_MAX = 256
const heldInodes = new Map<string, HeldInode[]>()
let heldCount = 0

/** Look at one held inode: a `raced` backup id when it was written to since last seen. */
async function checkHeld(target: string, h: HeldInode): Promise<string | null> {
  try {
    const bytes = await readAll(h.handle, READ_MAX_BYTES)
    if (bytes === null) return null
    const hash = hashContent(bytes)
    if (hash === h.hash) return null
    h.hash = hash
    const saved = await createBackup(h.backupsDir, {
      path: target,
      bytes,
      reason: `written by another program into the version replaced by: ${h.reason}`,
      operation: 'raced',
    })
    return saved.ok ? saved.meta.id : null
  } catch {
    return null
  }
}

/** Raced backups found when a held inode was let go: reported by the next look at the path. */
const racedOnRelease = new Map<string, string[]>()

async function closeHeld(target: string, h: HeldInode): Promise<string | null> {
  const id = await checkHeld(target, h)
  heldCount--
  await h.handle.close().catch(() => undefined)
  if (id !== null) racedOnRelease.set(target, [...(racedOnRelease.get(target) ?? []), id])
  return id
}

/** Keep a replaced inode open (see HeldInode); evicts the oldest past the caps. */
export async function keepReplaced(target: string, h: HeldInode): Promise<void> {
  const list = heldInodes.get(target) ?? []
  list.push(h)
  heldInodes.set(target, list)
  heldCount++
  // Past the window: a last look (a version written into it becomes a raced backup), then closed.
  const expire = (): void => {
    const now = heldInodes.get(target)
    const at = now?.indexOf(h) ?? -1
    if (now === undefined || at < 0) return
    now.splice(at, 1)
    if (now.length === 0) heldInodes.delete(target)
    void closeHeld(target, h)
  }
  if (HELD_MS === 0) expire()
  else setTimeout(expire, HELD_MS).unref()
  while (list.length > HELD_PER_PATH) await closeHeld(target, list.shift() as HeldInode)
  if (heldCount > HELD_MAX) {
    for (const [path, other] of heldInodes) {
      if (heldCount <= HELD_MAX) break
      while (other.length > 0 && heldCount > HELD_MAX)
        await closeHeld(path, other.shift() as HeldInode)
      if (other.length === 0) heldInodes.delete(path)
    }
  }
}

/**
 * Let go of every held inode nobody wrote to since we last looked, on a full disk: a replaced
 * version we hold open still takes its space, and our own held copies must never be why a
 * write is refused (a 256 KiB tmpfs filled up with them). One that was written to stays held,
 * so its bytes are still saved by the next look. True when anything was let go.
 */
export async function releaseUnchangedHeld(): Promise<boolean> {
  let released = false
  for (const [path, list] of [...heldInodes]) {
    for (const h of [...list]) {
      const bytes = await readAll(h.handle, READ_MAX_BYTES).catch(() => null)
      const unchanged = bytes !== null && hashContent(bytes) === h.hash
      if (!unchanged) continue
      list.splice(list.indexOf(h), 1)
      heldCount--
      await h.handle.close().catch(() => undefined)
      released = true
    }
    if (list.length === 0) heldInodes.delete(path)
  }
  return released
}

/**
 * Versions another program wrote into inodes our renames replaced at `path` (a symlink is
 * followed), each saved as a `raced` backup: the ids of those found now. `close` also lets
 * go of the inodes (at shutdown, or at the end of a test).
 */
export async function recoverReplaced(path: string, close = false): Promise<string[]> {
  const resolved = await resolveTarget(resolve(path))
  const target = resolved.ok ? resolved.target : resolve(path)
  const list = heldInodes.get(target) ?? []
  for (const h of [...list]) {
    if (close) await closeHeld(target, h)
    else {
      const id = await checkHeld(target, h)
      if (id !== null) racedOnRelease.set(target, [...(racedOnRelease.get(target) ?? []), id])
    }
  }
  if (close) heldInodes.delete(target)
  const ids = racedOnRelease.get(target) ?? []
  racedOnRelease.delete(target)
  return ids
}
