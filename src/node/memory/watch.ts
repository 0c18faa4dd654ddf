/**
 * Watching memory folders so the window updates while a Claude session writes.
 * Folders, not single files (editors and agents rename over files — docs/stack.md §6),
 * with chokidar's polling fallback where native events are unavailable.
 *
 * Only what the window shows is watched (issue 7): the Claude home's `projects` tree down to
 * each `<project>/memory/` folder and its topic files as deep as the one memory-folder reader
 * lists them (memory-folder.ts, TOPIC_SCAN_MAX_DEPTH), and any memory folder a scan finds elsewhere.
 * Transcripts are never watched: on a heavy home chokidar's initial walk of them cost seconds
 * on the one thread that answers the window. Symlinks are never followed, so nothing outside
 * the folders is listed (issue 8).
 *
 * Start-up never waits on the watcher (issue 14): chokidar emits no `ready` for an empty path
 * list (docs/stack.md §6), and a home with no memory folder yet must still open. Watching the
 * home itself makes a `projects/<p>/memory` folder created later appear without a restart; that
 * watcher starts after the startup scan (issue 16, below).
 */
import chokidar, { type FSWatcher } from 'chokidar'
import { isAbsolute, join, relative, sep } from 'node:path'
import type { ScanResult } from '../../shared/model'
import { TOPIC_SCAN_MAX_DEPTH } from '../../core/limits'

/** `projects/<p>/memory/<entry>` is 4 parts; the reader enters TOPIC_SCAN_MAX_DEPTH folders below. */
const HOME_MAX_PARTS = 4 + TOPIC_SCAN_MAX_DEPTH

export interface Watchable {
  scan(): Promise<{ readonly projects: readonly { readonly memoryDir: string | null }[] }>
  /** A scan whose result the next `scan()` call may reuse (the backend's startup scan). */
  prefetchScan?(): Promise<Pick<ScanResult, 'projects'>>
  /** Resolves once a window has drawn its first scan's answer (or after a few seconds without one). */
  firstScanAnswered?(): Promise<void>
  /** Once the home's watcher is ready: report what changed since the startup scan (it saw nothing before). */
  recheckStartupScan?(): Promise<void>
  /** Called after every scan, so folders that appear later are watched too. */
  onScanned?(listener: (scan: Pick<ScanResult, 'projects'>) => void): () => void
  emitChange(paths: readonly string[]): void
}

/** Every memory folder of a scan, once (the home's own tree is watched apart: ignoredInHome). */
export function watchedFolders(scan: {
  readonly projects: readonly { readonly memoryDir: string | null }[]
}): string[] {
  return [...new Set(scan.projects.flatMap((p) => (p.memoryDir === null ? [] : [p.memoryDir])))]
}

/**
 * Whether the watcher of the Claude home passes over `path`: everything but the home itself,
 * `projects`, each project folder, its `memory` folder and the topic files in it, at any depth
 * the memory-folder reader lists. Transcripts (`projects/<p>/*.jsonl`) and our temp files are
 * passed over.
 */
export function ignoredInHome(claudeHome: string, path: string): boolean {
  const rel = relative(claudeHome, path)
  if (rel === '') return false
  if (rel.startsWith('..') || isAbsolute(rel)) return true
  const parts = rel.split(sep)
  if (parts[0] !== 'projects') return true
  if (parts.length >= 3 && parts[2] !== 'memory') return true
  if (parts.length > HOME_MAX_PARTS) return true
  return isOurTemp(path)
}

const isOurTemp = (p: string): boolean => p.includes('.mc-') && p.endsWith('.tmp')

export interface MemoryWatch {
  /** Resolves once the first listing is done (tests wait on it; start-up never does). */
  readonly ready: Promise<void>
  stop(): Promise<void>
}

/** Watch the Claude home's memory folders; returns at once, never waiting for the first listing. */
export function watchMemory(
  backend: Watchable,
  options: {
    debounceMs?: number
    claudeHome?: string
    /** Start the home's watcher only once a window's first scan was answered (serve, the app). */
    afterFirstLoad?: boolean
  } = {},
): MemoryWatch {
  const debounceMs = options.debounceMs ?? 150
  const home = options.claudeHome
  const common = {
    ignoreInitial: true,
    followSymlinks: false,
    usePolling: process.env.MEMORY_CURATOR_POLL === '1',
    interval: 300,
    awaitWriteFinish: false,
  } as const
  const watchers: FSWatcher[] = []
  let pending = new Set<string>()
  let timer: NodeJS.Timeout | null = null
  let stopped = false
  const flush = (): void => {
    timer = null
    const paths = [...pending]
    pending = new Set()
    if (paths.length && !stopped) backend.emitChange(paths)
  }
  const listen = (w: FSWatcher): FSWatcher => {
    w.on('all', (_event, path) => {
      pending.add(path)
      if (!timer) timer = setTimeout(flush, debounceMs)
    })
    w.on('error', () => {
      /* a vanished folder must not crash the app; the next scan finds the new state */
    })
    watchers.push(w)
    return w
  }
  const readyOf = (w: FSWatcher): Promise<void> =>
    new Promise<void>((ok) => w.once('ready', () => ok()))

  // The home's own tree: `projects/<p>/memory/**`, including folders that do not exist yet.
  // It starts once the startup scan has answered, and with `afterFirstLoad` once the window's
  // first scan has (issue 16): its first walk lists every memory file (~1.5 s of CPU on the heavy
  // home) and shared the one thread with those scans. What changed before it was ready the back end
  // reports itself (recheckStartupScan), from what that scan recorded as it read (scan-witness.ts).
  const watchHome = async (dir: string): Promise<void> => {
    await first
    if (options.afterFirstLoad) await backend.firstScanAnswered?.()
    if (stopped) return
    await readyOf(
      listen(
        chokidar.watch(dir, {
          ...common,
          depth: HOME_MAX_PARTS - 1,
          ignored: (p: string) => ignoredInHome(dir, p),
        }),
      ),
    )
    if (!stopped) await backend.recheckStartupScan?.()
  }

  // Memory folders outside the home's projects tree (or all of them when no home is given).
  const outside = (dirs: readonly string[]): string[] =>
    dirs.filter((d) => !home || ignoredInHome(home, join(d, 'x')))
  let extra: FSWatcher | null = null
  const watching = new Set<string>()
  const addFolders = (dirs: readonly string[]): Promise<void> => {
    const added = outside(dirs).filter((d) => !watching.has(d))
    for (const d of added) watching.add(d)
    if (added.length === 0 || stopped) return Promise.resolve()
    if (extra) {
      extra.add(added)
      return Promise.resolve()
    }
    extra = listen(
      chokidar.watch(added, { ...common, depth: TOPIC_SCAN_MAX_DEPTH, ignored: isOurTemp }),
    )
    return readyOf(extra)
  }
  const stopScans = backend.onScanned?.((s) => void addFolders(watchedFolders(s)))
  const first = (backend.prefetchScan ? backend.prefetchScan() : backend.scan()).then(
    (scan) => addFolders(watchedFolders(scan)),
    () => undefined,
  )
  return {
    ready: Promise.all([home ? watchHome(home) : Promise.resolve(), first]).then(() => undefined),
    async stop() {
      stopped = true
      stopScans?.()
      if (timer) clearTimeout(timer)
      await Promise.all(watchers.map((w) => w.close()))
    },
  }
}
