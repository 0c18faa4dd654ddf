/**
 * Monaco bundled locally, never from a CDN (docs/stack.md §4),
 * and split out of the first bundle (issue 7): the project list paints before the 4 MB editor
 * is fetched and parsed. `@monaco-editor/react` asks `loader.init()` for Monaco when an editor
 * mounts; here that loads the local chunk (monaco-core.ts) instead of injecting a CDN script.
 */
import { loader } from '@monaco-editor/react'
import type * as MonacoModule from 'monaco-editor/editor'

export type { MonacoModule as monaco }

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker: () => Worker }
  }
}

type Monaco = typeof MonacoModule
let loading: Promise<Monaco> | null = null
let prewarmed = false

/** Load Monaco once (later calls share the first load) and hand it to the React wrapper. */
export function loadMonaco(): Promise<Monaco> {
  loading ??= import('./monaco-core').then(({ monaco }) => {
    loader.config({ monaco })
    return monaco
  })
  return loading
}

type CancelablePromise<T> = Promise<T> & { cancel: () => void }

loader.init = (): CancelablePromise<Monaco> => {
  let cancelled = false
  const p = loadMonaco().then((m) => {
    // The shape @monaco-editor/react expects from a cancelled init.
    if (cancelled) throw { type: 'cancelation', msg: 'operation is manually canceled' }
    return m
  }) as CancelablePromise<Monaco>
  p.cancel = () => {
    cancelled = true
  }
  return p
}

/** Fetch Monaco when the window is idle, so the first editor opens without waiting. */
export function preloadMonacoWhenIdle(delayMs = 1500): void {
  const start = (): void => void loadMonaco().catch(() => undefined)
  setTimeout(() => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: 3000 })
    else start()
  }, delayMs)
}

/**
 * Warm what a note's first diff needs (issue 7: a diff within 200 ms of a click): Monaco, the
 * editor worker that computes diffs, and the colouring of the languages diffs show. Once per
 * window, when the window is idle; the Notes tab calls it while its audit runs.
 */
export function prewarmDiffs(languages: readonly string[]): void {
  if (prewarmed) return
  prewarmed = true
  const run = (): void =>
    void import('./monaco-core').then((core) => core.prewarm(languages)).catch(() => undefined)
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 })
  else setTimeout(run, 0)
}
