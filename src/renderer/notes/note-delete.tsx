/** Delete a note: preview the plan (entry line, optionally its topic file), then apply it safely. */
import { useEffect, useRef, useState } from 'react'
import type { EditPlan } from '../../shared/api'
import { getApi } from '../api/api-client'
import { applyPlan, PlanPreview, type NoteActionProps } from './plan-preview'
import { shortPath } from './notes-state'
import { ErrorBar } from '../common/error-bar'

export function NoteDelete({ note, memoryDir, repoRoot, onApplied, onCancel }: NoteActionProps) {
  const [deleteTopic, setDeleteTopic] = useState(true)
  const [plan, setPlan] = useState<EditPlan | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const confirmRef = useRef<HTMLButtonElement>(null)
  const roots = [memoryDir, repoRoot]

  useEffect(() => {
    let live = true
    setPlan(null)
    setError(null)
    getApi()
      .planEdit({ kind: 'delete-entry', file: note.file, line: note.line, deleteTopic })
      .then(
        (p) => live && setPlan(p),
        (e: Error) =>
          live &&
          setError(
            `Cannot plan deleting ${shortPath(note.file, roots)}:${note.line}: ${e.message}`,
          ),
      )
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [note.file, note.line, deleteTopic])

  useEffect(() => {
    if (plan && plan.changes.length > 0) confirmRef.current?.focus()
  }, [plan])

  const apply = async () => {
    if (!plan || busy) return
    setBusy(true)
    const result = await applyPlan(plan, `delete note "${note.title}"`, roots)
    setBusy(false)
    onApplied(result)
  }

  return (
    <div
      className="note-panel"
      data-testid="delete-panel"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation()
          onCancel()
        }
      }}
    >
      <div className="note-panel-head">
        <strong>Delete “{note.title}”?</strong>
        <label className="check">
          <input
            type="checkbox"
            checked={deleteTopic}
            onChange={(e) => setDeleteTopic(e.target.checked)}
            data-testid="delete-topic"
          />{' '}
          also delete the topic file
        </label>
        <span className="spacer" />
        <button
          ref={confirmRef}
          className="danger-button"
          disabled={!plan || plan.changes.length === 0 || busy}
          onClick={() => void apply()}
          data-testid="confirm-delete"
          title="Delete (Enter)"
        >
          {busy ? 'Deleting…' : 'Delete'}
        </button>
        <button onClick={onCancel} title="Cancel (Esc)" data-testid="cancel-delete">
          Cancel
        </button>
      </div>
      <ErrorBar message={error} />
      {!plan && !error && <p className="empty">Planning…</p>}
      {plan && <PlanPreview plan={plan} roots={roots} />}
    </div>
  )
}
