/**
 * Reading a file that a directory listing has just reported as a regular file (a `Dirent`
 * with `isFile()`, so not a symlink, FIFO or device): open, fstat, read, close, without the
 * `stat` before the open that `readTextFile` needs for an arbitrary path. Scan and cutoff read
 * thousands of memory files (issue 7). Anything unusual answers null, and the caller takes
 * its usual path (`readTextFile` and friends), so results and messages stay the same.
 */
import { constants as fsConstants } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { open } from 'node:fs/promises'
import { READ_MAX_BYTES } from '../core/limits'
import { decodeBytes } from './safe-read'

export interface ListedRead {
  readonly text: string
  /** Bytes read. */
  readonly bytes: number
  /** Size from fstat (what `stat` would have said). */
  readonly size: number
  readonly mtimeMs: number
}

/**
 * The text of a listed regular file, or null when it could not be read as plain UTF-8 within
 * `maxBytes` for any reason (missing, swapped for another kind, too large, binary, invalid).
 */
export async function readListedFile(
  path: string,
  maxBytes = READ_MAX_BYTES,
): Promise<ListedRead | null> {
  let handle: FileHandle
  try {
    // O_NONBLOCK: if the path was swapped for a FIFO since the listing, opening can't block.
    handle = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch {
    return null
  }
  try {
    const st = await handle.stat()
    if (!st.isFile() || st.size > maxBytes) return null
    const buf = Buffer.allocUnsafe(st.size)
    let read = 0
    while (read < st.size) {
      const { bytesRead } = await handle.read(buf, read, st.size - read, read)
      if (bytesRead === 0) break
      read += bytesRead
    }
    const decoded = decodeBytes(path, buf.subarray(0, read), st.mtimeMs, false)
    if (!decoded.ok) return null
    return { text: decoded.text, bytes: decoded.bytes, size: st.size, mtimeMs: st.mtimeMs }
  } catch {
    return null
  } finally {
    await handle.close().catch(() => undefined)
  }
}
