/**
 * Texts for the before/after view of a reference: capped to what the window shows, and a
 * one-line count of what changed between them.
 */
import { diffLines } from 'diff'

/** Lines shown per side of a diff at most. */
export const DIFF_MAX_LINES = 2000
/** Milliseconds a diff may take before we give up on counting it. */
const DIFF_TIMEOUT_MS = 2000

/** Cut a text to DIFF_MAX_LINES lines; says how much was cut. */
export function capText(text: string): { text: string; cut: string | null } {
  const lines = text.split('\n')
  if (lines.length <= DIFF_MAX_LINES) return { text, cut: null }
  return {
    text: lines.slice(0, DIFF_MAX_LINES).join('\n'),
    cut: `showing the first ${DIFF_MAX_LINES} of ${lines.length} lines`,
  }
}

/** "+3 −1 lines" from a line diff of the two texts. */
export function diffSummary(before: string, after: string): string {
  if (before === after) return 'no change'
  const changes = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS })
  if (!changes) return 'changed (too large to count the lines)'
  let added = 0
  let removed = 0
  for (const c of changes) {
    if (c.added) added += c.count
    else if (c.removed) removed += c.count
  }
  return `+${added} −${removed} lines`
}
