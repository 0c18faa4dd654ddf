/**
 * The audit of one project's notes, held in the pure reducer of notes-state.ts: runs the
 * audit and reads the stamps, drops answers of cancelled or superseded runs, re-runs on demand.
 */
import { useCallback, useEffect, useReducer, useRef, type Dispatch } from 'react'
import { getApi } from '../api/api-client'
import { initialNotesState, reduceNotes, type NotesAction, type NotesState } from './notes-state'

export interface NotesSession {
  readonly state: NotesState
  readonly dispatch: Dispatch<NotesAction>
  /** Run the audit again (after any change, or on request). */
  refresh(): void
  /** Stop waiting for the audit in flight; its answer is dropped when it comes. */
  cancel(): void
}

export function useNotesSession(
  memoryDir: string | null,
  repoRoot: string | null,
  mode: 'notes' | 'queue',
): NotesSession {
  const reducer = useRef(reduceNotes(mode)).current
  const [state, dispatch] = useReducer(reducer, initialNotesState)
  const nextId = useRef(1)

  const refresh = useCallback(() => {
    if (!memoryDir) return
    const requestId = nextId.current++
    dispatch({ type: 'audit-start', requestId })
    const api = getApi()
    Promise.all([
      api.audit(memoryDir, repoRoot),
      api.listStamps(memoryDir, repoRoot).catch(() => []),
    ]).then(
      ([audit, stamps]) => dispatch({ type: 'audit-done', requestId, audit, stamps }),
      (err: Error) =>
        dispatch({
          type: 'audit-failed',
          requestId,
          message: `Audit of ${memoryDir} failed: ${err.message}`,
        }),
    )
  }, [memoryDir, repoRoot])

  const cancel = useCallback(() => {
    nextId.current++
    dispatch({ type: 'audit-cancel' })
  }, [])

  // A new folder or repository starts a new request; the reducer drops answers of older ones.
  useEffect(() => refresh(), [refresh])

  return { state, dispatch, refresh, cancel }
}

/** True when keyboard focus is in a text field or a Monaco editor (shortcuts must not fire there). */
export function focusInEditor(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.closest('.monaco-editor')) return true
  const tag = target.tagName
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable
}
