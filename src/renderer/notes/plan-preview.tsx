/**
 * A planned change (EditPlan, computed by the back end) shown before it is applied, and
 * applied change by change through the safe write path, each with the hash it was planned on.
 */
import type { EditOutcome, EditPlan } from '../../shared/api'
import { getApi } from '../api/api-client'
import { LabelledDiff } from './note-diffs'
import { shortPath } from './notes-state'

export interface AppliedPlan {
  /** Undo-log ids of what was done, in order. */
  readonly operationIds: string[]
  /** One line per change for the person: what happened to which file. */
  readonly lines: string[]
  /** Set when a change was refused or failed; later changes were not attempted. */
  readonly failure: string | null
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

export async function applyPlan(
  plan: EditPlan,
  reason: string,
  roots: readonly (string | null)[],
): Promise<AppliedPlan> {
  const api = getApi()
  const operationIds: string[] = []
  const lines: string[] = []
  // Writes first, deletions last: an index never links a file that is already gone.
  const ordered = [...plan.changes].sort(
    (a, b) => Number(a.after === null) - Number(b.after === null),
  )
  for (const c of ordered) {
    let outcome: EditOutcome
    try {
      if (c.after === null) {
        if (c.expectedHash === null) {
          return {
            operationIds,
            lines,
            failure: `${shortPath(c.path, roots)}: nothing to delete (the file did not exist when planned)`,
          }
        }
        outcome = await api.deleteFile(c.path, c.expectedHash, reason)
      } else {
        outcome = await api.writeFile(c.path, c.expectedHash, c.after, reason)
      }
    } catch (e) {
      return {
        operationIds,
        lines,
        failure: `${shortPath(c.path, roots)}: ${(e as Error).message}`,
      }
    }
    if (outcome.kind === 'written' || outcome.kind === 'deleted') {
      if (outcome.operationId) operationIds.push(outcome.operationId)
      lines.push(describeOutcome(outcome, roots))
    } else {
      return { operationIds, lines, failure: describeOutcome(outcome, roots) }
    }
  }
  return { operationIds, lines, failure: null }
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
              <code>{shortPath(p.path, roots)}</code>: {p.reason}
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
