/**
 * The back end's startup scan (issue 7, issue 16): the scan run at start answers the window's
 * first `scan()` while nothing it read changed (projects-stamp.ts) and it is recent; the home's
 * watcher starts after it and after that first answer (watch.ts), and once ready hears from
 * `recheck` which memory files and folders changed since the startup stamp (it saw nothing before).
 */
import { setTimeout as delay } from 'node:timers/promises'
import type { ScanResult } from '../../shared/model'
import { changedPaths, projectsStamp } from './projects-stamp'

/** How long a kept startup scan may answer. */
const PREFETCH_MAX_AGE_MS = 60_000
/** How long the home's watcher waits for a window's first scan (watch.ts `afterFirstLoad`). */
const FIRST_LOAD_WAIT_MS = 5000
/** And then, while the window draws the list from that answer (the walk shared the CPU with it). */
const DRAW_WAIT_MS = 1000

export interface StartupScanDeps {
  readonly claudeHome: string
  /** A scan now (joined when one is running for the current generation). */
  readonly runScan: () => Promise<ScanResult>
  /** Changes seen by the watcher so far (the back end's change generation). */
  readonly generation: () => number
  readonly emitChange: (paths: readonly string[]) => void
}

export function createStartupScan(deps: StartupScanDeps) {
  let prefetched: {
    readonly generation: number
    readonly at: number
    readonly stamp: string
    readonly scan: ScanResult
  } | null = null
  let startupStamp: string | null = null
  /**
   * While the startup stamp is being taken (a slice at a time, so the page's files are served
   * meanwhile), resolves once its scan has started. A window's scan waits for it: a scan started
   * before the stamp was done could read a folder before it was stamped, and a change in between
   * would then go unreported.
   */
  let stamping: Promise<void> | null = null
  let answeredFirst = (): void => undefined
  const firstAnswer = new Promise<void>((ok) => (answeredFirst = ok))
  const stamp = (): Promise<string> => projectsStamp(deps.claudeHome)

  /** The kept startup scan while nothing it read changed and it is recent, else a scan. */
  async function scanForWindow(): Promise<ScanResult> {
    if (stamping) await stamping
    const ready = prefetched
    prefetched = null
    const current = (): boolean => ready !== null && ready.generation === deps.generation()
    if (ready && current() && Date.now() - ready.at < PREFETCH_MAX_AGE_MS) {
      if ((await stamp()) === ready.stamp && current()) return ready.scan
    }
    return deps.runScan()
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
      let started = (): void => undefined
      const mine = new Promise<void>((ok) => (started = ok))
      stamping = mine
      let run: Promise<ScanResult>
      let before: string
      try {
        before = await stamp()
        startupStamp ??= before
        run = deps.runScan()
      } finally {
        if (stamping === mine) stamping = null
        started()
      }
      const result = await run
      if (generation === deps.generation())
        prefetched = { generation, at: Date.now(), stamp: before, scan: result }
      return result
    },
    firstScanAnswered(): Promise<void> {
      const wait = (ms: number): Promise<void> => delay(ms, undefined, { ref: false })
      return Promise.race([firstAnswer.then(() => wait(DRAW_WAIT_MS)), wait(FIRST_LOAD_WAIT_MS)])
    },
    async recheckStartupScan(): Promise<void> {
      if (startupStamp === null) return
      const changed = changedPaths(deps.claudeHome, startupStamp, await stamp())
      startupStamp = null
      if (changed.length > 0) deps.emitChange(changed)
    },
    /** Something changed on disk: the kept startup scan no longer answers. */
    forget(): void {
      prefetched = null
    },
  }
}
