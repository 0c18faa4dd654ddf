/**
 * Watching what sessions do to memory, for the person (issue 18 item 4): after the watcher
 * reports changed memory files (src/node/memory/watch.ts), say when an index now has entries
 * past the load cutoff it did not have before (docs/memory-rules.md §2), and when a line one
 * session wrote was removed by another (the provenance report's lost lines, §6.4).
 *
 * Decisions:
 * - Changes are looked at after a quiet time (a session writes in bursts), one folder at a time.
 * - Cutoff: an index seen for the first time counts every entry past the cutoff as new, so a
 *   session writing to an index already past the cutoff is told once; after that only entries
 *   that newly fall past it, and only when the index grew (in lines or entries): moving an entry
 *   above the cutoff pushes another below it, and that is the person's own choice.
 * - Lost lines: those known at the first look at a folder are history, unless removed after
 *   the monitor started; after that every new one is told.
 * - The last notices are kept (bounded) with increasing ids, for the window to ask after a change.
 */
import { basename, dirname } from 'node:path'
import type { MemoryNotice } from '../../shared/api-contract'
import type { CutoffResult, ProvenanceResult } from '../../shared/model'

/** Notices kept for the window. */
const KEPT_NOTICES = 50
const INDEX = 'MEMORY.md'

export type NewNotice = MemoryNotice extends infer N
  ? N extends MemoryNotice
    ? Omit<N, 'id' | 'at'>
    : never
  : never

export interface MonitorDeps {
  readonly cutoff: (file: string) => Promise<CutoffResult>
  readonly provenance: (memoryDir: string) => Promise<ProvenanceResult>
  /** Whether `dir` is a memory folder (the scan's); files elsewhere are passed over. */
  readonly isMemoryDir: (dir: string) => Promise<boolean>
  readonly quietMs?: number
  readonly now?: () => number
}

export interface MemoryMonitor {
  /** Paths the watcher reported. */
  changed(paths: readonly string[]): void
  /** Notices after `afterId`, once every change reported so far has been looked at. */
  notices(afterId: number): Promise<MemoryNotice[]>
  onNotice(listener: (n: MemoryNotice) => void): () => void
  stop(): void
}

export function createMemoryMonitor(deps: MonitorDeps): MemoryMonitor {
  const now = deps.now ?? Date.now
  const startedAt = now()
  const quietMs = deps.quietMs ?? 400
  const unloaded = new Map<
    string,
    { readonly keys: Set<string>; readonly lines: number; readonly entries: number }
  >()
  const lostSeen = new Map<string, Set<string>>()
  const kept: MemoryNotice[] = []
  const listeners = new Set<(n: MemoryNotice) => void>()
  let nextId = 1
  let pending = new Map<string, Set<string>>() // folder → changed file names
  let timer: ReturnType<typeof setTimeout> | null = null
  let work: Promise<void> = Promise.resolve()
  let waiting: (() => void)[] = []
  let stopped = false

  const tell = (n: NewNotice): void => {
    const notice = { ...n, id: nextId++, at: new Date(now()).toISOString() } as MemoryNotice
    kept.push(notice)
    if (kept.length > KEPT_NOTICES) kept.shift()
    for (const l of listeners) l(notice)
  }

  async function lookAtCutoff(dir: string): Promise<void> {
    const file = `${dir}/${INDEX}`
    const c = await deps.cutoff(file)
    const past = c.entries.filter((e) => !e.loaded)
    const keys = new Set(past.map((e) => `${e.title}\0${e.target ?? ''}`))
    const before = unloaded.get(file)
    unloaded.set(file, { keys, lines: c.totalLines, entries: c.entries.length })
    const fresh = past.filter((e) => !before?.keys.has(`${e.title}\0${e.target ?? ''}`))
    const grew = !before || c.totalLines > before.lines || c.entries.length > before.entries
    if (fresh.length === 0 || !grew || c.firstUnloadedLine === null) return
    const newest = past[past.length - 1]!
    tell({
      kind: 'past-cutoff',
      memoryDir: dir,
      file: c.file,
      entriesNotLoaded: past.length,
      newest: { line: newest.line, title: newest.title },
      firstUnloadedLine: c.firstUnloadedLine,
    })
  }

  async function lookAtLostLines(dir: string): Promise<void> {
    const p = await deps.provenance(dir)
    const first = !lostSeen.has(dir)
    const seen = lostSeen.get(dir) ?? new Set<string>()
    lostSeen.set(dir, seen)
    for (const f of p.files) {
      for (const l of f.lost) {
        const key = `${f.path}\0${l.text}\0${l.removedBy}\0${l.removedAt ?? ''}`
        if (seen.has(key)) continue
        seen.add(key)
        const removedAt = l.removedAt ? Date.parse(l.removedAt) : NaN
        if (first && !(removedAt >= startedAt)) continue
        if (f.exists === false) continue
        tell({
          kind: 'line-lost',
          memoryDir: dir,
          file: f.path,
          text: l.text,
          addedBy: l.addedBy,
          removedBy: l.removedBy,
        })
      }
    }
  }

  async function lookAt(batch: Map<string, Set<string>>): Promise<void> {
    for (const [dir, names] of batch) {
      if (stopped || !(await deps.isMemoryDir(dir).catch(() => false))) continue
      try {
        if (names.has(INDEX)) await lookAtCutoff(dir)
      } catch {
        // An index that cannot be read now is looked at on its next change.
      }
      try {
        await lookAtLostLines(dir)
      } catch {
        // Transcripts unreadable now: the next change looks again.
      }
    }
  }

  const flush = (): void => {
    timer = null
    const batch = pending
    pending = new Map()
    const done = waiting
    waiting = []
    work = work.then(() => lookAt(batch)).then(() => done.forEach((d) => d()))
  }

  return {
    changed(paths) {
      if (stopped) return
      for (const p of paths) {
        if (!p.toLowerCase().endsWith('.md')) continue
        const dir = dirname(p)
        const set = pending.get(dir) ?? new Set<string>()
        set.add(basename(p))
        pending.set(dir, set)
      }
      if (pending.size > 0 && !timer) timer = setTimeout(flush, quietMs)
    },
    async notices(afterId) {
      if (timer) await new Promise<void>((ok) => waiting.push(ok))
      await work
      return kept.filter((n) => n.id > afterId)
    },
    onNotice(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      for (const d of waiting) d()
      waiting = []
      listeners.clear()
    },
  }
}
