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
/**
 * The loop's turn that the callers wait for, once one of them found the slice used. Shared: with
 * one turn per caller, a scan's 8 project and 16 file flows each ran its own slice before the
 * loop got a turn (~24 × 10 ms), and the window's page files waited behind them (issue 16).
 */
let turn: Promise<void> | null = null

/**
 * True when synchronous file calls have run for `SYNC_SLICE_MS`, or a turn of the loop is
 * already awaited (every caller then waits for that turn: `yieldToLoop`).
 */
export function syncSliceUsed(): boolean {
  if (turn !== null) return true
  return performance.now() - sliceStart >= SYNC_SLICE_MS
}

/** Resolves after the event loop had a turn (I/O polled); one turn for every caller waiting. */
export function yieldToLoop(): Promise<void> {
  turn ??= new Promise((resolve) =>
    setImmediate(() => {
      turn = null
      sliceStart = performance.now()
      resolve()
    }),
  )
  return turn
}

/** Give the event loop a turn when this process has run synchronous file calls for a slice. */
export async function yieldIfSliceUsed(): Promise<void> {
  if (syncSliceUsed()) await yieldToLoop()
}
