/**
 * Synchronous file calls a slice at a time. On a regular file (checked with fstat after an
 * O_NONBLOCK open) they cannot block for long, and they cost far less main-thread time than
 * the thread pool's round trips: a third of promise-based reads for transcripts (issue 7), and
 * for `scan`'s 8,000 small memory files the four round trips per file (open, fstat, read,
 * close) were a third of the process's CPU (issue 16). The loop gets a turn every
 * `SYNC_SLICE_MS` so requests still get answered while a large home is read.
 */
const SYNC_SLICE_MS = 10
let sliceStart = 0

/** True (and a new slice starts) when synchronous file calls have run for `SYNC_SLICE_MS`. */
export function syncSliceUsed(): boolean {
  const now = performance.now()
  if (now - sliceStart < SYNC_SLICE_MS) return false
  sliceStart = now
  return true
}

export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** Give the event loop a turn when this process has run synchronous file calls for a slice. */
export async function yieldIfSliceUsed(): Promise<void> {
  if (syncSliceUsed()) await yieldToLoop()
}
