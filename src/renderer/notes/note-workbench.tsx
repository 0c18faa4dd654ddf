/**
 * Actions on the selected note — Verify, Rewrite, Delete, Undo — and the view that shows
 * the note beside its code (detail above, per-reference diff below, or the open action).
 * After every change the audit runs again.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { AuditNote } from '../../shared/model'
import type { NoteReview } from '../../shared/api'
import { getApi } from '../api/api-client'
import { formatDateTime } from '../common/format'
import { NoteDetail } from './note-detail'
import { NoteDiffs } from './note-diffs'
import { NoteOrigin } from './note-origin'
import { NoteDelete } from './note-delete'
import { NoteRewrite } from './note-rewrite'
import { NoteText } from './note-text'
import { loadDraft } from './note-drafts'
import { describeOutcome, type AppliedPlan } from './plan-preview'
import type { NotesSession } from './notes-session'
import { shortPath } from './notes-state'
import './note-workbench.css'

export type ActionKind = 'verify' | 'rewrite' | 'delete' | 'undo'
type Panel = 'none' | 'rewrite' | 'delete'

export interface ActionMessage {
  readonly kind: 'ok' | 'error'
  readonly text: string
}

export interface NoteActions {
  readonly panel: Panel
  /** The Rewrite panel was opened on a kept draft (not by the person): it does not take focus. */
  readonly restored: boolean
  readonly message: ActionMessage | null
  readonly busy: boolean
  verify(): void
  openRewrite(): void
  openDelete(): void
  closePanel(): void
  undo(): void
  applied(result: AppliedPlan, kind: 'rewrite' | 'delete'): void
}

/** The buttons that act on the selected note, with the letter the review queue binds to each. */
const NOTE_BUTTONS: readonly {
  id: 'verify' | 'rewrite' | 'delete'
  label: string
  what: string
  letter: string
  run: (a: NoteActions) => void
}[] = [
  {
    id: 'verify',
    label: 'Verify',
    what: 'Verify: the note is right as it stands',
    letter: 'v',
    run: (a) => a.verify(),
  },
  {
    id: 'rewrite',
    label: 'Rewrite',
    what: 'Rewrite the note',
    letter: 'r',
    run: (a) => a.openRewrite(),
  },
  {
    id: 'delete',
    label: 'Delete',
    what: 'Delete the note',
    letter: 'd',
    run: (a) => a.openDelete(),
  },
]

/** One action's undo-log entries (a delete may be two: the index line and the topic file). */
interface UndoGroup {
  readonly ids: readonly string[]
  readonly key: string | null
  readonly label: string
}

export function useNoteActions({
  session,
  memoryDir,
  repoRoot,
  note,
  noteKey,
  onAfter,
}: {
  session: NotesSession
  memoryDir: string
  repoRoot: string | null
  note: AuditNote | null
  noteKey: string | null
  onAfter?: (kind: ActionKind, key: string | null) => void
}): NoteActions {
  const [panel, setPanel] = useState<Panel>('none')
  const [restored, setRestored] = useState(false)
  // A note with an unsaved rewrite opens on it (issue 15 item 1: nothing is lost by moving away).
  useEffect(() => {
    const draft = noteKey !== null && loadDraft(memoryDir, noteKey) !== null
    setPanel(draft ? 'rewrite' : 'none')
    setRestored(draft)
  }, [memoryDir, noteKey])
  const [message, setMessage] = useState<ActionMessage | null>(null)
  const [busy, setBusy] = useState(false)
  const undoStack = useRef<UndoGroup[]>([])
  const roots = [memoryDir, repoRoot]

  const verify = useCallback(() => {
    if (!note || busy) return
    setBusy(true)
    getApi()
      .verifyNote(memoryDir, repoRoot, note.file, note.line)
      .then(
        (stamp) => {
          setMessage({
            kind: 'ok',
            text: `Verified “${note.title}” on ${formatDateTime(stamp.at, stamp.at)}: it counts as right until the note or the code it rests on changes.`,
          })
          session.refresh()
          onAfter?.('verify', noteKey)
        },
        (e: Error) =>
          setMessage({
            kind: 'error',
            text: `Cannot verify ${shortPath(note.file, roots)}:${note.line}: ${e.message}`,
          }),
      )
      .finally(() => setBusy(false))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [note, noteKey, busy, memoryDir, repoRoot, session, onAfter])

  const applied = useCallback(
    (result: AppliedPlan, kind: 'rewrite' | 'delete') => {
      if (result.operationIds.length > 0) {
        undoStack.current.push({ ids: result.operationIds, key: noteKey, label: kind })
      }
      const text = [...result.lines, ...(result.failure ? [result.failure] : [])].join(' ')
      if (result.failure) {
        setMessage({ kind: 'error', text })
      } else {
        setMessage({ kind: 'ok', text: `${text} Undo: u or Ctrl+Z.` })
        setPanel('none')
        if (kind === 'rewrite' && noteKey) session.dispatch({ type: 'rewritten', key: noteKey })
      }
      if (result.operationIds.length > 0) {
        session.refresh()
        onAfter?.(kind, noteKey)
      }
    },
    [noteKey, session, onAfter],
  )

  const undo = useCallback(() => {
    if (busy) return
    setBusy(true)
    const api = getApi()
    const group = undoStack.current.pop() ?? null
    const run = async () => {
      const lines: string[] = []
      if (!group) {
        const o = await api.undo(null)
        return { ok: o.kind === 'written' || o.kind === 'deleted', lines: [undoLine(o)] }
      }
      // Newest first, so a topic file comes back before its index line does.
      for (const id of [...group.ids].reverse()) {
        const o = await api.undo(id)
        lines.push(undoLine(o))
        if (o.kind === 'conflict' || o.kind === 'error') return { ok: false, lines }
      }
      if (group.key) session.dispatch({ type: 'unrewritten', key: group.key })
      return { ok: true, lines }
    }
    const undoLine = (o: Awaited<ReturnType<typeof api.undo>>): string =>
      o.kind === 'written'
        ? `Restored ${shortPath(o.path, roots)}.`
        : o.kind === 'deleted'
          ? `Removed ${shortPath(o.path, roots)} again.`
          : describeOutcome(o, roots)
    run()
      .then(
        (r) => {
          setMessage({ kind: r.ok ? 'ok' : 'error', text: `Undo: ${r.lines.join(' ')}` })
          session.refresh()
          onAfter?.('undo', group?.key ?? null)
        },
        (e: Error) => setMessage({ kind: 'error', text: `Undo failed: ${e.message}` }),
      )
      .finally(() => setBusy(false))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [busy, session, onAfter, memoryDir, repoRoot])

  return {
    panel,
    restored,
    message,
    busy,
    verify,
    openRewrite: () => {
      if (!note) return
      setRestored(false)
      setPanel('rewrite')
    },
    openDelete: () => note && setPanel('delete'),
    closePanel: () => setPanel('none'),
    undo,
    applied,
  }
}

export function NoteActionBar({
  actions,
  note,
  shortcuts,
}: {
  actions: NoteActions
  note: AuditNote | null
  shortcuts: 'letters' | 'none'
}) {
  const hint = (letter: string) => (shortcuts === 'letters' ? ` (${letter})` : '')
  return (
    <div className="note-actions" role="toolbar" aria-label="Actions on the note">
      {NOTE_BUTTONS.map((b) => (
        <button
          key={b.id}
          disabled={!note || (b.id === 'verify' && actions.busy)}
          onClick={() => b.run(actions)}
          data-testid={`action-${b.id}`}
          title={`${b.what}${hint(b.letter)}`}
          className={b.id === 'delete' ? 'danger-text' : undefined}
        >
          {b.label}
        </button>
      ))}
      <button
        disabled={actions.busy}
        onClick={actions.undo}
        data-testid="action-undo"
        title={`Undo the last change${shortcuts === 'letters' ? ' (u or Ctrl+Z)' : ' (Ctrl+Z)'}`}
      >
        Undo
      </button>
      {actions.message && (
        <span
          className={`action-message ${actions.message.kind}`}
          role={actions.message.kind === 'error' ? 'alert' : 'status'}
          data-testid="action-message"
        >
          {actions.message.text}
        </span>
      )}
    </div>
  )
}

/**
 * The selected note beside its code: its verdict and references above; below, the note's own
 * text (or the open Rewrite / Delete panel in its place) beside the diff, which stays visible
 * while rewriting (issue 15 item 10).
 */
export function NoteWorkbench({
  note,
  noteKey,
  review,
  memoryDir,
  repoRoot,
  actions,
  shortcuts,
}: {
  note: AuditNote | null
  noteKey: string | null
  review: NoteReview | null
  memoryDir: string
  repoRoot: string | null
  actions: NoteActions
  shortcuts: 'letters' | 'none'
}) {
  return (
    <div className="note-workbench">
      <NoteActionBar actions={actions} note={note} shortcuts={shortcuts} />
      {!note ? (
        <p className="empty">Select a note to see it beside its code.</p>
      ) : (
        <>
          <div className="note-detail-scroll">
            <NoteDetail note={note} review={review} memoryDir={memoryDir} repoRoot={repoRoot} />
            <NoteOrigin note={note} memoryDir={memoryDir} />
          </div>
          <div className="note-lower split">
            <div className="note-side-pane">
              {actions.panel === 'none' ? (
                <NoteText note={note} roots={[memoryDir, repoRoot]} />
              ) : (
                <OpenPanel
                  key={`${actions.panel}:${note.file}:${note.line}`}
                  kind={actions.panel}
                  note={note}
                  noteKey={noteKey}
                  restored={actions.restored}
                  memoryDir={memoryDir}
                  repoRoot={repoRoot}
                  onApplied={(r, kind) => actions.applied(r, kind)}
                  onCancel={actions.closePanel}
                />
              )}
            </div>
            <div className="note-diff-pane">
              <NoteDiffs note={note} memoryDir={memoryDir} repoRoot={repoRoot} />
            </div>
          </div>
        </>
      )}
    </div>
  )
}

/** The Rewrite or Delete panel, in place of the note's text while it is open. */
function OpenPanel({
  kind,
  onApplied,
  noteKey,
  restored,
  ...props
}: {
  kind: 'rewrite' | 'delete'
  noteKey: string | null
  restored: boolean
  note: AuditNote
  memoryDir: string
  repoRoot: string | null
  onApplied: (result: AppliedPlan, kind: 'rewrite' | 'delete') => void
  onCancel: () => void
}) {
  return kind === 'rewrite' ? (
    <NoteRewrite
      {...props}
      noteKey={noteKey}
      takeFocus={!restored}
      onApplied={(r) => onApplied(r, kind)}
    />
  ) : (
    <NoteDelete {...props} onApplied={(r) => onApplied(r, kind)} />
  )
}
