/** PLACEHOLDER — being written by a helper (issue 5). Signatures are final. */
import type { EditOutcome, ReviewDiff } from '../core/model'

export interface ReviewDeps {
  /** Our state folder: review snapshots live under it. */
  readonly stateDir: string
  readonly claudeHome: string
  /** The one safe write path (the curation module's writeFile). */
  readonly writeFile: (path: string, expectedHash: string | null, newText: string, reason: string) => Promise<EditOutcome>
}

export interface Review {
  markReviewed(file: string, hash: string): Promise<{ at: string; hash: string }>
  reviewDiff(memoryDir: string, file: string): Promise<ReviewDiff>
  restoreLostLine(memoryDir: string, file: string, text: string, expectedHash: string): Promise<EditOutcome>
}

export function createReview(_deps: ReviewDeps): Review {
  const no = (): never => {
    throw new Error('not implemented yet')
  }
  return { markReviewed: no, reviewDiff: no, restoreLostLine: no }
}
