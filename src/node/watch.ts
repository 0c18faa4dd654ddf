/**
 * Watching memory folders so the window updates while a Claude session writes.
 * Folders, not single files (editors and agents rename over files — stack-notes.md),
 * with chokidar's polling fallback where native events are unavailable.
 *
 * Only what the window shows is watched (issue 7): each memory folder's own files (depth 0)
 * and the projects folder itself (a new project appears). Transcript folders are not watched:
 * on a heavy home chokidar's initial walk of them cost seconds on the one thread that answers
 * the window. Symlinks are never followed, so nothing outside the folders is listed (issue 8).
 */
import chokidar, { type FSWatcher } from 'chokidar'
import { join } from 'node:path'
import type { ScanResult } from '../core/model'

export interface Watchable {
  scan(): Promise<{ readonly projects: readonly { readonly memoryDir: string | null }[] }>
  /** A scan whose result the next `scan()` call may reuse (the backend's startup scan). */
  prefetchScan?(): Promise<Pick<ScanResult, 'projects'>>
  /** Called after every scan, so folders that appear later are watched too. */
  onScanned?(listener: (scan: Pick<ScanResult, 'projects'>) => void): () => void
  emitChange(paths: readonly string[]): void
}

/** The folders to watch for a scan: every memory folder, plus the projects folder. */
export function watchedFolders(
  scan: { readonly projects: readonly { readonly memoryDir: string | null }[] },
  claudeHome?: string,
): string[] {
  const dirs = new Set<string>()
  for (const p of scan.projects) if (p.memoryDir !== null) dirs.add(p.memoryDir)
  if (claudeHome) dirs.add(join(claudeHome, 'projects'))
  return [...dirs]
}

/** Watch the Claude home's memory folders (shallow); returns a stop function. */
export async function watchMemory(
  backend: Watchable,
  options: { debounceMs?: number; claudeHome?: string } = {},
): Promise<() => Promise<void>> {
  const debounceMs = options.debounceMs ?? 150
  const scan = backend.prefetchScan ? await backend.prefetchScan() : await backend.scan()
  const dirs = watchedFolders(scan, options.claudeHome)
  const watcher: FSWatcher = chokidar.watch(dirs, {
    ignoreInitial: true,
    depth: 0,
    followSymlinks: false,
    usePolling: process.env.MEMORY_CURATOR_POLL === '1',
    interval: 300,
    awaitWriteFinish: false,
    ignored: (p: string) => p.includes('.mc-') && p.endsWith('.tmp'),
  })
  const watching = new Set(dirs)
  const stopScans = backend.onScanned?.((s) => {
    const added = watchedFolders(s).filter((d) => !watching.has(d))
    for (const d of added) watching.add(d)
    if (added.length > 0) watcher.add(added)
  })
  let pending = new Set<string>()
  let timer: NodeJS.Timeout | null = null
  const flush = (): void => {
    timer = null
    const paths = [...pending]
    pending = new Set()
    if (paths.length) backend.emitChange(paths)
  }
  watcher.on('all', (_event, path) => {
    pending.add(path)
    if (!timer) timer = setTimeout(flush, debounceMs)
  })
  watcher.on('error', () => {
    /* a vanished folder must not crash the app; the next scan finds the new state */
  })
  await new Promise<void>((ok) => watcher.once('ready', () => ok()))
  return async () => {
    stopScans?.()
    if (timer) clearTimeout(timer)
    await watcher.close()
  }
}
