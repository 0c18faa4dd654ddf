/** Window size and position, remembered with electron-store between runs. */
import Store from 'electron-store'

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
      const ok = b && Number.isFinite(b.width) && Number.isFinite(b.height) && b.width >= 400 && b.height >= 300
      return ok ? b : DEFAULT_BOUNDS
    },
    save(b) {
      store.set('window', b)
    },
  }
}
