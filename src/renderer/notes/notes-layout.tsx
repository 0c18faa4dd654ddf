/**
 * The frame both note tabs share (Notes and Review queue): the audit status over the tab's own
 * list on the left, the selected note in the workbench on the right.
 */
import { useCallback, useRef, type ReactNode } from 'react'
import type { AuditNote } from '../../shared/model'
import { findNote, stampFor } from './notes-state'
import { useNotesSession, type NotesSession } from './notes-session'
import { NoteWorkbench, useNoteActions, type ActionKind, type NoteActions } from './note-workbench'
import './notes.css'

/** The "Auditing…" line with Cancel, the failure, or the re-run button. */
export function AuditStatus({
  session,
  repoRoot,
}: {
  session: NotesSession
  repoRoot: string | null
}) {
  const { state } = session
  return (
    <div className="audit-status">
      {state.auditing ? (
        <>
          <span className="spinner" aria-hidden="true" />
          <span data-testid="auditing">Auditing notes against {repoRoot ?? 'no repository'}…</span>
          <button
            onClick={session.cancel}
            data-testid="cancel-audit"
            title="Stop waiting for this audit (Esc)"
          >
            Cancel
          </button>
        </>
      ) : (
        <>
          <span className="muted">
            {state.audit
              ? repoRoot
                ? `Checked against ${repoRoot}`
                : 'No repository: nothing can be checked'
              : 'Not audited'}
          </span>
          <button onClick={session.refresh} data-testid="rerun-audit" title="Run the audit again">
            Re-audit
          </button>
        </>
      )}
      {state.error && (
        <div className="error-bar" role="alert" data-testid="audit-error">
          {state.error}
        </div>
      )}
    </div>
  )
}

/** What a note tab runs on: its audit session, the selected note, and the actions on it. */
export interface NotesFrame {
  readonly session: NotesSession
  readonly note: AuditNote | null
  readonly memoryDir: string
  readonly repoRoot: string | null
  readonly actions: NoteActions
}

/** The session and actions of a note tab; `onAfter` runs after each action, with the latest session. */
export function useNotesFrame(
  memoryDir: string,
  repoRoot: string | null,
  mode: 'notes' | 'queue',
  onAfter?: (kind: ActionKind, key: string | null, session: NotesSession) => void,
): NotesFrame {
  const session = useNotesSession(memoryDir, repoRoot, mode)
  const note = findNote(session.state, session.state.selectedKey)
  const latest = useRef({ session, onAfter })
  latest.current = { session, onAfter }
  const after = useCallback(
    (kind: ActionKind, key: string | null) =>
      latest.current.onAfter?.(kind, key, latest.current.session),
    [],
  )
  const actions = useNoteActions({
    session,
    memoryDir,
    repoRoot,
    note,
    noteKey: session.state.selectedKey,
    onAfter: after,
  })
  return { session, note, memoryDir, repoRoot, actions }
}

export function NotesLayout({
  frame,
  testId,
  mainLabel,
  shortcuts,
  children,
}: {
  frame: NotesFrame
  testId: string
  mainLabel: string
  shortcuts: 'letters' | 'none'
  /** The tab's side panel under the audit status. */
  children: ReactNode
}) {
  const { session, note, memoryDir, repoRoot, actions } = frame
  return (
    <div className="notes-layout" data-testid={testId}>
      <aside className="notes-side">
        <AuditStatus session={session} repoRoot={repoRoot} />
        {children}
      </aside>
      <section className="notes-main" aria-label={mainLabel}>
        <NoteWorkbench
          note={note}
          stamp={note ? stampFor(note, session.state.stamps) : null}
          memoryDir={memoryDir}
          repoRoot={repoRoot}
          actions={actions}
          shortcuts={shortcuts}
        />
      </section>
    </div>
  )
}
