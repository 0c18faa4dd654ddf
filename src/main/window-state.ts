/** What the window remembers with electron-store: its size and position, and verification stamps. */
import Store from 'electron-store'
import type { KeyValueStore } from '../node/edits/edit-actions'

export interface WindowBounds {
  x?: number
  y?: number
  width: number
  height: number
  maximized: boolean
}

const DEFAULT_BOUNDS: WindowBounds = { width: 1280, height: 800, maximized: false }

export function createWindowStateStore(cwd?: string): {
  load(): WindowBounds
  save(b: WindowBounds): void
} {
  const store = new Store<{ window: WindowBounds }>({
    name: 'window-state',
    cwd,
    defaults: { window: DEFAULT_BOUNDS },
  })
  return {
    load() {
      const b = store.get('window')
      const ok =
        b &&
        Number.isFinite(b.width) &&
        Number.isFinite(b.height) &&
        b.width >= 400 &&
        b.height >= 300
      return ok ? b : DEFAULT_BOUNDS
    },
    save(b) {
      store.set('window', b)
    },
  }
}

/**
 * Verification stamps of notes, kept with electron-store (issue 6). All stamps live under
 * one key: electron-store reads dots in keys as paths, and stamp keys contain file paths.
 */
export function createStampStore(cwd?: string): KeyValueStore {
  const store = new Store<{ stamps: Record<string, unknown> }>({
    name: 'note-stamps',
    cwd,
    defaults: { stamps: {} },
  })
  const all = (): Record<string, unknown> => store.get('stamps') ?? {}
  return {
    get: (key) => all()[key],
    set: (key, value) => store.set('stamps', { ...all(), [key]: value }),
    delete: (key) => {
      const { [key]: _gone, ...rest } = all()
      store.set('stamps', rest)
    },
    keys: () => Object.keys(all()),
  }
}
