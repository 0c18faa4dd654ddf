/**
 * The back end's part for "Fit under the cutoff" and previewed restores (issue 15 items 8 and
 * 2): the last audit of each memory folder is kept (verdicts of its index entries, and the
 * index's hash then), so a fit plan can offer the notes it judged stale or wrong from the start.
 */
import { basename, dirname, join } from 'node:path'
import type { CuratorApi } from '../../shared/api-contract'
import type { AuditResult } from '../../shared/model'
import type { AccessPurpose } from '../../core/access-policy'
import { MEMORY_INDEX_NAME } from '../../core/memory/cutoff'
import { BoundedCache } from '../cache/bounded-cache'
import { planFitOnDisk, type KnownVerdicts } from '../edits/fit-inputs'
import { readForEdit } from '../edits/read-for-edit'
import type { Review } from '../edits/review-snapshots'
import { BackendError } from './errors'

/** Memory folders whose last audit is kept (ours: a window shows one project at a time). */
const KEPT_AUDITS = 16

/** The last audit of each memory folder, as a fit plan uses it. */
export class LastAudits {
  readonly #kept = new BoundedCache<string, KnownVerdicts>(KEPT_AUDITS)

  /** Keep what `result` says of `memoryDir`'s index, with the index's hash now; returns `result`. */
  async remember(memoryDir: string, result: AuditResult): Promise<AuditResult> {
    const index = join(memoryDir, MEMORY_INDEX_NAME)
    const read = await readForEdit(index)
    const notes = result.notes
      .filter((n) => n.file === index)
      .map((n) => ({ line: n.line, verdict: n.verdict }))
    this.#kept.set(memoryDir, { indexHash: read.ok ? read.hash : null, notes })
    return result
  }

  get(memoryDir: string): KnownVerdicts | null {
    return this.#kept.get(memoryDir) ?? null
  }
}

export interface FitDeps {
  readonly allowed: (purpose: AccessPurpose, p: string) => Promise<string>
  readonly ensureScanned: () => Promise<unknown>
  readonly lastAudits: LastAudits
  readonly review: Review
}

/** The handlers of fitPlan and previewRestore. */
export function fitHandlers(deps: FitDeps): Pick<CuratorApi, 'fitPlan' | 'previewRestore'> {
  return {
    async fitPlan(file, choices) {
      await deps.ensureScanned()
      const abs = await deps.allowed('read-note-file', file)
      if (basename(abs) !== MEMORY_INDEX_NAME)
        throw new BackendError('bad-request', `${abs} is not a ${MEMORY_INDEX_NAME}`)
      return planFitOnDisk(abs, choices, deps.lastAudits.get(dirname(abs)))
    },
    async previewRestore(memoryDir, file, text, placement) {
      await deps.ensureScanned()
      return deps.review.previewRestore(
        await deps.allowed('memory-folder', memoryDir),
        await deps.allowed('memory-file', file),
        text,
        placement,
      )
    },
  }
}
