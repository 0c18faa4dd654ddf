/**
 * The one write path for user files: compare-and-swap on the content hash, a backup before
 * every change, atomic replace through a temp file, and nothing left behind on failure.
 *
 * The race that remains, stated plainly: we re-read the file and check it still has the
 * expected hash, then check it is still the same inode and rename with no await between
 * those two calls. A change made *in place* in that gap (the old inode is rewritten) is
 * caught after the rename through the handle we kept open, saved as a backup, and put
 * back, and the write reports a conflict. A *replacement* of the file (another program's
 * own rename or delete+create) landing between the inode check and our rename — a window
 * of two system calls — is not detectable with POSIX rename and is overwritten; only
 * renameat2(RENAME_EXCHANGE), which Node does not offer, would close it. Creating a file
 * (expectedHash null) uses link(), which never overwrites, so it has no such window.
 * A program still holding the old file open and writing after our rename writes into an
 * inode that no longer has a name — true of every atomic-rename editor.
 *
 * Side effects worth knowing: a conflict found at the re-check leaves the backup taken just
 * before (listed, but with no undo entry). A delete hands the path to the trash, which
 * moves whatever is there at that instant, so nothing is lost; with `trash: null` the
 * unlink has the same two-call window as the rename.
 *
 * A process killed mid-write can leave its `.<name>.mc-<random>.tmp`; the next write in that
 * folder removes it (sweepStaleTemps). A file we lack write permission for is refused, even
 * when its folder would allow replacing it. What each promise rests on, and the test that
 * proves it: docs/reliability.md.
 */
import { createHash, randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { constants as fsConstants, lstatSync, renameSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { access, link, lstat, open, readdir, realpath, rm, unlink } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { ContentHash, TextEncodingKind } from '../../core/content-hash'
import { detectEncoding, encodeText } from '../../core/content-hash'
import { READ_MAX_BYTES } from '../../core/limits'
import type { OperationRecord } from './backups'
import { createBackup, describeFsError, recordOperation, syncDir } from './backups'
import type { ReadProblem } from '../fs/safe-read'
import { decodeBytes } from '../fs/safe-read'

/**
 * Moves a path to a trash and resolves, or rejects with the reason. The Electron shell
 * passes `shell.trashItem`; the CLI and `serve` pass `freedesktopTrash` from trash.ts.
 */
export type TrashFn = (path: string) => Promise<unknown>

/** A file read for editing: its text plus the hash of the exact bytes on disk. */
export type EditRead =
  | {
      readonly ok: true
      readonly path: string
      readonly text: string
      readonly hash: ContentHash
      readonly bytes: number
      readonly mtimeMs: number
      readonly encoding: TextEncodingKind
    }
  | {
      readonly ok: false
      readonly path: string
      readonly problem: ReadProblem
      readonly reason: string
    }

export interface SafeWriteOptions {
  readonly path: string
  /** Hash the caller based its edit on; null means the file must not exist yet. */
  readonly expectedHash: ContentHash | null
  readonly newText: string
  readonly backupsDir: string
  /** Why, in a few words (shown in the backup list and undo log). */
  readonly reason: string
  /** Set by `undo`: the operation this write reverses. */
  readonly undoes?: string
}

export interface SafeWriteBytesOptions extends Omit<SafeWriteOptions, 'newText'> {
  readonly newBytes: Uint8Array
}

export type WriteResult =
  | {
      readonly kind: 'written'
      /** Hash of the bytes now on disk: the caller's next expectedHash. */
      readonly hash: ContentHash
      /** Backup of the replaced bytes; null when the file did not exist. */
      readonly backupId: string | null
      /** The undo-log entry; null only if appending to the log failed (see warning). */
      readonly operation: OperationRecord | null
      /** False when the read-back after writing already showed other content (changed since). */
      readonly verified: boolean
      readonly warning?: string
    }
  | {
      readonly kind: 'conflict'
      readonly currentHash: ContentHash | null
      readonly currentText: string | null
      /** Set when another program's version was caught mid-write and kept as this backup. */
      readonly racedBackupId?: string
    }
  | { readonly kind: 'error'; readonly reason: string }

export interface SafeDeleteOptions {
  readonly path: string
  readonly expectedHash: ContentHash
  readonly backupsDir: string
  /** Where the file goes; null removes it outright (our backup is then the only copy). */
  readonly trash: TrashFn | null
  readonly reason?: string
  readonly undoes?: string
}

export type DeleteResult =
  | {
      readonly kind: 'deleted'
      readonly backupId: string
      /** True when the file went to a trash, false when it was removed (trash: null). */
      readonly trashed: boolean
      readonly operation: OperationRecord | null
      readonly warning?: string
    }
  | {
      readonly kind: 'conflict'
      readonly currentHash: ContentHash | null
      readonly currentText: string | null
    }
  | { readonly kind: 'error'; readonly reason: string; readonly fileKept: boolean }

/** SHA-256 hex of bytes (a string is hashed as its UTF-8 bytes). */
export function hashContent(bytes: Uint8Array | string): ContentHash {
  return createHash('sha256').update(bytes).digest('hex')
}

type Current =
  | { readonly kind: 'missing' }
  | {
      readonly kind: 'ok'
      readonly bytes: Buffer
      readonly hash: ContentHash
      readonly dev: number
      readonly ino: number
      readonly mode: number
      readonly uid: number
      readonly gid: number
      readonly mtimeMs: number
      /** Open on the inode that was read, when asked to keep it. */
      readonly handle: FileHandle | null
    }
  | { readonly kind: 'problem'; readonly problem: ReadProblem; readonly reason: string }

/** Read a whole file from offset 0 through `handle`; null when it grows past `max`. */
async function readAll(handle: FileHandle, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let pos = 0
  for (;;) {
    const buf = Buffer.allocUnsafe(64 * 1024)
    const { bytesRead } = await handle.read(buf, 0, buf.length, pos)
    if (bytesRead === 0) break
    chunks.push(buf.subarray(0, bytesRead))
    pos += bytesRead
    if (pos > max) return null
  }
  return Buffer.concat(chunks, pos)
}

/**
 * The exact bytes at `path` (following symlinks) with the same guards as safe-read: no
 * blocking on FIFOs, folders and devices refused, size capped.
 */
async function readCurrent(path: string, keepOpen = false): Promise<Current> {
  let handle: FileHandle
  try {
    // O_NONBLOCK: a FIFO put in the file's place must not hang us.
    handle = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { kind: 'missing' }
    if (code === 'ELOOP') return { kind: 'problem', problem: 'unreadable', reason: 'symlink loop' }
    return {
      kind: 'problem',
      problem: 'unreadable',
      reason: `cannot open: ${describeFsError(err)}`,
    }
  }
  let keep = false
  try {
    const st = await handle.stat()
    if (st.isDirectory())
      return { kind: 'problem', problem: 'not-a-file', reason: 'is a directory' }
    if (!st.isFile()) {
      return {
        kind: 'problem',
        problem: 'not-a-file',
        reason: 'not a regular file (FIFO, socket or device)',
      }
    }
    if (st.size > READ_MAX_BYTES) {
      return {
        kind: 'problem',
        problem: 'too-large',
        reason: `${st.size} bytes, over the ${READ_MAX_BYTES}-byte limit`,
      }
    }
    const bytes = await readAll(handle, READ_MAX_BYTES)
    if (bytes === null)
      return {
        kind: 'problem',
        problem: 'too-large',
        reason: `over the ${READ_MAX_BYTES}-byte limit`,
      }
    keep = keepOpen
    return {
      kind: 'ok',
      bytes,
      hash: hashContent(bytes),
      dev: st.dev,
      ino: st.ino,
      mode: st.mode,
      uid: st.uid,
      gid: st.gid,
      mtimeMs: st.mtimeMs,
      handle: keepOpen ? handle : null,
    }
  } catch (err) {
    return {
      kind: 'problem',
      problem: 'unreadable',
      reason: `cannot read: ${describeFsError(err)}`,
    }
  } finally {
    if (!keep) await handle.close().catch(() => undefined)
  }
}

/**
 * Root passes every permission check (access(W_OK) included), so the owner's write bit is
 * read here ourselves: a `chmod 444` file is a decision to keep it as it is (issue 11).
 * Returns the refusal, or null when the owner may write the file.
 */
function refuseReadOnly(abs: string, mode: number, op: 'write' | 'delete'): string | null {
  if ((mode & 0o200) !== 0) return null
  const bits = (mode & 0o777).toString(8).padStart(3, '0')
  return `cannot ${op} ${abs}: the file is read-only (mode ${bits}, its owner may not write it); the file was not changed`
}

/** Text of bytes for a conflict report; null when they are not text. */
function textOf(path: string, bytes: Buffer): string | null {
  const r = decodeBytes(path, bytes, 0, true)
  return r.ok ? r.text : null
}

async function conflictNow(path: string): Promise<Extract<WriteResult, { kind: 'conflict' }>> {
  const now = await readCurrent(path)
  if (now.kind === 'ok')
    return { kind: 'conflict', currentHash: now.hash, currentText: textOf(path, now.bytes) }
  return { kind: 'conflict', currentHash: null, currentText: null }
}

/**
 * Read a file for editing: the decoded text (same rules as readTextFile, via decodeBytes)
 * and the hash of the exact bytes, taken from one read so the two always agree.
 */
export async function readForEdit(path: string): Promise<EditRead> {
  const abs = resolve(path)
  await recoverReplaced(abs)
  const cur = await readCurrent(abs)
  if (cur.kind === 'missing') {
    let dangling: boolean
    try {
      dangling = (await lstat(abs)).isSymbolicLink()
    } catch {
      dangling = false
    }
    return {
      ok: false,
      path: abs,
      problem: 'missing',
      reason: dangling ? 'dangling symlink' : 'no such file',
    }
  }
  if (cur.kind === 'problem')
    return { ok: false, path: abs, problem: cur.problem, reason: cur.reason }
  const decoded = decodeBytes(abs, cur.bytes, cur.mtimeMs, false)
  if (!decoded.ok) return decoded
  return {
    ok: true,
    path: abs,
    text: decoded.text,
    hash: cur.hash,
    bytes: cur.bytes.length,
    mtimeMs: cur.mtimeMs,
    encoding: detectEncoding(cur.bytes),
  }
}

/** Where a write to `path` must land: the symlink's final target, so a symlink stays one. */
async function resolveTarget(
  abs: string,
): Promise<{ ok: true; target: string } | { ok: false; reason: string }> {
  let st
  try {
    st = await lstat(abs)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { ok: true, target: abs }
    return { ok: false, reason: `cannot write ${abs}: ${describeFsError(err)}` }
  }
  if (!st.isSymbolicLink()) return { ok: true, target: abs }
  try {
    return { ok: true, target: await realpath(abs) }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT')
      return {
        ok: false,
        reason: `cannot write ${abs}: it is a symlink whose target does not exist`,
      }
    if (code === 'ELOOP') return { ok: false, reason: `cannot write ${abs}: symlink loop` }
    return { ok: false, reason: `cannot write ${abs}: ${describeFsError(err)}` }
  }
}

/** `.<name>.mc-<random>.tmp` beside the target (name cut so the temp name fits NAME_MAX). */
function tempPathFor(target: string): string {
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
const leftoverTemps = new Set<string>()

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
async function writeTemp(
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

/**
 * Inodes our renames replaced, kept open afterwards (issue 11, item 9). A program that opened
 * the file before our rename and truncates-then-writes it blind writes into the old inode,
 * which no longer has a name; while we hold it, its bytes are still readable. Every later
 * read or write of the path first looks at these inodes: one written to since is saved as a
 * `raced` backup and the write reports a conflict, so both versions are presented.
 */
interface HeldInode {
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
async function keepReplaced(target: string, h: HeldInode): Promise<void> {
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
async function releaseUnchangedHeld(): Promise<boolean> {
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

const isDiskFull = (err: unknown): boolean =>
  ['ENOSPC', 'EDQUOT'].includes((err as NodeJS.ErrnoException)?.code ?? '')

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

interface CoreOptions {
  readonly path: string
  readonly expectedHash: ContentHash | null
  readonly produce: (current: Buffer | null) => Uint8Array
  readonly backupsDir: string
  readonly reason: string
  readonly undoes?: string
  /** False for the internal put-back after a race: it is not a user operation. */
  readonly record: boolean
}

async function writeCore(opts: CoreOptions): Promise<WriteResult> {
  const abs = resolve(opts.path)
  const resolved = await resolveTarget(abs)
  if (!resolved.ok) return { kind: 'error', reason: resolved.reason }
  const target = resolved.target
  // A crash (or a disk gone read-only) can leave a temp file from an earlier write.
  await sweepStaleTemps(dirname(target))
  // Another program wrote into a version we replaced: keep it, present both, write nothing.
  const recovered = await recoverReplaced(target)
  if (recovered.length > 0) return { ...(await conflictNow(abs)), racedBackupId: recovered[0] }

  // 1. Compare: the bytes on disk must be the ones the edit was based on.
  const first = await readCurrent(target)
  if (first.kind === 'problem')
    return { kind: 'error', reason: `cannot write ${abs}: ${first.reason}` }
  const currentHash = first.kind === 'ok' ? first.hash : null
  if (currentHash !== opts.expectedHash) {
    return {
      kind: 'conflict',
      currentHash,
      currentText: first.kind === 'ok' ? textOf(abs, first.bytes) : null,
    }
  }
  if (first.kind === 'ok') {
    const readOnly = refuseReadOnly(abs, first.mode, 'write')
    if (readOnly !== null) return { kind: 'error', reason: readOnly }
    // A file we may not write stays as it is, even where its folder would let a rename
    // replace it (and give it to us): the owner's "read-only" is a decision, not an obstacle.
    try {
      await access(target, fsConstants.W_OK)
    } catch (err) {
      // Gone since the read (another program deleted or is replacing it): a conflict.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return await conflictNow(abs)
      return {
        kind: 'error',
        reason: `cannot write ${abs}: ${describeFsError(err)}; the file was not changed`,
      }
    }
  }

  // 2. Back up the old bytes before anything is written.
  let backupId: string | null = null
  if (first.kind === 'ok') {
    const backupOf = () =>
      createBackup(opts.backupsDir, {
        path: abs,
        bytes: first.bytes,
        reason: opts.reason,
        operation: 'write',
      })
    let backup = await backupOf()
    // A full disk: our held replaced versions may be what fills it (see releaseUnchangedHeld).
    if (!backup.ok && /\(ENOSPC\)|\(EDQUOT\)/.test(backup.reason) && (await releaseUnchangedHeld()))
      backup = await backupOf()
    if (!backup.ok)
      return {
        kind: 'error',
        reason: `cannot back up ${abs}, so it was not changed: ${backup.reason}`,
      }
    backupId = backup.meta.id
  }

  const newBytes = opts.produce(first.kind === 'ok' ? first.bytes : null)
  const newHash = hashContent(newBytes)
  const tmp = tempPathFor(target)
  let held: Current | null = null
  try {
    // 3. The new content, complete and fsynced, under a temp name in the same folder.
    try {
      try {
        await writeTemp(tmp, newBytes, first.kind === 'ok' ? first : null)
      } catch (err) {
        if (!isDiskFull(err) || !(await releaseUnchangedHeld())) throw err
        await rm(tmp, { force: true })
        await writeTemp(tmp, newBytes, first.kind === 'ok' ? first : null)
      }
    } catch (err) {
      return {
        kind: 'error',
        reason: `cannot write ${abs}: ${describeFsError(err)}; the file was not changed`,
      }
    }

    if (opts.expectedHash === null) {
      // 4a. Create: link() fails if anything appeared meanwhile, so nothing is overwritten.
      try {
        await link(tmp, target)
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'EEXIST') return await conflictNow(abs)
        if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS'].includes(code ?? '')) {
          return { kind: 'error', reason: `cannot create ${abs}: ${describeFsError(err)}` }
        }
        // No hard links on this file system: check and rename, with the two-call window.
        try {
          lstatSync(target)
          return await conflictNow(abs)
        } catch {
          renameSync(tmp, target)
        }
      }
    } else {
      // 4b. Re-check just before the swap, keeping the inode open to catch in-place writes.
      held = await readCurrent(target, true)
      if (held.kind !== 'ok' || held.hash !== opts.expectedHash) return await conflictNow(abs)
      // Same inode, then rename, with no await between: the remaining window is these calls.
      const now = lstatSync(target, { throwIfNoEntry: false })
      if (now === undefined || now.ino !== held.ino || now.dev !== held.dev)
        return await conflictNow(abs)
      renameSync(tmp, target)
      if (held.handle === null) throw new Error('internal: handle not kept')
      const old = await readAll(held.handle, READ_MAX_BYTES)
      if (old === null || hashContent(old) !== opts.expectedHash) {
        const handle = held.handle
        held = null
        return await handleRace(abs, target, handle, old, newHash, opts)
      }
    }

    // 5. Make the rename durable, then read back what is really there.
    await syncDir(dirname(target))
    if (held !== null && held.kind === 'ok' && held.handle !== null) {
      // A second look at the replaced inode, one fsync later: a writer that opened it before
      // our rename (truncate, pause, write) is caught here too instead of writing into a void.
      const late = await readAll(held.handle, READ_MAX_BYTES)
      if (late === null || hashContent(late) !== opts.expectedHash) {
        const handle = held.handle
        held = null
        return await handleRace(abs, target, handle, late, newHash, opts)
      }
    }
    if (held !== null && held.kind === 'ok' && held.handle !== null) {
      await keepReplaced(target, {
        handle: held.handle,
        backupsDir: opts.backupsDir,
        reason: opts.reason,
        hash: held.hash,
      })
      held = null
    }
    const after = await readCurrent(target)
    const verified = after.kind === 'ok' && after.hash === newHash
    if (!opts.record) return { kind: 'written', hash: newHash, backupId, operation: null, verified }
    const logged = await recordOperation(opts.backupsDir, {
      op: 'write',
      path: abs,
      beforeHash: opts.expectedHash,
      afterHash: newHash,
      backupId,
      reason: opts.reason,
      ...(opts.undoes === undefined ? {} : { undoes: opts.undoes }),
    })
    return logged.ok
      ? { kind: 'written', hash: newHash, backupId, operation: logged.operation, verified }
      : {
          kind: 'written',
          hash: newHash,
          backupId,
          operation: null,
          verified,
          warning: logged.reason,
        }
  } catch (err) {
    return {
      kind: 'error',
      reason: `cannot write ${abs}: ${describeFsError(err)}; the file was not changed`,
    }
  } finally {
    if (held !== null && held.kind === 'ok') await held.handle?.close().catch(() => undefined)
    await rm(tmp, { force: true }).catch(() => leftoverTemps.add(tmp))
  }
}

const RACE_SETTLE_READS = 10
const RACE_SETTLE_MS = 5

/**
 * Another program rewrote the old inode in place between our re-check and rename: keep its
 * version as a backup, put it back over ours (compare-and-swap on our hash) and report a conflict.
 */
async function handleRace(
  abs: string,
  target: string,
  handle: FileHandle,
  seen: Buffer | null,
  newHash: ContentHash,
  opts: CoreOptions,
): Promise<WriteResult> {
  // The other program may be mid-write (truncated, not yet rewritten): keep what it ends
  // with, reading the old inode again until two reads agree (a few ms at most).
  let old = seen
  for (let i = 0; i < RACE_SETTLE_READS && old !== null; i++) {
    await new Promise((r) => setTimeout(r, RACE_SETTLE_MS))
    const again = await readAll(handle, READ_MAX_BYTES)
    if (again !== null && again.equals(old)) break
    old = again
  }
  // Still held afterwards: the other program may write into it again (see HeldInode).
  await keepReplaced(target, {
    handle,
    backupsDir: opts.backupsDir,
    reason: opts.reason,
    hash: old === null ? '' : hashContent(old),
  })
  if (old === null)
    return { kind: 'error', reason: `${abs} grew past the read limit while being written` }
  const raced = await createBackup(opts.backupsDir, {
    path: abs,
    bytes: old,
    reason: `changed by another program during: ${opts.reason}`,
    operation: 'raced',
  })
  await writeCore({
    path: abs,
    expectedHash: newHash,
    produce: () => old,
    backupsDir: opts.backupsDir,
    reason: `put back the version another program wrote during: ${opts.reason}`,
    record: false,
  })
  const now = await conflictNow(abs)
  return raced.ok ? { ...now, racedBackupId: raced.meta.id } : now
}

/**
 * Replace a text file only if it still has `expectedHash`, backing up the old bytes first.
 * The new text keeps the old file's encoding (UTF-8, UTF-8 with BOM, UTF-16).
 */
export function safeWrite(opts: SafeWriteOptions): Promise<WriteResult> {
  return writeCore({
    path: opts.path,
    expectedHash: opts.expectedHash,
    produce: (current) => {
      const kind = current === null ? 'utf8' : detectEncoding(current)
      const text =
        kind !== 'utf8' && opts.newText.charCodeAt(0) === 0xfeff
          ? opts.newText.slice(1)
          : opts.newText
      return encodeText(text, kind)
    },
    backupsDir: opts.backupsDir,
    reason: opts.reason,
    ...(opts.undoes === undefined ? {} : { undoes: opts.undoes }),
    record: true,
  })
}

/** `safeWrite` with exact bytes (restoring a backup byte for byte). */
export function safeWriteBytes(opts: SafeWriteBytesOptions): Promise<WriteResult> {
  return writeCore({
    path: opts.path,
    expectedHash: opts.expectedHash,
    produce: () => opts.newBytes,
    backupsDir: opts.backupsDir,
    reason: opts.reason,
    ...(opts.undoes === undefined ? {} : { undoes: opts.undoes }),
    record: true,
  })
}

/**
 * Delete a file only if it still has `expectedHash`: back it up, then hand it to the trash.
 * If the trash fails, the file stays where it was and the result says so. A symlink is
 * trashed as a link; its backup holds the content it pointed to.
 */
export async function safeDelete(opts: SafeDeleteOptions): Promise<DeleteResult> {
  const abs = resolve(opts.path)
  const reason = opts.reason ?? 'delete'
  const first = await readCurrent(abs)
  if (first.kind === 'problem')
    return { kind: 'error', reason: `cannot delete ${abs}: ${first.reason}`, fileKept: true }
  if (first.kind === 'missing' || first.hash !== opts.expectedHash) return await conflictNow(abs)
  const readOnly = refuseReadOnly(abs, first.mode, 'delete')
  if (readOnly !== null) return { kind: 'error', reason: readOnly, fileKept: true }

  const backup = await createBackup(opts.backupsDir, {
    path: abs,
    bytes: first.bytes,
    reason,
    operation: 'delete',
  })
  if (!backup.ok) {
    return {
      kind: 'error',
      reason: `cannot back up ${abs}, so it was not deleted: ${backup.reason}`,
      fileKept: true,
    }
  }
  const backupId = backup.meta.id

  const again = await readCurrent(abs)
  if (again.kind !== 'ok' || again.hash !== opts.expectedHash) return await conflictNow(abs)

  const exists = async (): Promise<boolean> => {
    try {
      await lstat(abs)
      return true
    } catch {
      return false
    }
  }
  try {
    if (opts.trash === null) await unlink(abs)
    else await opts.trash(abs)
  } catch (err) {
    const why =
      err instanceof Error && !(err as NodeJS.ErrnoException).code
        ? err.message
        : describeFsError(err)
    const kept = await exists()
    return {
      kind: 'error',
      reason: kept
        ? `could not ${opts.trash === null ? 'remove' : 'move to the trash'} ${abs}: ${why}; the file was left in place (backup ${backupId})`
        : `could not ${opts.trash === null ? 'remove' : 'move to the trash'} ${abs}: ${why}; the file is gone from its folder, its bytes are in backup ${backupId}`,
      fileKept: kept,
    }
  }
  await syncDir(dirname(abs))
  const warnings: string[] = []
  if (await exists())
    warnings.push(`${abs} exists again: another program created it right after the delete`)
  const logged = await recordOperation(opts.backupsDir, {
    op: 'delete',
    path: abs,
    beforeHash: opts.expectedHash,
    afterHash: null,
    backupId,
    reason,
    ...(opts.undoes === undefined ? {} : { undoes: opts.undoes }),
  })
  if (!logged.ok) warnings.push(logged.reason)
  return {
    kind: 'deleted',
    backupId,
    trashed: opts.trash !== null,
    operation: logged.ok ? logged.operation : null,
    ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}),
  }
}
