/**
 * A planned change (EditPlan, computed by the back end) shown before it is applied, and
 * applied by the back end in one request (applyPlan), each file with the hash it was planned on.
 */
import type { EditOutcome, EditPlan, PlanOutcome } from '../../shared/api'
import type { AuditNote } from '../../shared/model'
import { getApi } from '../api/api-client'
import { LabelledDiff } from './note-diffs'
import { shortPath } from './notes-state'
import { problemText } from '../common/wording'

export interface AppliedPlan {
  /** Undo-log ids of what was done, in order. */
  readonly operationIds: string[]
  /** One line per change for the person: what happened to which file. */
  readonly lines: string[]
  /** Set when a change was refused or failed; the changes made before it were undone. */
  readonly failure: string | null
}

/** What a note action panel (rewrite, delete) is given. */
export interface NoteActionProps {
  readonly note: AuditNote
  readonly memoryDir: string
  readonly repoRoot: string | null
  readonly onApplied: (result: AppliedPlan) => void
  readonly onCancel: () => void
}

/** Say what an outcome did, naming the file. */
export function describeOutcome(o: EditOutcome, roots: readonly (string | null)[]): string {
  const name = shortPath(o.path, roots)
  switch (o.kind) {
    case 'written':
      return `Wrote ${name} (a backup of the previous version was kept).`
    case 'deleted':
      return o.trashed
        ? `Moved ${name} to the trash; a backup was kept.${o.warning ? ` ${o.warning}` : ''}`
        : `Deleted ${name}; it could not go to the trash${o.warning ? ` (${o.warning})` : ''}, but a backup was kept.`
    case 'conflict':
      return `${name} changed on disk since it was read; nothing was written to it.`
    case 'error':
      return `${name}: ${o.reason}`
  }
}

/**
 * Apply a plan in one request: the back end orders the changes, checks every file before
 * writing any, and undoes what it made when a change fails midway.
 */
export async function applyPlan(
  plan: EditPlan,
  reason: string,
  roots: readonly (string | null)[],
): Promise<AppliedPlan> {
  let result: PlanOutcome
  try {
    result = await getApi().applyPlan(plan.changes, reason)
  } catch (e) {
    return { operationIds: [], lines: [], failure: (e as Error).message }
  }
  return appliedPlan(result, roots)
}

/** What a plan's outcome means for the person, and what Undo may undo. */
export function appliedPlan(result: PlanOutcome, roots: readonly (string | null)[]): AppliedPlan {
  const done = (o: EditOutcome): string[] =>
    (o.kind === 'written' || o.kind === 'deleted') && o.operationId ? [o.operationId] : []
  if (result.failure === null) {
    return {
      operationIds: result.outcomes.flatMap(done),
      lines: result.outcomes.map((o) => describeOutcome(o, roots)),
      failure: null,
    }
  }
  const failure = describeOutcome(result.failure, roots)
  if (result.kind === 'refused') return { operationIds: [], lines: [], failure }
  // The rollback runs newest first: rollback[i] undid outcomes[last - i].
  const stuck = result.rollback.flatMap((r, i) =>
    r.kind === 'conflict' || r.kind === 'error'
      ? [{ r, made: result.outcomes[result.outcomes.length - 1 - i] }]
      : [],
  )
  const undoneNote =
    stuck.length === 0
      ? ' The changes already made were undone; nothing was changed.'
      : ` Some changes already made could not be undone: ${stuck.map(({ r }) => describeOutcome(r, roots)).join(' ')}`
  return {
    operationIds: stuck.flatMap(({ made }) => (made ? done(made) : [])),
    lines: [],
    failure: failure + undoneNote,
  }
}

/** Each change of a plan: a diff for a rewrite, a line saying so for a deletion. */
export function PlanPreview({
  plan,
  roots,
}: {
  plan: EditPlan
  roots: readonly (string | null)[]
}) {
  return (
    <div className="plan-preview" data-testid="plan-preview">
      <div className="plan-title">{plan.title}</div>
      {plan.problems.length > 0 && (
        <ul className="problems" data-testid="plan-problems">
          {plan.problems.map((p) => (
            <li key={p.path + p.reason}>
              <code>{shortPath(p.path, roots)}</code>: {problemText(p.reason)}
            </li>
          ))}
        </ul>
      )}
      {[...plan.changes]
        .sort((a, b) => Number(b.after === null) - Number(a.after === null))
        .map((c) =>
          c.after === null ? (
            <div key={c.path} className="plan-delete" data-testid="plan-delete-file">
              <code>{shortPath(c.path, roots)}</code> will be moved to the trash (a backup is kept;
              Undo restores it).
            </div>
          ) : (
            <LabelledDiff
              key={c.path}
              testId="plan-diff"
              before={c.before ?? ''}
              after={c.after}
              beforeLabel={`${shortPath(c.path, roots)} (now)`}
              afterLabel={`${shortPath(c.path, roots)} (after)`}
              language="markdown"
            />
          ),
        )}
    </div>
  )
}
