/**
 * Reading files without ever hanging or crashing: FIFOs, directories, huge files,
 * unreadable files and invalid UTF-8 come back as a typed problem with a reason.
 */
import { constants as fsConstants, type Stats } from 'node:fs'
import { lstat } from 'node:fs/promises'
import { closeFd, fstatFd, openFd, readFd } from './fd'
import { READ_MAX_BYTES } from '../../core/limits'
import { stripBom } from '../../core/text'

export type ReadProblem =
  'missing' | 'not-a-file' | 'unreadable' | 'too-large' | 'binary' | 'invalid-utf8'

export type TextRead =
  | {
      readonly ok: true
      readonly path: string
      readonly text: string
      readonly bytes: number
      readonly mtimeMs: number
    }
  | {
      readonly ok: false
      readonly path: string
      readonly problem: ReadProblem
      readonly reason: string
    }

export interface ReadOptions {
  /** Largest file read; bigger ones are reported as `too-large`. */
  readonly maxBytes?: number
  /** Decode invalid UTF-8 with replacement characters instead of refusing. */
  readonly lenient?: boolean
  /** Called with the stat of the descriptor read, taken before reading (the scan cache's identity). */
  readonly onStat?: (st: Stats) => void
}

const decoder = new TextDecoder('utf-8', { fatal: true })
const lenientDecoder = new TextDecoder('utf-8', { fatal: false })

/** Why a file can't be read, as one line naming the problem. */
function problem(path: string, p: ReadProblem, reason: string): TextRead {
  return { ok: false, path, problem: p, reason }
}

/**
 * Read a regular file as UTF-8 text. Follows symlinks (a symlink loop reports
 * `unreadable`), never opens FIFOs or devices (so it can't block), caps the size.
 */
export async function readTextFile(path: string, options: ReadOptions = {}): Promise<TextRead> {
  const maxBytes = options.maxBytes ?? READ_MAX_BYTES
  let fd: number
  try {
    // One open instead of stat + open: O_NONBLOCK means a FIFO opens at once and is refused below.
    fd = await openFd(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') {
      try {
        await lstat(path)
        return problem(path, 'missing', 'dangling symlink')
      } catch {
        return problem(path, 'missing', 'no such file')
      }
    }
    if (code === 'ELOOP') return problem(path, 'unreadable', 'symlink loop')
    if (code === 'ENXIO')
      return problem(path, 'not-a-file', 'not a regular file (FIFO, socket or device)')
    if (code === 'EISDIR') return problem(path, 'not-a-file', 'is a directory')
    return problem(path, 'unreadable', `cannot open: ${code ?? String(err)}`)
  }
  try {
    const st = await fstatFd(fd)
    if (st.isDirectory()) return problem(path, 'not-a-file', 'is a directory')
    if (!st.isFile())
      return problem(path, 'not-a-file', 'not a regular file (FIFO, socket or device)')
    if (st.size > maxBytes) {
      return problem(path, 'too-large', `${st.size} bytes, over the ${maxBytes}-byte read limit`)
    }
    options.onStat?.(st)
    const size = Math.min(st.size, maxBytes + 1)
    const buf = Buffer.alloc(size)
    let read = 0
    while (read < size) {
      const bytesRead = await readFd(fd, buf, read, size - read, read)
      if (bytesRead === 0) break
      read += bytesRead
    }
    if (read > maxBytes) return problem(path, 'too-large', `over the ${maxBytes}-byte read limit`)
    const bytes = buf.subarray(0, read)
    return decodeBytes(path, bytes, st.mtimeMs, options.lenient ?? false)
  } catch (err) {
    return problem(
      path,
      'unreadable',
      `cannot read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    )
  } finally {
    await closeFd(fd)
  }
}

/** Decode bytes as UTF-8, recognising UTF-16 with a BOM and refusing binary data. */
export function decodeBytes(
  path: string,
  bytes: Uint8Array,
  mtimeMs: number,
  lenient: boolean,
): TextRead {
  if (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  ) {
    const le = bytes[0] === 0xff
    const text = new TextDecoder(le ? 'utf-16le' : 'utf-16be').decode(bytes.subarray(2))
    return { ok: true, path, text, bytes: bytes.length, mtimeMs }
  }
  const probe = bytes.subarray(0, 8192)
  if (probe.includes(0)) return problem(path, 'binary', 'binary file (contains NUL bytes)')
  try {
    return { ok: true, path, text: stripBom(decoder.decode(bytes)), bytes: bytes.length, mtimeMs }
  } catch {
    if (lenient) {
      return {
        ok: true,
        path,
        text: stripBom(lenientDecoder.decode(bytes)),
        bytes: bytes.length,
        mtimeMs,
      }
    }
    return problem(path, 'invalid-utf8', 'not valid UTF-8 text')
  }
}

/** True when something (file, folder, even a dangling symlink) is at `path`. */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch {
    return false
  }
}
