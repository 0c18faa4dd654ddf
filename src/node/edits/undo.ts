/**
 * Undoing a logged operation: put the backed-up bytes back (a write or delete), or remove a
 * file the operation created. Every undo goes through the same safe paths as an edit
 * (compare-and-swap against the operation's result, a backup first) and is itself logged,
 * with `undoes` naming the operation it reversed.
 */
import type { EditOutcome } from '../../shared/model'
import { readBackup } from './backups'
import { outcomeOf, type UndoResult } from './edit-results'
import { pickLastUndoable, readOperations, undoneIds } from './operation-log'
import { safeDelete, type TrashFn } from './safe-delete'
import { safeWriteBytes } from './safe-write'

export type { UndoResult } from './edit-results'

export interface UndoOptions {
  /** How to remove a file when undoing its creation; null removes it (our backup keeps the bytes). */
  readonly trash?: TrashFn | null
  /** Why, for the backup list and undo log; `undo <id>` when not given. */
  readonly reason?: string
}

/**
 * Reverse operation `opId`. Compare-and-swap against the operation's result, so a file
 * changed since is reported as a conflict and left alone. The undo is itself logged.
 */
export async function undo(
  dir: string,
  opId: string,
  options: UndoOptions = {},
): Promise<UndoResult> {
  const { operations } = await readOperations(dir)
  const op = operations.find((o) => o.id === opId)
  if (op === undefined)
    return { kind: 'error', reason: `no operation ${opId} in the undo log of ${dir}` }
  if (undoneIds(operations).has(opId)) {
    return { kind: 'error', reason: `operation ${opId} on ${op.path} was already undone` }
  }
  const reason = options.reason ?? `undo ${op.id}`
  if (op.beforeHash === null) {
    // The operation created the file: undoing it removes the file (after a backup).
    if (op.afterHash === null) return { kind: 'error', reason: `operation ${opId} changed nothing` }
    const res = await safeDelete({
      path: op.path,
      expectedHash: op.afterHash,
      backupsDir: dir,
      trash: options.trash ?? null,
      reason,
      undoes: op.id,
    })
    if (res.kind === 'error') return { kind: 'error', reason: res.reason }
    return res.kind === 'deleted' ? undone(res) : res
  }
  if (op.backupId === null)
    return { kind: 'error', reason: `operation ${opId} has no backup to restore` }
  const backup = await readBackup(dir, op.backupId)
  if (!backup.ok) return { kind: 'error', reason: backup.reason }
  if (backup.meta.hash !== op.beforeHash) {
    return {
      kind: 'error',
      reason: `backup ${op.backupId} does not hold the version operation ${opId} replaced`,
    }
  }
  const res = await safeWriteBytes({
    path: op.path,
    expectedHash: op.afterHash,
    newBytes: backup.bytes,
    backupsDir: dir,
    reason,
    undoes: op.id,
  })
  return res.kind === 'written' ? undone(res) : res.kind === 'conflict' ? conflictOnly(res) : res
}

function undone(reversal: Extract<UndoResult, { kind: 'undone' }>['reversal']): UndoResult {
  return {
    kind: 'undone',
    operation: reversal.operation,
    backupId: reversal.backupId,
    ...(reversal.warning === undefined ? {} : { warning: reversal.warning }),
    reversal,
  }
}

/** A write's conflict without its race detail (an undo reports the file as it is). */
function conflictOnly(r: { currentHash: string | null; currentText: string | null }): UndoResult {
  return { kind: 'conflict', currentHash: r.currentHash, currentText: r.currentText }
}

/**
 * Undo `operationId` (null: the newest operation not yet undone) in the log of `dir`, as the
 * contract's EditOutcome on the operation's file.
 */
export async function undoOutcome(
  dir: string,
  operationId: string | null,
  options: UndoOptions = {},
): Promise<EditOutcome> {
  const { operations } = await readOperations(dir)
  const op =
    operationId === null
      ? pickLastUndoable(operations)
      : (operations.find((o) => o.id === operationId) ?? null)
  if (op === null) {
    const reason =
      operationId === null
        ? 'there is nothing to undo'
        : `no operation ${operationId} in the undo log`
    return { kind: 'error', path: dir, reason }
  }
  return outcomeOf(`undo ${op.id} on`, op.path, () => undo(dir, op.id, options))
}
