/** The window's state and its transitions, as pure functions. */
import type { AppContext } from '../../shared/api'
import type { ProjectInfo, ScanResult } from '../../shared/model'
import { createStore } from './store'
import { groupProjects, navigationOrder } from '../projects/sidebar-state'
import { initialProject } from '../projects/project-title'

export interface AppState {
  readonly context: AppContext | null
  readonly scan: ScanResult | null
  readonly scanning: boolean
  readonly error: string | null
  readonly selectedId: string | null
  readonly filter: string
  /** A place the window was asked to show (a search result): project, file and line. */
  readonly reveal: Reveal | null
}

/** Show `file` at `line` in project `projectId`; `nonce` tells two requests for one place apart. */
export interface Reveal {
  readonly projectId: string
  readonly file: string
  readonly line: number
  readonly nonce: number
}

export type AppAction =
  | { readonly type: 'context'; readonly context: AppContext }
  | { readonly type: 'scan-start' }
  | { readonly type: 'scan-done'; readonly scan: ScanResult }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'select'; readonly id: string }
  | { readonly type: 'filter'; readonly text: string }
  | {
      readonly type: 'reveal'
      readonly projectId: string
      readonly file: string
      readonly line: number
    }

export const initialState: AppState = {
  context: null,
  scan: null,
  scanning: false,
  error: null,
  selectedId: null,
  filter: '',
  reveal: null,
}

/** Projects shown, in the sidebar's order: matching the filter, most recently active first. */
export function visibleProjects(state: AppState): readonly ProjectInfo[] {
  return navigationOrder(groupProjects(state.scan?.projects ?? [], state.filter))
}

export function reduce(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'context':
      return { ...state, context: action.context }
    case 'scan-start':
      return { ...state, scanning: true }
    case 'scan-done': {
      const keep = state.selectedId && action.scan.projects.some((p) => p.id === state.selectedId)
      const next = { ...state, scan: action.scan, scanning: false, error: null }
      // The window opens on the most recently active project (issue 15 item 16).
      const first = initialProject(visibleProjects(next))
      return { ...next, selectedId: keep ? state.selectedId : (first?.id ?? null) }
    }
    case 'error':
      return { ...state, scanning: false, error: action.message }
    case 'select':
      return { ...state, selectedId: action.id }
    case 'filter':
      return { ...state, filter: action.text }
    case 'reveal': {
      const { projectId, file, line } = action
      const nonce = (state.reveal?.nonce ?? 0) + 1
      return { ...state, selectedId: projectId, reveal: { projectId, file, line, nonce } }
    }
  }
}

export const appStore = createStore(reduce, initialState)
