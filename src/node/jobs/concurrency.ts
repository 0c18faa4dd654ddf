/** Bounded concurrency for disk work: enough calls in flight to keep the thread pool busy, never thousands. */

/** Files read at once by one job (the libuv pool has 4 threads; a few more hides latency). */
export const FILE_READ_CONCURRENCY = 16

/**
 * Map `items` with at most `n` calls in flight, keeping the input order. Each call gets the
 * number of the worker running it (0 ≤ worker < n), so per-worker resources such as a read
 * buffer are never used by two calls at once. Rejects with the first rejection, and starts no
 * call after it.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  n: number,
  fn: (item: T, worker: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length)
  let next = 0
  let failed = false
  const run = async (worker: number): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++
      try {
        out[i] = await fn(items[i] as T, worker)
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  const workers = Math.max(1, Math.min(Math.floor(n), items.length))
  await Promise.all(Array.from({ length: workers }, (_, w) => run(w)))
  return out
}

/** A task runner that lets at most `n` tasks run at once, across callers. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>

export function createLimiter(n: number): Limiter {
  let active = 0
  const queue: (() => void)[] = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    // A finishing task hands its slot straight to the next waiter, so `active` never exceeds n.
    if (active >= n) await new Promise<void>((r) => queue.push(r))
    else active++
    try {
      return await task()
    } finally {
      const next = queue.shift()
      if (next) next()
      else active--
    }
  }
}
