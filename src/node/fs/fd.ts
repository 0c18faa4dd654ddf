/**
 * Files by numeric descriptor. On a heavy home (issue 7) the `FileHandle` objects of
 * `fs/promises` cost about twice as much per file as the callback API, and the callback API's
 * four thread-pool round trips per file (open, fstat, read, close) were still a third of
 * `scan`'s CPU over 8,000 memory files (issue 16). So the calls are synchronous under a
 * promise, a slice at a time (sync-slice.ts): callers open with O_NONBLOCK and read only
 * after fstat says regular file, so no call here waits on a FIFO or a device. Every caller
 * closes what it opens in a `finally`.
 */
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { syncSliceUsed, yieldToLoop } from './sync-slice'

export async function openFd(path: string, flags: number): Promise<number> {
  if (syncSliceUsed()) await yieldToLoop()
  return openSync(path, flags)
}

export async function fstatFd(fd: number): Promise<Stats> {
  return fstatSync(fd)
}

/** Read into `buf` at `offset` up to `length` bytes from file `position`; resolves with the count. */
export async function readFd(
  fd: number,
  buf: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  return readSync(fd, buf, offset, length, position)
}

/** Close `fd`; never rejects (a failed close has nothing left to undo for a reader). */
export async function closeFd(fd: number): Promise<void> {
  try {
    closeSync(fd)
  } catch {
    // Nothing to undo.
  }
}
