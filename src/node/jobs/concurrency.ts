/** Bounded concurrency for disk work: enough calls in flight to keep the thread pool busy, never thousands. */

/** Files read at once by one job (the libuv pool has 4 threads; a few more hides latency). */
export const FILE_READ_CONCURRENCY = 16

/** Map with at most `n` calls in flight, keeping the input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  n: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i] as T, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(Math.max(1, n), items.length) }, worker))
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
