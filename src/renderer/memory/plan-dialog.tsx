/**
 * Preview and apply one planned change to a memory folder: the back end computes the
 * plan (planEdit — the rules live in core), this dialog shows each file's diff and has the
 * back end apply it in one request (applyPlan), each file with the hash the plan started
 * from. When a file changed meanwhile, nothing is written and both versions are shown.
 */
import { useCallback, useEffect, useState } from 'react'
import type { PlanOutcome } from '../../shared/api-contract'
import type { EditOutcome, EditPlan, EditPlanRequest, PlannedChange } from '../../shared/model'
import { getApi } from '../api/api-client'
import { Dialog } from '../common/dialog'
import { problemText } from '../common/wording'
import { TextDiff } from '../monaco/text-views'

const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p

/** A file name for a new topic file, from an entry's title: lower-case words joined by dashes. */
export function suggestTopicName(title: string): string {
  const slug = title
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .slice(0, 6)
    .join('-')
  return `${slug || 'note'}.md`
}

type Phase =
  | { readonly kind: 'naming' }
  | { readonly kind: 'planning' }
  | { readonly kind: 'preview'; readonly plan: EditPlan }
  | { readonly kind: 'applying'; readonly plan: EditPlan }
  | {
      readonly kind: 'conflict'
      readonly plan: EditPlan
      readonly change: PlannedChange
      readonly currentText: string | null
      readonly written: readonly string[]
    }
  | { readonly kind: 'failed'; readonly message: string; readonly written: readonly string[] }

export type PlanAction =
  | { readonly kind: 'move'; readonly file: string; readonly line: number; readonly title: string }
  | {
      readonly kind: 'extract'
      readonly file: string
      readonly line: number
      readonly title: string
    }

function requestFor(action: PlanAction, topicName: string): EditPlanRequest {
  return action.kind === 'move'
    ? { kind: 'move-entry-above-cutoff', file: action.file, line: action.line }
    : { kind: 'extract-to-topic', file: action.file, line: action.line, topicName }
}

export function PlanDialog({
  action,
  onClose,
  onApplied,
  onFit,
}: {
  action: PlanAction
  onClose: () => void
  onApplied: (outcomes: EditOutcome[]) => void
  /** Offer "Fit under the cutoff" instead when a move would push entries out (issue 15 item 8). */
  onFit?: () => void
}) {
  const [phase, setPhase] = useState<Phase>(
    action.kind === 'extract' ? { kind: 'naming' } : { kind: 'planning' },
  )
  const [topicName, setTopicName] = useState(() => suggestTopicName(action.title))
  const [shown, setShown] = useState(0)
  /** The person accepted that the entries the move pushes out stop loading. */
  const [accepted, setAccepted] = useState(false)

  const plan = useCallback(async () => {
    setPhase({ kind: 'planning' })
    try {
      const p = await getApi().planEdit(requestFor(action, topicName.trim()))
      setShown(0)
      setPhase({ kind: 'preview', plan: p })
    } catch (err) {
      setPhase({
        kind: 'failed',
        message: `Could not plan the change to ${action.file}: ${(err as Error).message}`,
        written: [],
      })
    }
  }, [action, topicName])

  useEffect(() => {
    if (action.kind === 'move') void plan()
    // Planned once on open; a topic name is asked for first.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  const apply = async (p: EditPlan) => {
    setPhase({ kind: 'applying', plan: p })
    let result: PlanOutcome
    try {
      result = await getApi().applyPlan(p.changes, p.title)
    } catch (err) {
      setPhase({ kind: 'failed', message: (err as Error).message, written: [] })
      return
    }
    const { failure } = result
    if (failure === null) {
      onApplied([...result.outcomes])
      return
    }
    // Still changed on disk: what was made and could not be undone (rollback runs newest first).
    const written = result.rollback.flatMap((r, i) =>
      r.kind === 'conflict' || r.kind === 'error'
        ? [result.outcomes[result.outcomes.length - 1 - i]?.path ?? r.path]
        : [],
    )
    const change = p.changes.find((c) => c.path === failure.path)
    if (failure.kind === 'conflict' && change) {
      setPhase({ kind: 'conflict', plan: p, change, currentText: failure.currentText, written })
      return
    }
    const reason =
      failure.kind === 'error' ? failure.reason : 'it changed on disk since the preview'
    setPhase({ kind: 'failed', message: `${failure.path}: ${reason}`, written })
  }

  const fallingEntries = (p: EditPlan) => (p.falls ?? []).filter((f) => f.entry)
  const blockedByFalls = (p: EditPlan) => fallingEntries(p).length > 0 && !accepted
  useEffect(() => {
    if (phase.kind !== 'preview' || phase.plan.changes.length === 0 || blockedByFalls(phase.plan))
      return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault()
        void apply(phase.plan)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  })

  const title =
    action.kind === 'move'
      ? `Move “${action.title}” above the cutoff`
      : `Move the detail of “${action.title}” to a topic file`
  const writtenNote = (written: readonly string[]) =>
    written.length > 0 && (
      <p className="note" data-testid="plan-partial">
        Already written: {written.map(baseName).join(', ')}. Undo it from the history (Ctrl+Shift+Z)
        if you no longer want it.
      </p>
    )

  return (
    <Dialog title={title} onClose={onClose} testId="plan-dialog">
      {phase.kind === 'naming' && (
        <form
          className="dialog-body form-row"
          onSubmit={(e) => {
            e.preventDefault()
            if (topicName.trim()) void plan()
          }}
        >
          <label>
            Topic file name{' '}
            <input
              data-autofocus
              value={topicName}
              onChange={(e) => setTopicName(e.target.value)}
              data-testid="topic-name"
              size={40}
            />
          </label>
          <button
            className="primary"
            type="submit"
            disabled={!topicName.trim()}
            title="Preview the change (Enter)"
          >
            Preview
          </button>
        </form>
      )}
      {phase.kind === 'planning' && <p className="dialog-body muted">Planning the change…</p>}
      {(phase.kind === 'preview' || phase.kind === 'applying') && (
        <>
          <div className="dialog-body">
            <p className="plan-title">{phase.plan.title}</p>
            {phase.plan.problems.length > 0 && (
              <ul className="problem-list" role="alert" data-testid="plan-problems">
                {phase.plan.problems.map((pr) => (
                  <li key={pr.path + pr.reason}>
                    <code>{pr.path}</code>: {problemText(pr.reason)}
                  </li>
                ))}
              </ul>
            )}
            {(phase.plan.falls ?? []).length > 0 && (
              <div className="plan-falls" role="alert" data-testid="plan-falls">
                <p>
                  {fallingEntries(phase.plan).length > 0
                    ? 'This pushes lines that load now below the cutoff; they stop loading at session start:'
                    : 'This pushes lines below the cutoff (no entry among them):'}
                </p>
                <ul>
                  {(phase.plan.falls ?? []).slice(0, 10).map((f) => (
                    <li key={f.line}>
                      line {f.line}: <code>{f.text.trim() === '' ? '(blank line)' : f.text}</code>
                    </li>
                  ))}
                  {(phase.plan.falls ?? []).length > 10 && (
                    <li>and {(phase.plan.falls ?? []).length - 10} more</li>
                  )}
                </ul>
                {fallingEntries(phase.plan).length > 0 && (
                  <div className="plan-falls-actions">
                    <label>
                      <input
                        type="checkbox"
                        checked={accepted}
                        onChange={(e) => setAccepted(e.target.checked)}
                        data-testid="plan-accept-falls"
                      />{' '}
                      Move it anyway:{' '}
                      {fallingEntries(phase.plan).length === 1
                        ? 'that entry stops'
                        : 'those entries stop'}{' '}
                      loading
                    </label>
                    {onFit && (
                      <button
                        className="small-button"
                        onClick={onFit}
                        data-testid="plan-fit-instead"
                      >
                        Fit under the cutoff instead (free room first)
                      </button>
                    )}
                  </div>
                )}
              </div>
            )}
            {phase.plan.changes.length > 1 && (
              <div className="file-switch" role="tablist" aria-label="Files this change touches">
                {phase.plan.changes.map((c, i) => (
                  <button
                    key={c.path}
                    role="tab"
                    aria-selected={i === shown}
                    className={i === shown ? 'tab active' : 'tab'}
                    onClick={() => setShown(i)}
                    title={c.path}
                  >
                    {baseName(c.path)}
                    <span className="tab-meta">
                      {c.before === null ? 'new file' : c.after === null ? 'deleted' : 'changed'}
                    </span>
                  </button>
                ))}
              </div>
            )}
          </div>
          {phase.plan.changes[shown] && (
            <div className="diff-host" data-testid="plan-diff">
              <TextDiff
                original={phase.plan.changes[shown].before ?? ''}
                modified={phase.plan.changes[shown].after ?? ''}
              />
            </div>
          )}
          <div className="dialog-actions">
            <span className="muted">
              Left: the file now. Right: after the change. Nothing is written until you apply.
            </span>
            <button onClick={onClose} title="Cancel (Esc)">
              Cancel
            </button>
            <button
              className="primary"
              data-testid="plan-apply"
              disabled={
                phase.kind === 'applying' ||
                phase.plan.changes.length === 0 ||
                blockedByFalls(phase.plan)
              }
              onClick={() => void apply(phase.plan)}
              title="Apply the change (Ctrl+Enter)"
            >
              {phase.kind === 'applying' ? 'Applying…' : 'Apply'}
            </button>
          </div>
        </>
      )}
      {phase.kind === 'conflict' && (
        <>
          <div className="dialog-body" role="alert" data-testid="plan-conflict">
            <p>
              <strong>{phase.change.path}</strong> changed on disk since the preview, so nothing was
              written to it.
              {phase.currentText === null ? ' It no longer exists.' : ''} Left: the file as it is
              now. Right: the version you previewed.
            </p>
            {writtenNote(phase.written)}
          </div>
          <div className="diff-host">
            <TextDiff original={phase.currentText ?? ''} modified={phase.change.after ?? ''} />
          </div>
          <div className="dialog-actions">
            <button
              onClick={() => void navigator.clipboard?.writeText(phase.change.after ?? '')}
              title="Copy the version you previewed to the clipboard"
            >
              Copy previewed version
            </button>
            <button onClick={onClose} title="Keep the file as it is on disk (Esc)">
              Keep the disk version
            </button>
            <button
              className="primary"
              onClick={() => void plan()}
              data-testid="plan-again"
              title="Plan the same change on the file as it is now"
            >
              Plan again on the current file
            </button>
          </div>
        </>
      )}
      {phase.kind === 'failed' && (
        <div className="dialog-body" role="alert" data-testid="plan-failed">
          <p className="danger">{phase.message}</p>
          {writtenNote(phase.written)}
          <div className="dialog-actions">
            <button onClick={onClose}>Close</button>
          </div>
        </div>
      )}
    </Dialog>
  )
}
