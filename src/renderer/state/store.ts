/**
 * A small store: state changes are pure functions `(state, action) => state`, kept out
 * of components and bridged to React with useSyncExternalStore (docs/architecture.md §4.6).
 */
import { useSyncExternalStore } from 'react'

export interface Store<S, A> {
  getState(): S
  dispatch(action: A): void
  subscribe(listener: () => void): () => void
}

export function createStore<S, A>(reducer: (state: S, action: A) => S, initial: S): Store<S, A> {
  let state = initial
  const listeners = new Set<() => void>()
  return {
    getState: () => state,
    dispatch(action) {
      const next = reducer(state, action)
      if (next !== state) {
        state = next
        for (const l of listeners) l()
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export function useStore<S, A, T>(store: Store<S, A>, select: (s: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.getState()))
}
