/**
 * Watching memory folders so the window updates while a Claude session writes.
 * Folders, not single files (editors and agents rename over files — stack-notes.md),
 * with chokidar's polling fallback where native events are unavailable.
 */
import chokidar, { type FSWatcher } from 'chokidar'
import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import { isInside } from './path-guard'

export interface Watchable {
  scan(): Promise<{ readonly projects: readonly { readonly memoryDir: string | null }[] }>
  emitChange(paths: readonly string[]): void
}

/** Watch the Claude home's project folders (memory and transcripts, shallow); returns a stop function. */
export async function watchMemory(backend: Watchable, options: { debounceMs?: number; claudeHome?: string } = {}): Promise<() => Promise<void>> {
  const debounceMs = options.debounceMs ?? 150
  const scan = await backend.scan()
  const dirs = scan.projects.map((p) => p.memoryDir).filter((d): d is string => d !== null)
  if (options.claudeHome) dirs.push(join(options.claudeHome, 'projects'))
  if (dirs.length === 0) return async () => {}
  // A symlink inside a memory folder that leads outside the watched folders is not followed:
  // watching must not list folders outside the roots (issue 8, canary test).
  const realDirs = dirs.map((d) => {
    try {
      return realpathSync(d)
    } catch {
      return d
    }
  })
  const escapes = (p: string): boolean => {
    try {
      const real = realpathSync(p)
      return !realDirs.some((d) => isInside(d, real))
    } catch {
      return false
    }
  }
  const watcher: FSWatcher = chokidar.watch(dirs, {
    ignoreInitial: true,
    depth: 2,
    usePolling: process.env.MEMORY_CURATOR_POLL === '1',
    interval: 300,
    awaitWriteFinish: false,
    ignored: (p: string) => (p.includes('.mc-') && p.endsWith('.tmp')) || escapes(p),
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
    if (timer) clearTimeout(timer)
    await watcher.close()
  }
}
