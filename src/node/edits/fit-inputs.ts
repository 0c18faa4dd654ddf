/**
 * The inputs of a "Fit under the cutoff" plan, read from disk (issue 15 item 8): MEMORY.md with
 * its hash, the topic files of its folder, the texts of those a long entry may append to, and the
 * audit's verdicts when the last audit saw this very index. The rules are in
 * src/core/memory/fit-plan.ts; nothing here writes.
 */
import { dirname, join } from 'node:path'
import {
  scanIndex,
  topicsToRead,
  type FitTopic,
  type FitVerdict,
} from '../../core/memory/fit-candidates'
import { planFit } from '../../core/memory/fit-plan'
import type { FitChoices, FitPlan } from '../../shared/model-fit'
import { listTopicFiles } from '../memory/cutoff-file'
import { leavesMemoryFolder } from './plan-edit'
import { readForEdit } from './read-for-edit'

/** What the last audit of a memory folder said about its index entries. */
export interface KnownVerdicts {
  /** Hash of MEMORY.md when the audit finished: verdicts hold only for that text. */
  readonly indexHash: string | null
  readonly notes: readonly FitVerdict[]
}

export const NO_AUDIT =
  'No audit of this project has run since the app started: open the Notes tab to run one, then plan again.'
export const OLD_AUDIT =
  'MEMORY.md changed since the last audit: let the Notes tab audit it again, then plan again.'

/** The fit plan of the MEMORY.md at `indexPath` (already checked by the caller). */
export async function planFitOnDisk(
  indexPath: string,
  choices: FitChoices | null,
  audit: KnownVerdicts | null,
): Promise<FitPlan> {
  const read = await readForEdit(indexPath)
  if (!read.ok) throw new Error(`${indexPath}: ${read.reason}`)
  const dir = dirname(indexPath)
  const listing = await listTopicFiles(dir)
  const present = new Set(listing.files)
  const topics = new Map<string, FitTopic>()
  for (const name of new Set(topicsToRead(scanIndex(read.text)))) {
    if (!present.has(name)) continue
    const path = join(dir, ...name.split('/'))
    if ((await leavesMemoryFolder(path, dir)) !== null) continue
    const t = await readForEdit(path)
    if (t.ok) topics.set(name, { path, text: t.text, hash: t.hash })
  }
  const fresh = audit !== null && audit.indexHash === read.hash
  return planFit({
    index: { path: indexPath, text: read.text, hash: read.hash },
    topicNames: listing.files,
    topics,
    verdicts: fresh ? audit.notes : null,
    noVerdicts: audit === null ? NO_AUDIT : OLD_AUDIT,
    choices,
  })
}
