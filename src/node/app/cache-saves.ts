/**
 * When the back end saves a scan's kept readings (src/node/memory/scan-cache.ts): published in
 * memory at once, written to the state folder a few seconds later, so writing a few megabytes
 * of JSON does not share the thread with the window's first load (issue 16). `flush` writes
 * what is still waiting (a closing back end, a CLI command that ends).
 */
import type { ScanCacheSession } from '../memory/scan-cache'

/** Delay before a scan's readings are written. */
export const SCAN_CACHE_SAVE_DELAY_MS = 3000

export class CacheSaves {
  readonly #waiting = new Map<ScanCacheSession, NodeJS.Timeout>()
  readonly #writing = new Set<Promise<unknown>>()

  /** Publish `session` now; write it after the delay. */
  later(session: ScanCacheSession): void {
    session.publish()
    const timer = setTimeout(() => this.#write(session), SCAN_CACHE_SAVE_DELAY_MS)
    timer.unref()
    this.#waiting.set(session, timer)
  }

  /** Write every waiting session now and wait for every write. */
  async flush(): Promise<void> {
    for (const [session, timer] of [...this.#waiting]) {
      clearTimeout(timer)
      this.#write(session)
    }
    await Promise.all([...this.#writing])
  }

  #write(session: ScanCacheSession): void {
    this.#waiting.delete(session)
    // A failed save only means the next run reads more.
    const w = session.finish().finally(() => this.#writing.delete(w))
    this.#writing.add(w)
  }
}
