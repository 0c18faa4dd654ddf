/**
 * "Fit under the cutoff" (issue 15 item 8): the back end plans (fitPlan — the rules are in
 * src/core/memory/fit-plan.ts), this dialog shows what can free room, the person ticks, the
 * gauges and the one diff follow each tick, and Apply writes it all through applyPlan (hash
 * check, backup, atomic write, undo log). Nothing is written before Apply; Undo takes it back.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { EditOutcome } from '../../shared/model'
import type { FitChoices, FitPlan } from '../../shared/model-fit'
import { getApi } from '../api/api-client'
import { Dialog } from '../common/dialog'
import { formatNumber } from '../common/format'
import { TextDiff } from '../monaco/text-views'
import { FitCategoryBox, FitGauges, FitMoves } from './fit-choices'

const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p

/** A cheap identity of a text for a React key (length and a rolling hash). */
function diffKey(text: string | null): string {
  if (text === null) return 'none'
  let h = 0
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0
  return `${text.length}.${h >>> 0}`
}

type Phase =
  | { readonly kind: 'choosing' }
  | { readonly kind: 'applying' }
  | {
      readonly kind: 'applied'
      readonly outcomes: readonly EditOutcome[]
      readonly undone: boolean
    }
  | { readonly kind: 'failed'; readonly message: string; readonly conflict: boolean }

export function FitDialog({
  file,
  onClose,
  onApplied,
}: {
  file: string
  onClose: () => void
  onApplied: () => void
}) {
  const [choices, setChoices] = useState<FitChoices | null>(null)
  const [fit, setFit] = useState<FitPlan | null>(null)
  const [planning, setPlanning] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const [phase, setPhase] = useState<Phase>({ kind: 'choosing' })
  const [shown, setShown] = useState(0)
  const [again, setAgain] = useState(0)
  const request = useRef(0)

  useEffect(() => {
    const id = ++request.current
    setPlanning(true)
    getApi()
      .fitPlan(file, choices)
      .then(
        (p) => {
          if (id !== request.current) return
          setFit(p)
          setError(null)
          setPlanning(false)
        },
        (e: Error) => {
          if (id !== request.current) return
          setError(`Could not plan: ${e.message}`)
          setPlanning(false)
        },
      )
  }, [file, choices, again])

  const current = choices ?? fit?.choices ?? null
  const chosen = useMemo(() => new Set(current?.chosen ?? []), [current])
  const moving = useMemo(() => new Set(current?.move ?? []), [current])
  const toggle = useCallback(
    (ids: readonly string[], on: boolean) => {
      if (!current) return
      const next = new Set(current.chosen)
      for (const id of ids) {
        if (on) next.add(id)
        else next.delete(id)
      }
      setChoices({ chosen: [...next], move: current.move })
    },
    [current],
  )
  const toggleMove = useCallback(
    (line: number, on: boolean) => {
      if (!current) return
      const move = on ? [...current.move, line] : current.move.filter((l) => l !== line)
      setChoices({ chosen: current.chosen, move })
    },
    [current],
  )

  const apply = async () => {
    if (!fit || fit.plan.changes.length === 0) return
    setPhase({ kind: 'applying' })
    try {
      const out = await getApi().applyPlan(fit.plan.changes, fit.plan.title)
      if (out.failure === null) {
        setPhase({ kind: 'applied', outcomes: out.outcomes, undone: false })
        onApplied()
        return
      }
      const f = out.failure
      const conflict = f.kind === 'conflict'
      setPhase({
        kind: 'failed',
        conflict,
        message: conflict
          ? `${f.path} changed on disk since this plan was made, so nothing was written. Plan again on the file as it is now.`
          : `${f.path}: ${f.kind === 'error' ? f.reason : 'could not be written'}${out.kind === 'rolled-back' ? '; the files written before it were put back' : ''}`,
      })
    } catch (e) {
      setPhase({ kind: 'failed', conflict: false, message: (e as Error).message })
    }
  }
  const undo = async () => {
    if (phase.kind !== 'applied') return
    const api = getApi()
    const problems: string[] = []
    for (const o of [...phase.outcomes].reverse()) {
      const id = o.kind === 'written' || o.kind === 'deleted' ? o.operationId : null
      if (id === null) continue
      const r = await api.undo(id)
      if (r.kind === 'conflict' || r.kind === 'error') problems.push(r.path)
    }
    if (problems.length > 0) {
      setPhase({
        kind: 'failed',
        conflict: false,
        message: `Could not undo ${problems.map(baseName).join(', ')}: changed again since. Use the undo history.`,
      })
    } else setPhase({ ...phase, undone: true })
    onApplied()
  }

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && phase.kind === 'choosing' && !planning) {
        e.preventDefault()
        void apply()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  })

  const changes = fit?.plan.changes ?? []
  const change = changes[Math.min(shown, Math.max(0, changes.length - 1))]
  return (
    <Dialog
      title={`Fit ${baseName(file)} under the load cutoff`}
      onClose={onClose}
      testId="fit-dialog"
      size={phase.kind === 'applied' ? 'narrow' : 'wide'}
    >
      {error && (
        <p className="dialog-body danger" role="alert" data-testid="fit-error">
          {error}
        </p>
      )}
      {!fit && !error && <p className="dialog-body muted">Planning…</p>}
      {fit && phase.kind !== 'applied' && (
        <>
          <div className="dialog-body fit-top">
            <FitGauges before={fit.before} after={fit.after} />
          </div>
          <div className="fit-body">
            <div className="fit-choices" data-testid="fit-choices">
              {fit.categories.map((info) => (
                <FitCategoryBox
                  key={info.category}
                  category={info.category}
                  info={info}
                  items={fit.candidates.filter((c) => c.category === info.category)}
                  chosen={chosen}
                  onToggle={toggle}
                />
              ))}
              <FitMoves moves={fit.moves} chosen={moving} onToggle={toggleMove} />
            </div>
            <div className="fit-diff">
              <p className="plan-title" data-testid="fit-title">
                {fit.plan.title}
                {planning && <span className="muted"> (updating…)</span>}
              </p>
              {fit.plan.problems.map((p) => (
                <p key={p.reason} className="fit-note warn">
                  {p.reason}
                </p>
              ))}
              {changes.length > 1 && (
                <div className="file-switch" role="tablist" aria-label="Files this plan changes">
                  {changes.map((c, i) => (
                    <button
                      key={c.path}
                      role="tab"
                      aria-selected={c === change}
                      className={c === change ? 'tab active' : 'tab'}
                      onClick={() => setShown(i)}
                      title={c.path}
                    >
                      {baseName(c.path)}
                    </button>
                  ))}
                </div>
              )}
              {change ? (
                <div className="diff-host fit-diff-host" data-testid="fit-diff">
                  {/* A new diff editor for each plan: swapping both texts under one editor let
                      Monaco draw the old line mapping on the new models ("startLineNumber 241
                      cannot be after endLineNumberExclusive 141", seen once under load). */}
                  <TextDiff
                    key={`${change.path}:${diffKey(change.before)}:${diffKey(change.after)}`}
                    original={change.before ?? ''}
                    modified={change.after ?? ''}
                  />
                </div>
              ) : (
                <p className="muted" data-testid="fit-nothing">
                  Nothing ticked changes the file.
                </p>
              )}
            </div>
          </div>
          {phase.kind === 'failed' && (
            <p className="dialog-body danger" role="alert" data-testid="fit-failed">
              {phase.message}
            </p>
          )}
          <div className="dialog-actions">
            <span className="muted">
              Left in the diff: the file now. Right: after the plan. Nothing is written until you
              apply.
            </span>
            <button onClick={onClose} title="Cancel (Esc)">
              Cancel
            </button>
            {phase.kind === 'failed' && phase.conflict ? (
              <button
                className="primary"
                data-testid="fit-again"
                onClick={() => {
                  setPhase({ kind: 'choosing' })
                  setAgain((k) => k + 1)
                }}
              >
                Plan again
              </button>
            ) : (
              <button
                className="primary"
                data-testid="fit-apply"
                disabled={planning || phase.kind === 'applying' || changes.length === 0}
                onClick={() => void apply()}
                title="Apply every ticked change as one plan (Ctrl+Enter)"
              >
                {phase.kind === 'applying' ? 'Applying…' : 'Apply'}
              </button>
            )}
          </div>
        </>
      )}
      {fit && phase.kind === 'applied' && (
        <div className="dialog-body" role="status" data-testid="fit-applied">
          {phase.undone ? (
            <p>Undone: every file is back as it was before the plan.</p>
          ) : (
            <p>
              Applied “{fit.plan.title}”. Now {formatNumber(fit.after.entriesLoaded)} of{' '}
              {formatNumber(fit.after.entries)} entries load. A backup of each file was kept.
            </p>
          )}
          <div className="dialog-actions">
            {!phase.undone && (
              <button
                data-testid="fit-undo"
                onClick={() => void undo()}
                title="Put every file back as it was"
              >
                Undo
              </button>
            )}
            {/* Remounted after Undo (its button goes): focus stays in the dialog, so Esc still closes it. */}
            <button key={String(phase.undone)} className="primary" onClick={onClose} autoFocus>
              Close
            </button>
          </div>
        </div>
      )}
    </Dialog>
  )
}
