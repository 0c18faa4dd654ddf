/**
 * The back end's startup scan (issue 7, issue 16): the scan run at start answers the window's
 * first `scan()` while nothing it read changed and it is recent; the home's watcher starts after
 * it and after that first answer (watch.ts), and once ready hears from `recheck` which memory
 * files and folders changed since the startup scan read them (it saw nothing before).
 *
 * What changed is told by the scan's own record (memory/scan-witness.ts: each folder's identity
 * taken before it was listed, each memory file's before it was read), so nothing walks the home
 * before the scan starts. A file the watcher cannot vouch for yet (files written while it makes
 * its first listing raise no event: an e2e test writing 400 topic files right after start saw a
 * window keep a listing from before, under load) changes that record.
 */
import { setTimeout as delay } from 'node:timers/promises'
import type { ScanResult } from '../../shared/model'
import { scanChanges, type ScanSeen } from '../memory/scan-witness'

/** How long a kept startup scan may answer. */
const PREFETCH_MAX_AGE_MS = 60_000
/** How long the home's watcher waits for a window's first scan (watch.ts `afterFirstLoad`). */
const FIRST_LOAD_WAIT_MS = 5000
/** And then, while the window draws the list from that answer (the walk shared the CPU with it). */
const DRAW_WAIT_MS = 1000

/** A scan's answer and what it saw. */
export interface WitnessedScan {
  readonly scan: ScanResult
  readonly seen: ScanSeen
}

export interface StartupScanDeps {
  /** A scan now (joined when one is running for the current generation). */
  readonly runScan: () => Promise<WitnessedScan>
  /** Changes seen by the watcher so far (the back end's change generation). */
  readonly generation: () => number
  readonly emitChange: (paths: readonly string[]) => void
}

export function createStartupScan(deps: StartupScanDeps) {
  let prefetched: {
    readonly generation: number
    readonly at: number
    readonly run: WitnessedScan
  } | null = null
  /** What the first startup scan saw, until the recheck compared it with the disk. */
  let startupSeen: ScanSeen | null = null
  let answeredFirst = (): void => undefined
  const firstAnswer = new Promise<void>((ok) => (answeredFirst = ok))

  /** The kept startup scan while nothing it read changed and it is recent, else a scan. */
  async function scanForWindow(): Promise<ScanResult> {
    const ready = prefetched
    prefetched = null
    const current = (): boolean => ready !== null && ready.generation === deps.generation()
    if (ready && current() && Date.now() - ready.at < PREFETCH_MAX_AGE_MS) {
      const changed = await scanChanges(ready.run.seen, true)
      if (changed.length === 0 && current()) return ready.run.scan
    }
    // A scan still running is joined: what changes after it read something the recheck reports.
    return (await deps.runScan()).scan
  }

  return {
    async scan(): Promise<ScanResult> {
      try {
        return await scanForWindow()
      } finally {
        answeredFirst()
      }
    },
    async prefetchScan(): Promise<ScanResult> {
      const generation = deps.generation()
      const result = await deps.runScan()
      startupSeen ??= result.seen
      if (generation === deps.generation()) prefetched = { generation, at: Date.now(), run: result }
      return result.scan
    },
    firstScanAnswered(): Promise<void> {
      const wait = (ms: number): Promise<void> => delay(ms, undefined, { ref: false })
      return Promise.race([firstAnswer.then(() => wait(DRAW_WAIT_MS)), wait(FIRST_LOAD_WAIT_MS)])
    },
    async recheckStartupScan(): Promise<void> {
      const seen = startupSeen
      if (seen === null) return
      startupSeen = null
      const changed = await scanChanges(seen)
      if (changed.length > 0) deps.emitChange(changed)
    },
    /** Something changed on disk: the kept startup scan no longer answers. */
    forget(): void {
      prefetched = null
    },
  }
}
