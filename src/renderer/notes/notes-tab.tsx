/**
 * Notes: every note of the project audited against its repository (docs/cli.md §7 `audit`),
 * filterable by verdict, each shown beside a diff of the code it rests on.
 */
import { useEffect } from 'react'
import type { ProjectInfo } from '../../shared/model'
import {
  listKeys,
  moveSelection,
  STANDING_ORDER,
  standingCounts,
  VERDICT_LABEL,
  visibleNotes,
  type VerdictFilter,
} from './notes-state'
import { focusInEditor } from './notes-session'
import { NoteList } from './note-list'
import { NotesLayout, useNotesFrame } from './notes-layout'
import { prewarmNoteDiffs } from './note-diffs'
import { useDraftKeys } from './note-drafts'
import { ProblemList } from '../common/problem-list'

export function NotesTab({ project }: { project: ProjectInfo }) {
  // The first click on a note should not wait for Monaco's worker or a language to load.
  useEffect(prewarmNoteDiffs, [])
  if (!project.memoryDir)
    return <p className="empty">This project has no memory folder, so it has no notes to audit.</p>
  return <NotesBody memoryDir={project.memoryDir} repoRoot={project.repoRoot} />
}

function NotesBody({ memoryDir, repoRoot }: { memoryDir: string; repoRoot: string | null }) {
  const frame = useNotesFrame(memoryDir, repoRoot, 'notes')
  const { session, actions } = frame
  const { state, dispatch } = session
  // The back end's one summary: the sidebar and the queue show the same numbers.
  const counts = standingCounts(state)
  const total = state.summary?.total ?? 0
  const fmt = new Intl.NumberFormat()
  const drafts = useDraftKeys(memoryDir)
  const roots = [memoryDir, repoRoot]

  const select = (key: string | null) => {
    // Another note: its own panel (a kept draft reopens by itself, note-workbench.tsx).
    if (key !== state.selectedKey) actions.closePanel()
    dispatch({ type: 'select', key })
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        (e.ctrlKey || e.metaKey) &&
        !e.shiftKey &&
        e.key.toLowerCase() === 'z' &&
        !focusInEditor(e.target)
      ) {
        e.preventDefault()
        actions.undo()
      } else if (e.key === 'Escape' && session.audit.running) {
        session.cancel()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [actions, session])

  const filters: { id: VerdictFilter; label: string; count: number }[] = [
    { id: 'all', label: 'All', count: total },
    ...STANDING_ORDER.map((v) => ({ id: v, label: VERDICT_LABEL[v], count: counts[v] })),
  ]
  const rows = visibleNotes(state).map(({ key, note: n }) => ({
    key,
    note: n,
    review: state.reviews[key] ?? null,
    draft: drafts.has(key),
  }))

  return (
    <NotesLayout testId="notes-tab" mainLabel="Selected note" frame={frame} shortcuts="none">
      <div className="verdict-filters" role="radiogroup" aria-label="Show notes by verdict">
        {filters.map((f) => (
          <button
            key={f.id}
            role="radio"
            aria-checked={state.filter === f.id}
            className={`verdict-filter filter-${f.id}${state.filter === f.id ? ' active' : ''}`}
            onClick={() => dispatch({ type: 'filter', filter: f.id })}
            data-testid={`filter-${f.id}`}
          >
            {f.label} <span className="count">{fmt.format(f.count)}</span>
          </button>
        ))}
      </div>
      {/* What the audit could not read or finish (a search cut off by its time limit). */}
      <ProblemList problems={state.audit?.problems ?? []} testId="audit-problems" />
      {state.audit && rows.length === 0 && (
        <p className="empty">
          No {state.filter === 'all' ? '' : `${VERDICT_LABEL[state.filter]} `}notes.
        </p>
      )}
      <NoteList
        rows={rows}
        selectedKey={state.selectedKey}
        onSelect={select}
        onMove={(d) => select(moveSelection(listKeys(state, 'notes'), state.selectedKey, d))}
        roots={roots}
        label="Notes"
        testId="notes-list"
      />
    </NotesLayout>
  )
}
