/**
 * The one delete path for user files: compare-and-swap on the content hash, our own backup
 * first, then the trash. A delete hands the path to the trash, which moves whatever is there
 * at that instant, so nothing is lost; with `trash: null` the unlink has the same two-call
 * window as safe-write's rename. What each promise rests on: docs/reliability.md.
 */
import { lstat, unlink } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { ContentHash } from '../../core/content-hash'
import type { EditOutcome } from '../../shared/model'
import { describeFsError, fsFailure } from '../fs/fs-errors'
import { createBackup, syncDir } from './backups'
import { outcomeOf, type DeleteResult } from './edit-results'
import { recordOperation } from './operation-log'
import { conflictNow, readCurrent, refuseReadOnly } from './read-current'

/**
 * Moves a path to a trash and resolves, or rejects with the reason. The Electron shell
 * passes `shell.trashItem`; the CLI and `serve` pass `freedesktopTrash` from trash.ts.
 */
export type TrashFn = (path: string) => Promise<unknown>
export interface SafeDeleteOptions {
  readonly path: string
  readonly expectedHash: ContentHash
  readonly backupsDir: string
  /** Where the file goes; null removes it outright (our backup is then the only copy). */
  readonly trash: TrashFn | null
  readonly reason?: string
  readonly undoes?: string
}
/**
 * Delete a file only if it still has `expectedHash`: back it up, then hand it to the trash.
 * If the trash fails, the file stays where it was and the result says so. A symlink is
 * trashed as a link; its backup holds the content it pointed to.
 */
export async function safeDelete(opts: SafeDeleteOptions): Promise<DeleteResult> {
  const abs = resolve(opts.path)
  const reason = opts.reason ?? 'delete'
  const first = await readCurrent(abs)
  if (first.kind === 'problem')
    return { kind: 'error', reason: fsFailure('delete', abs, first.reason), fileKept: true }
  if (first.kind === 'missing' || first.hash !== opts.expectedHash) return await conflictNow(abs)
  const readOnly = refuseReadOnly(abs, first.mode, 'delete')
  if (readOnly !== null) return { kind: 'error', reason: readOnly, fileKept: true }

  const backup = await createBackup(opts.backupsDir, {
    path: abs,
    bytes: first.bytes,
    reason,
    operation: 'delete',
  })
  if (!backup.ok) {
    return {
      kind: 'error',
      reason: `cannot back up ${abs}, so it was not deleted: ${backup.reason}`,
      fileKept: true,
    }
  }
  const backupId = backup.meta.id

  const again = await readCurrent(abs)
  if (again.kind !== 'ok' || again.hash !== opts.expectedHash) return await conflictNow(abs)

  const exists = async (): Promise<boolean> => {
    try {
      await lstat(abs)
      return true
    } catch {
      return false
    }
  }
  try {
    if (opts.trash === null) await unlink(abs)
    else await opts.trash(abs)
  } catch (err) {
    const why =
      err instanceof Error && !(err as NodeJS.ErrnoException).code
        ? err.message
        : describeFsError(err)
    const kept = await exists()
    return {
      kind: 'error',
      reason: kept
        ? `could not ${opts.trash === null ? 'remove' : 'move to the trash'} ${abs}: ${why}; the file was left in place (backup ${backupId})`
        : `could not ${opts.trash === null ? 'remove' : 'move to the trash'} ${abs}: ${why}; the file is gone from its folder, its bytes are in backup ${backupId}`,
      fileKept: kept,
    }
  }
  await syncDir(dirname(abs))
  const warnings: string[] = []
  if (await exists())
    warnings.push(`${abs} exists again: another program created it right after the delete`)
  const logged = await recordOperation(opts.backupsDir, {
    op: 'delete',
    path: abs,
    beforeHash: opts.expectedHash,
    afterHash: null,
    backupId,
    reason,
    ...(opts.undoes === undefined ? {} : { undoes: opts.undoes }),
  })
  if (!logged.ok) warnings.push(logged.reason)
  return {
    kind: 'deleted',
    backupId,
    trashed: opts.trash !== null,
    operation: logged.ok ? logged.operation : null,
    ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}),
  }
}
/** `safeDelete` as the contract's EditOutcome (what the window and edit plans get). */
export function safeDeleteFile(opts: SafeDeleteOptions): Promise<EditOutcome> {
  return outcomeOf('delete', opts.path, (path) => safeDelete({ ...opts, path }))
}
