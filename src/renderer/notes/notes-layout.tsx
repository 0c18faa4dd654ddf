/**
 * The frame both note tabs share (Notes and Review queue): the audit status over the tab's own
 * list on the left, the selected note in the workbench on the right.
 */
import type { ReactNode } from 'react'
import type { AuditNote } from '../../shared/model'
import { stampFor } from './notes-state'
import type { NotesSession } from './notes-session'
import { NoteWorkbench, type NoteActions } from './note-workbench'
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

export function NotesLayout({
  testId,
  mainLabel,
  session,
  note,
  memoryDir,
  repoRoot,
  actions,
  shortcuts,
  children,
}: {
  testId: string
  mainLabel: string
  session: NotesSession
  note: AuditNote | null
  memoryDir: string
  repoRoot: string | null
  actions: NoteActions
  shortcuts: 'letters' | 'none'
  /** The tab's side panel under the audit status. */
  children: ReactNode
}) {
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
