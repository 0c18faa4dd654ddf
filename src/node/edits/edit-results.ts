/**
 * What the write primitives report (safeWrite, safeDelete, undo), with the detail their
 * tests and the reliability checks look at (backup ids, the undo-log entry, a raced
 * version), and the one translation of each into the contract's EditOutcome.
 *
 * Decisions: the primitives keep their detailed results because the reliability tests
 * assert them exactly; everything the window reaches goes through `toEditOutcome`, so no
 * caller translates results itself.
 */
import { resolve } from 'node:path'
import type { ContentHash } from '../../core/content-hash'
import type { EditOutcome } from '../../shared/model'
import { fsFailure } from '../fs/fs-errors'
import type { OperationRecord } from './operation-log'

/** The file is not what the caller based its change on: nothing was written to it. */
export interface ConflictResult {
  readonly kind: 'conflict'
  readonly currentHash: ContentHash | null
  readonly currentText: string | null
}

export interface WrittenResult {
  readonly kind: 'written'
  /** Hash of the bytes now on disk: the caller's next expectedHash. */
  readonly hash: ContentHash
  /** Backup of the replaced bytes; null when the file did not exist. */
  readonly backupId: string | null
  /** The undo-log entry; null only if appending to the log failed (see warning). */
  readonly operation: OperationRecord | null
  /** False when the read-back after writing already showed other content (changed since). */
  readonly verified: boolean
  readonly warning?: string
}

export type WriteResult =
  | WrittenResult
  | (ConflictResult & {
      /** Set when another program's version was caught mid-write and kept as this backup. */
      readonly racedBackupId?: string
    })
  | { readonly kind: 'error'; readonly reason: string }

export interface DeletedResult {
  readonly kind: 'deleted'
  readonly backupId: string
  /** True when the file went to a trash, false when it was removed (trash: null). */
  readonly trashed: boolean
  readonly operation: OperationRecord | null
  readonly warning?: string
}

export type DeleteResult =
  | DeletedResult
  | ConflictResult
  | { readonly kind: 'error'; readonly reason: string; readonly fileKept: boolean }

export type UndoResult =
  | {
      readonly kind: 'undone'
      /** The logged undo; null only if appending to the log failed (see warning). */
      readonly operation: OperationRecord | null
      /** Backup of the bytes the undo replaced or removed. */
      readonly backupId: string | null
      readonly warning?: string
      /** What the undo did to the file: wrote the old bytes back, or removed a created file. */
      readonly reversal: WrittenResult | DeletedResult
    }
  | ConflictResult
  | { readonly kind: 'error'; readonly reason: string }

/** The contract's EditOutcome for a primitive's result on `path`. */
export function toEditOutcome(
  path: string,
  r: WriteResult | DeleteResult | UndoResult,
): EditOutcome {
  switch (r.kind) {
    case 'written':
      return { kind: 'written', path, hash: r.hash, operationId: r.operation?.id ?? null }
    case 'deleted':
      return {
        kind: 'deleted',
        path,
        trashed: r.trashed,
        operationId: r.operation?.id ?? null,
        warning: r.warning ?? null,
      }
    case 'undone':
      return toEditOutcome(path, r.reversal)
    case 'conflict':
      return { kind: 'conflict', path, currentHash: r.currentHash, currentText: r.currentText }
    case 'error':
      return { kind: 'error', path, reason: r.reason }
  }
}

/**
 * Run a primitive on `path` (made absolute) and give its result as an EditOutcome; an
 * exception thrown while doing `action` becomes an error naming the file (never silent).
 */
export async function outcomeOf(
  action: string,
  path: string,
  run: (abs: string) => Promise<WriteResult | DeleteResult | UndoResult>,
): Promise<EditOutcome> {
  const abs = resolve(path)
  try {
    return toEditOutcome(abs, await run(abs))
  } catch (err) {
    return { kind: 'error', path: abs, reason: fsFailure(action, abs, errorText(err)) }
  }
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err))
