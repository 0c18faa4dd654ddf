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
 * before (listed, but with no undo entry). Deletes: safe-delete.ts; undo: undo.ts; the
 * helpers this file uses: read-current.ts, temp-files.ts, held-inodes.ts.
 *
 * A process killed mid-write can leave its `.<name>.mc-<random>.tmp`; the next write in that
 * folder removes it (sweepStaleTemps). A file we lack write permission for is refused, even
 * when its folder would allow replacing it. What each promise rests on, and the test that
 * proves it: docs/reliability.md.
 */
import { constants as fsConstants, lstatSync, renameSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { access, link, rm } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { ContentHash } from '../../core/content-hash'
import { detectEncoding, encodeText } from '../../core/content-hash'
import { READ_MAX_BYTES } from '../../core/limits'
import type { EditOutcome } from '../../shared/model'
import { fsFailure, isDiskFull } from '../fs/fs-errors'
import { createBackup, syncDir } from './backups'
import { outcomeOf, type WriteResult } from './edit-results'
import { keepReplaced, recoverReplaced, releaseUnchangedHeld } from './held-inodes'
import { recordOperation } from './operation-log'
import type { Current } from './read-current'
import {
  conflictNow,
  hashContent,
  readAll,
  readCurrent,
  refuseReadOnly,
  resolveTarget,
  textOf,
} from './read-current'
import { leftoverTemps, sweepStaleTemps, tempPathFor, writeTemp } from './temp-files'

export { hashContent } from './read-current'
export { readForEdit, type EditRead } from './read-for-edit'
export type { TrashFn } from './safe-delete'
export { recoverReplaced } from './held-inodes'
export { sweepStaleTemps } from './temp-files'
export type { WriteResult } from './edit-results'

const NOT_CHANGED = 'the file was not changed'

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

/** When tracing: the monotonic times around each check-then-rename window (see above). */
let swapWindows: [bigint, bigint][] | null = null

/**
 * For the concurrency tests: record, in process.hrtime (CLOCK_MONOTONIC, comparable across
 * processes on Linux), the start and end of every inode-check-then-rename window, so a
 * version another program created inside one (the documented two-call window) can be told
 * from a version lost anywhere else. `stop()` ends the trace and returns the windows.
 */
export function traceSwapWindows(): { stop(): [bigint, bigint][] } {
  const windows: [bigint, bigint][] = []
  swapWindows = windows
  return {
    stop: () => {
      swapWindows = null
      return windows
    },
  }
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
    return { kind: 'error', reason: fsFailure('write', abs, first.reason) }
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
        reason: fsFailure('write', abs, err, NOT_CHANGED),
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
        reason: fsFailure('write', abs, err, NOT_CHANGED),
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
          return { kind: 'error', reason: fsFailure('create', abs, err) }
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
      const opened = swapWindows === null ? 0n : process.hrtime.bigint()
      const now = lstatSync(target, { throwIfNoEntry: false })
      if (now === undefined || now.ino !== held.ino || now.dev !== held.dev)
        return await conflictNow(abs)
      renameSync(tmp, target)
      swapWindows?.push([opened, process.hrtime.bigint()])
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
      reason: fsFailure('write', abs, err, NOT_CHANGED),
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

/** `safeWrite` as the contract's EditOutcome (what the window and edit plans get). */
export function safeWriteFile(opts: SafeWriteOptions): Promise<EditOutcome> {
  return outcomeOf('write', opts.path, (path) => safeWrite({ ...opts, path }))
}
