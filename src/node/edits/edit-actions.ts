/**
 * The curation back end (issue 6): safe edits and deletes with an undo log, edit plans
 * planned and applied, and verification stamps of notes. Each job is its own module; this
 * one wires them over one state folder, trash and stamp store:
 * safe-write.ts / safe-delete.ts (compare-and-swap, a backup first, atomic replace),
 * undo.ts, plan-edit.ts and apply-plan.ts (rules in src/core/memory/edit-plan.ts), and
 * note-stamps.ts (judged by src/core/audit/stamps.ts).
 */
import { join, resolve } from 'node:path'
import type { CuratorApi } from '../../shared/api-contract'
import type { OperationInfo } from '../../shared/model'
import { applyPlan } from './apply-plan'
import { createNoteStamps, type KeyValueStore } from './note-stamps'
import { readOperations, undoneIds } from './operation-log'
import { planEdit } from './plan-edit'
import { safeDeleteFile, type TrashFn } from './safe-delete'
import { safeWriteFile } from './safe-write'
import { undoOutcome } from './undo'

export type { KeyValueStore } from './note-stamps'

export interface CurationDeps {
  /** Our state folder: backups and the undo log live under it. */
  readonly stateDir: string
  /** Moves a file to the OS trash; null when none is available (the file then stays, and the person is told). */
  readonly trash: TrashFn | null
  /** Where verification stamps are kept. */
  readonly stamps: KeyValueStore
}

/** The part of the contract the curation back end serves. */
export type Curation = Pick<
  CuratorApi,
  | 'writeFile'
  | 'deleteFile'
  | 'listOperations'
  | 'undo'
  | 'verifyNote'
  | 'listStamps'
  | 'planEdit'
  | 'applyPlan'
>

/** Build the curation back end over one state folder, trash and stamp store. */
export function createCuration(deps: CurationDeps): Curation {
  const backupsDir = join(resolve(deps.stateDir), 'backups')
  const { verifyNote, listStamps } = createNoteStamps(deps.stamps)

  const writeFile: Curation['writeFile'] = (path, expectedHash, newText, reason) =>
    safeWriteFile({ path, expectedHash, newText, backupsDir, reason })

  const deleteFile: Curation['deleteFile'] = async (path, expectedHash, reason) => {
    if (deps.trash === null) {
      // Without a trash our backup would be the only copy: keep the file and say so.
      const abs = resolve(path)
      return { kind: 'error', path: abs, reason: noTrash(abs) }
    }
    return safeDeleteFile({ path, expectedHash, backupsDir, trash: deps.trash, reason })
  }

  async function listOperations(): Promise<OperationInfo[]> {
    const { operations } = await readOperations(backupsDir)
    const undone = undoneIds(operations)
    return operations
      .map((o) => ({
        id: o.id,
        op: o.op === 'write' && o.beforeHash === null ? 'create' : o.op,
        path: o.path,
        time: o.time,
        reason: o.reason ?? '',
        undone: undone.has(o.id),
        ...(o.undoes === undefined ? {} : { undoes: o.undoes }),
      }))
      .reverse()
  }

  return {
    writeFile,
    deleteFile,
    listOperations,
    undo: (operationId) => undoOutcome(backupsDir, operationId, { trash: deps.trash }),
    verifyNote,
    listStamps,
    planEdit,
    applyPlan: (changes, reason) =>
      applyPlan({ backupsDir, trash: deps.trash, noTrash }, changes, reason),
  }
}

/** Why a file was not deleted where no trash is available. */
function noTrash(abs: string): string {
  return `no trash is available here, so ${abs} was not deleted`
}
