/**
 * Applying an edit plan in the back end, as one request: the changes in the order of
 * `planSteps` (src/core/memory/edit-plan.ts), every file's hash checked before any is
 * written, and when a change fails midway, the changes already made undone from their
 * backups through the same safe paths (compare-and-swap, a backup first, logged as undos).
 *
 * Decisions: a file's read-only bit is not checked up front (the write itself refuses it,
 * and the rollback then runs). A creation is rolled back by removing the file outright,
 * not to the trash: it existed only for a moment, and its bytes are in our backup.
 */
import { resolve } from 'node:path'
import { planSteps } from '../../core/memory/edit-plan'
import type { PlanChange, PlanOutcome } from '../../shared/api-contract'
import type { EditOutcome } from '../../shared/model'
import { toEditOutcome } from './edit-results'
import { conflictNow, readCurrent } from './read-current'
import { safeDeleteFile, type TrashFn } from './safe-delete'
import { safeWriteFile } from './safe-write'
import { undoOutcome } from './undo'

export interface ApplyPlanDeps {
  readonly backupsDir: string
  /** Where deleted files go; null when there is none (a plan that deletes is then refused). */
  readonly trash: TrashFn | null
  /** Why a deletion is refused without a trash, for `path`. */
  readonly noTrash: (path: string) => string
}

const refused = (failure: EditOutcome): PlanOutcome => ({
  kind: 'refused',
  outcomes: [],
  failure,
  rollback: [],
})

/**
 * Why the plan cannot be applied at all, as the outcome naming the first file concerned; null
 * when every file is still as planned (a file to create still absent).
 */
async function checkAll(
  deps: ApplyPlanDeps,
  steps: ReturnType<typeof planSteps<PlanChange>>,
): Promise<EditOutcome | null> {
  const seen = new Set<string>()
  for (const { kind, change } of steps) {
    const path = resolve(change.path)
    if (seen.has(path))
      return { kind: 'error', path, reason: `the plan changes ${path} more than once` }
    seen.add(path)
    if (kind === 'delete' && deps.trash === null)
      return { kind: 'error', path, reason: deps.noTrash(path) }
    const now = await readCurrent(path)
    if (now.kind === 'problem')
      return { kind: 'error', path, reason: `cannot apply the plan to ${path}: ${now.reason}` }
    const hash = now.kind === 'ok' ? now.hash : null
    if (hash !== change.expectedHash) return toEditOutcome(path, await conflictNow(path))
  }
  return null
}

/** One change, through the safe write or delete path. */
function applyStep(deps: ApplyPlanDeps, change: PlanChange, reason: string): Promise<EditOutcome> {
  const { backupsDir } = deps
  if (change.after !== null) {
    const { path, expectedHash, after: newText } = change
    return safeWriteFile({ path, expectedHash, newText, backupsDir, reason })
  }
  if (change.expectedHash === null || deps.trash === null)
    throw new Error('internal: unchecked deletion')
  return safeDeleteFile({
    path: change.path,
    expectedHash: change.expectedHash,
    backupsDir,
    trash: deps.trash,
    reason,
  })
}

/** Undo `done` (newest first) after `failure`: each undo is logged with why it was made. */
async function rollBack(
  deps: ApplyPlanDeps,
  done: readonly EditOutcome[],
  failure: EditOutcome,
  reason: string,
): Promise<EditOutcome[]> {
  const why = `roll back "${reason}": ${failure.path} could not be changed`
  const out: EditOutcome[] = []
  for (const o of [...done].reverse()) {
    const id = o.kind === 'written' || o.kind === 'deleted' ? o.operationId : null
    if (id === null) {
      out.push({ kind: 'error', path: o.path, reason: `cannot roll back ${o.path}: not logged` })
      continue
    }
    out.push(await undoOutcome(deps.backupsDir, id, { trash: null, reason: `${why} (${id})` }))
  }
  return out
}

/**
 * Apply `changes` (a plan's) with `reason`: all of them, or none when a file changed since
 * the plan, or those made before a failure undone again.
 */
export async function applyPlan(
  deps: ApplyPlanDeps,
  changes: readonly PlanChange[],
  reason: string,
): Promise<PlanOutcome> {
  const steps = planSteps(changes)
  const stale = await checkAll(deps, steps)
  if (stale !== null) return refused(stale)
  const outcomes: EditOutcome[] = []
  for (const { change } of steps) {
    const o = await applyStep(deps, change, reason)
    if (o.kind === 'conflict' || o.kind === 'error') {
      if (outcomes.length === 0) return refused(o)
      const rollback = await rollBack(deps, outcomes, o, reason)
      const clean = rollback.every((r) => r.kind === 'written' || r.kind === 'deleted')
      return { kind: clean ? 'rolled-back' : 'partial', outcomes, failure: o, rollback }
    }
    outcomes.push(o)
  }
  return { kind: 'applied', outcomes, failure: null, rollback: [] }
}
