/**
 * Reading a file for editing: its decoded text and the hash of the exact bytes on disk,
 * from one read so the two always agree (the hash is the edit's compare-and-swap key).
 */
import { lstat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { ContentHash, TextEncodingKind } from '../../core/content-hash'
import { detectEncoding } from '../../core/content-hash'
import type { ReadProblem } from '../fs/safe-read'
import { decodeBytes } from '../fs/safe-read'
import { recoverReplaced } from './held-inodes'
import { readCurrent } from './read-current'

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
