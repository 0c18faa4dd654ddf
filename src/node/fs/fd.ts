/**
 * Files by numeric descriptor, through the callback API. On a heavy home (issue 7) the
 * `FileHandle` objects of `fs/promises` cost about twice as much per file: in a profile of
 * `scan`, their open, stat, read and close were 46% of the main thread's time. Every caller
 * closes what it opens in a `finally`.
 */
import { close, fstat, open, read, type Stats } from 'node:fs'

export function openFd(path: string, flags: number): Promise<number> {
  return new Promise((ok, fail) => open(path, flags, (err, fd) => (err ? fail(err) : ok(fd))))
}

export function fstatFd(fd: number): Promise<Stats> {
  return new Promise((ok, fail) => fstat(fd, (err, st) => (err ? fail(err) : ok(st))))
}

/** Read into `buf` at `offset` up to `length` bytes from file `position`; resolves with the count. */
export function readFd(
  fd: number,
  buf: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  return new Promise((ok, fail) =>
    read(fd, buf, offset, length, position, (err, n) => (err ? fail(err) : ok(n))),
  )
}

/** Close `fd`; never rejects (a failed close has nothing left to undo for a reader). */
export function closeFd(fd: number): Promise<void> {
  return new Promise((ok) => close(fd, () => ok()))
}
