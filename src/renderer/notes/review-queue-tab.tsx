/**
 * The review queue for periodic cleanup: what needs a decision — stale notes first, then
 * suspect ones, wrong from the start, verifications that lapsed, and notes nothing can check
 * that were never verified — walked with the keyboard. Every other note is a filter away
 * (issue 15 item 9).
 */
import { useCallback, useEffect, useRef } from 'react'
import type { ProjectInfo } from '../../shared/model'
import {
  listKeys,
  moveSelection,
  nextUnreviewed,
  queueProgress,
  queueRows,
  type QueueReason,
} from './notes-state'
import { useDraftKeys } from './note-drafts'
import { focusInEditor, type NotesSession } from './notes-session'
import { NoteList } from './note-list'
import type { ActionKind } from './note-workbench'
import { NotesLayout, useNotesFrame } from './notes-layout'

const REASON_LABEL: Readonly<Record<QueueReason, string>> = {
  stale: 'stale',
  suspect: 'suspect',
  'never-matched': 'wrong from the start',
  expired: 'verification lapsed',
  unverified: 'never verified',
}

const SHORTCUTS: readonly [string, string][] = [
  ['j / ↓', 'next'],
  ['k / ↑', 'previous'],
  ['v', 'verify'],
  ['r', 'rewrite'],
  ['d', 'delete (asks first)'],
  ['u / Ctrl+Z', 'undo'],
  ['Esc', 'close the open panel'],
]

export function ReviewQueueTab({ project }: { project: ProjectInfo }) {
  if (!project.memoryDir)
    return (
      <p className="empty">This project has no memory folder, so there is nothing to review.</p>
    )
  return <QueueBody memoryDir={project.memoryDir} repoRoot={project.repoRoot} />
}

function QueueBody({ memoryDir, repoRoot }: { memoryDir: string; repoRoot: string | null }) {
  // After a verify the person moves on to the next note still to review.
  const onAfter = useCallback((kind: ActionKind, key: string | null, s: NotesSession) => {
    if (kind === 'verify') s.dispatch({ type: 'select', key: nextUnreviewed(s.state, key) ?? key })
  }, [])
  const frame = useNotesFrame(memoryDir, repoRoot, 'queue', onAfter)
  const { session, actions } = frame
  const { state, dispatch } = session
  const stateRef = useRef(state)
  stateRef.current = state
  const progress = queueProgress(state)
  const roots = [memoryDir, repoRoot]

  const move = useCallback(
    (delta: number) => {
      actions.closePanel()
      dispatch({
        type: 'select',
        key: moveSelection(
          listKeys(stateRef.current, 'queue'),
          stateRef.current.selectedKey,
          delta,
        ),
      })
    },
    [actions, dispatch],
  )

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || focusInEditor(e.target)) return
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z') {
        e.preventDefault()
        actions.undo()
        return
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return
      if (e.key === 'Escape') {
        if (actions.panel !== 'none') actions.closePanel()
        else if (session.audit.running) session.cancel()
        return
      }
      // Letters act on the note only while no panel is open (the panel has its own keys).
      if (actions.panel !== 'none') return
      const handled = (() => {
        switch (e.key) {
          case 'j':
          case 'ArrowDown':
            move(1)
            return true
          case 'k':
          case 'ArrowUp':
            move(-1)
            return true
          case 'v':
            actions.verify()
            return true
          case 'r':
            actions.openRewrite()
            return true
          case 'd':
            actions.openDelete()
            return true
          case 'u':
            actions.undo()
            return true
          default:
            return false
        }
      })()
      if (handled) e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [actions, move, session])

  const drafts = useDraftKeys(memoryDir)
  const fmt = new Intl.NumberFormat()
  const rows = queueRows(state).map((r) => ({
    key: r.key,
    note: r.note,
    review: state.reviews[r.key] ?? null,
    draft: drafts.has(r.key),
    done: r.done,
    // Stale and suspect speak through the verdict badge; the other reasons need a word.
    tag:
      r.reason === 'expired' || r.reason === 'unverified' ? (
        <span className={`queue-reason reason-${r.reason}`}>{REASON_LABEL[r.reason]}</span>
      ) : undefined,
  }))
  const pct = progress.total === 0 ? 100 : (progress.reviewed / progress.total) * 100

  return (
    <NotesLayout testId="queue-tab" mainLabel="Note to review" frame={frame} shortcuts="letters">
      <div className="queue-progress" data-testid="queue-progress" aria-label={progress.text}>
        <div>
          <strong>{progress.text}</strong>
        </div>
        <div className="gauge-bar">
          <div className="gauge-fill" style={{ width: `${pct}%` }} />
        </div>
      </div>
      <div className="queue-scope" role="radiogroup" aria-label="Notes in the queue">
        {(
          [
            ['decide', 'Needs a decision', progress.total],
            ['all', 'All notes', state.summary?.total ?? 0],
          ] as const
        ).map(([id, label, n]) => (
          <button
            key={id}
            role="radio"
            aria-checked={state.queueScope === id}
            className={`verdict-filter${state.queueScope === id ? ' active' : ''}`}
            onClick={() => dispatch({ type: 'queue-scope', scope: id })}
            data-testid={`queue-scope-${id}`}
          >
            {label} <span className="count">{fmt.format(n)}</span>
          </button>
        ))}
      </div>
      {state.audit && progress.total === 0 && (
        <p className="empty" data-testid="queue-empty">
          Nothing needs a decision: no note is stale, suspect or wrong from the start, and every
          verification holds.
        </p>
      )}
      {state.audit && progress.total > 0 && progress.reviewed === progress.total && (
        <p className="empty" data-testid="queue-done">
          All reviewed. Nothing left in the queue.
        </p>
      )}
      <NoteList
        rows={rows}
        selectedKey={state.selectedKey}
        onSelect={(key) => {
          if (key !== state.selectedKey) actions.closePanel()
          dispatch({ type: 'select', key })
        }}
        onMove={move}
        roots={roots}
        label="Review queue"
        testId="queue-list"
      />
      <dl className="shortcut-legend" data-testid="queue-shortcuts" aria-label="Keyboard shortcuts">
        {SHORTCUTS.map(([k, what]) => (
          <div key={k}>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </NotesLayout>
  )
}
