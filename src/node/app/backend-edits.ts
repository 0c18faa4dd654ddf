/**
 * The back end's writes and reviews (docs/reliability.md "Never lose a byte"): every path is
 * checked for its purpose first, every write goes through the curation's safe-write path, and
 * the change is announced after it (afterWrite).
 */
import type { CuratorApi } from '../../shared/api-contract'
import type { AccessPurpose } from '../../core/access-policy'
import type { createCuration } from '../edits/edit-actions'
import type { Review } from '../edits/review-snapshots'

export interface EditDeps {
  readonly ensureScanned: () => Promise<unknown>
  readonly allowed: (purpose: AccessPurpose, p: string) => Promise<string>
  readonly repoArg: (repo: string | null) => Promise<string | null>
  readonly afterWrite: <T>(work: Promise<T>) => Promise<T>
  readonly curation: ReturnType<typeof createCuration>
  readonly review: Review
}

type EditMethods =
  | 'writeFile'
  | 'deleteFile'
  | 'listOperations'
  | 'undo'
  | 'listStamps'
  | 'markReviewed'
  | 'reviewDiff'
  | 'planEdit'
  | 'applyPlan'
  | 'restoreLostLine'

/** The handlers that write memory and instruction files, list and undo operations, and review. */
export function editHandlers(deps: EditDeps): Pick<CuratorApi, EditMethods> {
  return {
    async writeFile(path, expectedHash, newText, reason) {
      await deps.ensureScanned()
      return deps.afterWrite(
        deps.curation.writeFile(
          await deps.allowed('write-note-file', path),
          expectedHash,
          newText,
          reason,
        ),
      )
    },
    async deleteFile(path, expectedHash, reason) {
      await deps.ensureScanned()
      return deps.afterWrite(
        deps.curation.deleteFile(await deps.allowed('memory-file', path), expectedHash, reason),
      )
    },
    listOperations: () => deps.curation.listOperations(),
    undo: (operationId) => deps.afterWrite(deps.curation.undo(operationId)),
    async listStamps(memoryDir, repo) {
      await deps.ensureScanned()
      return deps.curation.listStamps(
        await deps.allowed('memory-folder', memoryDir),
        await deps.repoArg(repo),
      )
    },
    async markReviewed(file, hash) {
      await deps.ensureScanned()
      return deps.review.markReviewed(await deps.allowed('memory-file', file), hash)
    },
    async reviewDiff(memoryDir, file) {
      await deps.ensureScanned()
      return deps.review.reviewDiff(
        await deps.allowed('memory-folder', memoryDir),
        await deps.allowed('memory-file', file),
      )
    },
    async planEdit(request) {
      await deps.ensureScanned()
      return deps.curation.planEdit({
        ...request,
        file: await deps.allowed('read-note-file', request.file),
      })
    },
    async applyPlan(changes, reason) {
      await deps.ensureScanned()
      const checked = []
      for (const c of changes) {
        // The same access rules as writeFile (a write) and deleteFile (a deletion).
        const purpose = c.after === null ? 'memory-file' : 'write-note-file'
        checked.push({ ...c, path: await deps.allowed(purpose, c.path) })
      }
      return deps.afterWrite(deps.curation.applyPlan(checked, reason))
    },
    async restoreLostLine(memoryDir, file, text, expectedHash) {
      await deps.ensureScanned()
      return deps.afterWrite(
        deps.review.restoreLostLine(
          await deps.allowed('memory-folder', memoryDir),
          await deps.allowed('memory-file', file),
          text,
          expectedHash,
        ),
      )
    },
  }
}
