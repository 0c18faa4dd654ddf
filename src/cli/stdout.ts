/**
 * A command's result on stdout, written to file descriptor 1 directly (issue 16): making
 * `process.stdout` builds a stream (a socket for a pipe, loading `node:net`), ~20 ms of a warm
 * `provenance` run that only prints bytes it kept.
 *
 * Decisions:
 * - Bounded chunks (`CHUNK_BYTES`), each written until done: a pipe takes what fits.
 * - EAGAIN (a descriptor left non-blocking by whoever shares it): wait `RETRY_MS` and write
 *   again, as a blocking write would have waited.
 * - EPIPE (the reader went away, `| head`): the rest is dropped, nothing on stderr, and the
 *   command keeps its exit code (docs/cli.md §2). Any other failure (a full disk) throws.
 * - Synchronous, so nothing is left to flush at exit and bytes keep their order with the
 *   `process.stdout` writes of other code (synchronous for files and pipes on Linux and macOS).
 */
import { writeSync } from 'node:fs'

/** Bytes handed to one write call at most. */
export const CHUNK_BYTES = 64 * 1024
const RETRY_MS = 2

let sleeper: Int32Array | null = null
function pause(ms: number): void {
  sleeper ??= new Int32Array(new SharedArrayBuffer(4))
  Atomics.wait(sleeper, 0, 0, ms)
}

/**
 * Write all of `data` to `fd` (default: stdout). Returns false when the reader closed the pipe
 * before the end (EPIPE), true when everything was written.
 */
export function writeOut(data: string | Uint8Array, fd = 1): boolean {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data
  let done = 0
  while (done < bytes.length) {
    try {
      done += writeSync(fd, bytes, done, Math.min(CHUNK_BYTES, bytes.length - done))
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'EAGAIN') pause(RETRY_MS)
      else if (code === 'EPIPE') return false
      else throw err
    }
  }
  return true
}
