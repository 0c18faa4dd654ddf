/**
 * The frame both note tabs share (Notes and Review queue): the audit status over the tab's own
 * list on the left, the selected note in the workbench on the right.
 */
import { useCallback, useRef, type ReactNode } from 'react'
import type { AuditNote } from '../../shared/model'
import { findNote } from './notes-state'
import { useNotesSession, type NotesSession } from './notes-session'
import { useWarmNextDiffs } from './diff-warm'
import { progressText } from '../state/audit-store'
import { NoteWorkbench, useNoteActions, type ActionKind, type NoteActions } from './note-workbench'
import './notes.css'

/** The audit's progress (n of N notes) with Cancel, the failure, or the re-run button. */
export function AuditStatus({
  session,
  repoRoot,
}: {
  session: NotesSession
  repoRoot: string | null
}) {
  const { audit } = session
  const running = audit.running
  const pct = running && running.total > 0 ? (running.done / running.total) * 100 : 0
  return (
    <div className="audit-status">
      {running ? (
        <>
          <span className="spinner" aria-hidden="true" />
          <span
            data-testid="auditing"
            title={`Auditing notes against ${repoRoot ?? 'no repository'}`}
          >
            <span data-testid="audit-progress">{progressText(running)}</span>
          </span>
          <button onClick={session.cancel} data-testid="cancel-audit" title="Stop this audit (Esc)">
            Cancel
          </button>
          <div
            className="gauge-bar audit-gauge"
            role="progressbar"
            aria-label="Audit progress"
            aria-valuemin={0}
            aria-valuemax={running.total}
            aria-valuenow={running.done}
          >
            <div className="gauge-fill" style={{ width: `${pct}%` }} />
          </div>
        </>
      ) : (
        <>
          <span className="muted" data-testid="audit-state">
            {audit.cancelled && !audit.view
              ? 'Audit cancelled'
              : audit.view
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
      {audit.error && (
        <div className="error-bar" role="alert" data-testid="audit-error">
          {audit.error}
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
  useWarmNextDiffs(session.state, mode, memoryDir, repoRoot)
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
          noteKey={session.state.selectedKey}
          review={
            session.state.selectedKey
              ? (session.state.reviews[session.state.selectedKey] ?? null)
              : null
          }
          memoryDir={memoryDir}
          repoRoot={repoRoot}
          actions={actions}
          shortcuts={shortcuts}
        />
      </section>
    </div>
  )
}
