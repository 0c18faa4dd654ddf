/**
 * The audit of one project's notes, held in the pure reducer of notes-state.ts. The audit
 * itself lives in the window's audit store (state/audit-store.ts): one audit per change,
 * shared with the sidebar and the other note tab, with progress and a cancel (issue 15 item 7).
 */
import { useCallback, useEffect, useReducer, useRef, type Dispatch } from 'react'
import { cancelAudit, ensureAudit, useAudit, type AuditEntry } from '../state/audit-store'
import { initialNotesState, reduceNotes, type NotesAction, type NotesState } from './notes-state'

export interface NotesSession {
  readonly state: NotesState
  readonly dispatch: Dispatch<NotesAction>
  /** The project's audit as the store holds it: in flight (n of N), failed, cancelled. */
  readonly audit: AuditEntry
  /** Read the audit again after a change of ours (the back end reuses it when nothing moved). */
  refresh(): void
  /** Stop the audit in flight. */
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
  const audit = useAudit(memoryDir, repoRoot)

  // Each new view of the audit goes through the reducer (selection and queue follow it).
  useEffect(() => {
    if (!audit.view) return
    const requestId = nextId.current++
    dispatch({ type: 'audit-start', requestId })
    dispatch({ type: 'audit-done', requestId, view: audit.view })
  }, [audit.view])

  const refresh = useCallback(() => {
    if (memoryDir) void ensureAudit(memoryDir, repoRoot, true)
  }, [memoryDir, repoRoot])

  const cancel = useCallback(() => {
    if (memoryDir) cancelAudit(memoryDir, repoRoot)
  }, [memoryDir, repoRoot])

  return { state, dispatch, audit, refresh, cancel }
}

/** True when keyboard focus is in a text field or a Monaco editor (shortcuts must not fire there). */
export function focusInEditor(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.closest('.monaco-editor')) return true
  const tag = target.tagName
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable
}
