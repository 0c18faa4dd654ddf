/**
 * Unsaved rewrites, kept per note (issue 15 item 1): a rewrite survives a click on another
 * note, tab or project and a reload, and is dropped only when saved or when the person says to
 * discard it. Kept in the window's localStorage, keyed by memory folder and note; what is read
 * back is checked like any other input (a damaged entry is ignored, never shown half).
 */
import { useSyncExternalStore } from 'react'

export interface Draft {
  /** The file being rewritten (the note's file, or the topic file its index entry links). */
  readonly path: string
  /** The file as it was read when editing started: what a save must still find on disk. */
  readonly baseText: string
  readonly baseHash: string
  readonly text: string
  /** When the draft was last changed (ISO). */
  readonly at: string
}

const PREFIX = 'memory-curator:draft:'
const listeners = new Set<() => void>()
let version = 0

const storage = (): Storage | null => {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

const keyOf = (memoryDir: string, noteKey: string): string =>
  `${PREFIX}${JSON.stringify([memoryDir, noteKey])}`

function changed(): void {
  version++
  for (const l of listeners) l()
}

function isDraft(v: unknown): v is Draft {
  if (typeof v !== 'object' || v === null) return false
  const d = v as Record<string, unknown>
  return (
    typeof d.path === 'string' &&
    typeof d.baseText === 'string' &&
    typeof d.baseHash === 'string' &&
    /^[0-9a-f]{64}$/.test(d.baseHash) &&
    typeof d.text === 'string' &&
    typeof d.at === 'string'
  )
}

export function loadDraft(memoryDir: string, noteKey: string): Draft | null {
  const raw = storage()?.getItem(keyOf(memoryDir, noteKey))
  if (!raw) return null
  try {
    const v: unknown = JSON.parse(raw)
    return isDraft(v) ? v : null
  } catch {
    return null
  }
}

/** Keep `draft` (false when the browser refused it, e.g. storage is full). */
export function saveDraft(memoryDir: string, noteKey: string, draft: Draft): boolean {
  try {
    storage()?.setItem(keyOf(memoryDir, noteKey), JSON.stringify(draft))
    changed()
    return true
  } catch {
    return false
  }
}

export function dropDraft(memoryDir: string, noteKey: string): void {
  const s = storage()
  const k = keyOf(memoryDir, noteKey)
  if (s?.getItem(k) == null) return
  s.removeItem(k)
  changed()
}

/** The keys of the notes of `memoryDir` with a draft. */
export function draftKeys(memoryDir: string): ReadonlySet<string> {
  const s = storage()
  const out = new Set<string>()
  if (!s) return out
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i)
    if (!k?.startsWith(PREFIX)) continue
    try {
      const v: unknown = JSON.parse(k.slice(PREFIX.length))
      if (Array.isArray(v) && v[0] === memoryDir && typeof v[1] === 'string') out.add(v[1])
    } catch {
      // A key of another shape: not ours to read.
    }
  }
  return out
}

const subscribe = (l: () => void): (() => void) => {
  listeners.add(l)
  // Another window of the app changed a draft.
  const onStorage = (e: StorageEvent): void => {
    if (e.key?.startsWith(PREFIX)) changed()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(l)
    window.removeEventListener('storage', onStorage)
  }
}

let cached: { version: number; dir: string; keys: ReadonlySet<string> } | null = null

/** The keys of the notes with a draft, kept up to date. */
export function useDraftKeys(memoryDir: string): ReadonlySet<string> {
  return useSyncExternalStore(subscribe, () => {
    if (!cached || cached.version !== version || cached.dir !== memoryDir)
      cached = { version, dir: memoryDir, keys: draftKeys(memoryDir) }
    return cached.keys
  })
}
