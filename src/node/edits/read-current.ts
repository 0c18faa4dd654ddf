/**
 * Reading the exact bytes of a file about to be changed, with the guards of safe-read (no
 * blocking on FIFOs, folders and devices refused, size capped), and the small judgements the
 * write and delete paths share: where a write lands (a symlink's target), whether the owner
 * made the file read-only, and what a conflict reports.
 */
import { createHash } from 'node:crypto'
import { constants as fsConstants } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { lstat, open, realpath } from 'node:fs/promises'
import type { ContentHash } from '../../core/content-hash'
import { READ_MAX_BYTES } from '../../core/limits'
import { describeFsError, fsFailure } from '../fs/fs-errors'
import type { ReadProblem } from '../fs/safe-read'
import { decodeBytes } from '../fs/safe-read'
import type { ConflictResult } from './edit-results'

/** SHA-256 hex of bytes (a string is hashed as its UTF-8 bytes). */
export function hashContent(bytes: Uint8Array | string): ContentHash {
  return createHash('sha256').update(bytes).digest('hex')
}

export type Current =
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
export async function readAll(handle: FileHandle, max: number): Promise<Buffer | null> {
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
export async function readCurrent(path: string, keepOpen = false): Promise<Current> {
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
export function refuseReadOnly(abs: string, mode: number, op: 'write' | 'delete'): string | null {
  if ((mode & 0o200) !== 0) return null
  const bits = (mode & 0o777).toString(8).padStart(3, '0')
  return fsFailure(
    op,
    abs,
    `the file is read-only (mode ${bits}, its owner may not write it)`,
    'the file was not changed',
  )
}

/** Text of bytes for a conflict report; null when they are not text. */
export function textOf(path: string, bytes: Buffer): string | null {
  const r = decodeBytes(path, bytes, 0, true)
  return r.ok ? r.text : null
}

export async function conflictNow(path: string): Promise<ConflictResult> {
  const now = await readCurrent(path)
  if (now.kind === 'ok')
    return { kind: 'conflict', currentHash: now.hash, currentText: textOf(path, now.bytes) }
  return { kind: 'conflict', currentHash: null, currentText: null }
}

/** Where a write to `path` must land: the symlink's final target, so a symlink stays one. */
export async function resolveTarget(
  abs: string,
): Promise<{ ok: true; target: string } | { ok: false; reason: string }> {
  let st
  try {
    st = await lstat(abs)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { ok: true, target: abs }
    return { ok: false, reason: fsFailure('write', abs, err) }
  }
  if (!st.isSymbolicLink()) return { ok: true, target: abs }
  try {
    return { ok: true, target: await realpath(abs) }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT')
      return {
        ok: false,
        reason: fsFailure('write', abs, 'it is a symlink whose target does not exist'),
      }
    if (code === 'ELOOP') return { ok: false, reason: fsFailure('write', abs, 'symlink loop') }
    return { ok: false, reason: fsFailure('write', abs, err) }
  }
}
