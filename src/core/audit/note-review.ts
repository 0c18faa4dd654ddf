/**
 * What verifying a note means, and the one summary every count shows (issue 15 items 3 and 4).
 *
 * Verifying says "this note is right" (docs/memory-rules.md §6.2, the person's check against
 * ground truth). A verification that still holds overrides the audit's verdict: a stale note
 * the person verified counts as verified, not stale, and leaves the review queue. It holds
 * while the note's text, the content of every file it names (stamps.ts) and what the audit
 * found for each reference (`referenceState`) are all as they were when it was verified; the
 * moment the code it rests on moves again, it lapses and the note asks for a decision again.
 *
 * Pure: the node layer reads the stamps (src/node/edits/note-stamps.ts) and the audit.
 */
import type { AuditNote, AuditReference, NoteStampStatus, Verdict } from '../../shared/model'
import type { AuditSummary, NoteReview, ReviewReason } from '../../shared/audit-view'

/** Verdicts that ask a person for a decision until a verification overrides them. */
const NEEDS_DECISION: ReadonlySet<Verdict> = new Set(['stale', 'suspect', 'never-matched'])

/** Longest reference state kept in a stamp (a note with hundreds of references is cut, not refused). */
export const REFERENCE_STATE_MAX = 20_000

/**
 * What the audit found for a note's references, as one string: equal strings mean the code
 * the note rests on answered the same way (each reference's kind, text, status and new place).
 */
export function referenceState(refs: readonly AuditReference[]): string {
  return refs
    .map((r) => [r.kind, r.text, r.status, r.movedTo ?? ''].join('\t'))
    .sort()
    .join('\n')
    .slice(0, REFERENCE_STATE_MAX)
}

/** The stamps of a note (matched on file and title, as stamp keys are), one that holds first. */
function stampsOf(note: AuditNote, stamps: readonly NoteStampStatus[]): NoteStampStatus[] {
  const mine = stamps.filter((s) => s.stamp.file === note.file && s.stamp.title === note.title)
  return mine.sort((a, b) => Number(b.state === 'valid') - Number(a.state === 'valid'))
}

/** Whether a stamp still holds for the note as audited now, and why not. */
function holds(note: AuditNote, s: NoteStampStatus): { ok: boolean; reasons: readonly string[] } {
  if (s.state !== 'valid') return { ok: false, reasons: s.reasons }
  const then = s.stamp.referenceState
  if (then !== undefined && then !== referenceState(note.references)) {
    const day = s.stamp.at.slice(0, 10)
    return {
      ok: false,
      reasons: [`the code this note rests on answers differently since you verified it on ${day}`],
    }
  }
  return { ok: true, reasons: [] }
}

/** One note's standing: its verdict, overridden by a verification that holds. */
export function reviewNote(note: AuditNote, stamps: readonly NoteStampStatus[]): NoteReview {
  const stamp = stampsOf(note, stamps)[0] ?? null
  if (stamp === null) {
    const needs: ReviewReason | null = NEEDS_DECISION.has(note.verdict)
      ? (note.verdict as ReviewReason)
      : note.verdict === 'unverifiable'
        ? 'unverified'
        : null
    return {
      verification: 'none',
      verifiedAt: null,
      lapsedBecause: [],
      standing: note.verdict,
      needs,
    }
  }
  const h = holds(note, stamp)
  if (h.ok) {
    return {
      verification: 'valid',
      verifiedAt: stamp.stamp.at,
      lapsedBecause: [],
      standing: note.verdict === 'fresh' ? 'fresh' : 'verified',
      needs: null,
    }
  }
  return {
    verification: 'expired',
    verifiedAt: stamp.stamp.at,
    lapsedBecause: h.reasons,
    standing: note.verdict,
    needs: NEEDS_DECISION.has(note.verdict) ? (note.verdict as ReviewReason) : 'expired',
  }
}

/** Every note's standing, in the order of `notes`, and the summary counted from them. */
export function reviewNotes(
  notes: readonly AuditNote[],
  stamps: readonly NoteStampStatus[],
): { reviews: NoteReview[]; summary: AuditSummary } {
  const reviews = notes.map((n) => reviewNote(n, stamps))
  return { reviews, summary: summarize(reviews) }
}

/** The counts every view shows, from the standings (one place: issue 15 item 4). */
export function summarize(reviews: readonly NoteReview[]): AuditSummary {
  const counts: Record<Verdict | 'verified', number> = {
    stale: 0,
    suspect: 0,
    'never-matched': 0,
    fresh: 0,
    unverifiable: 0,
    verified: 0,
  }
  let toReview = 0
  for (const r of reviews) {
    counts[r.standing]++
    if (r.needs !== null) toReview++
  }
  return { total: reviews.length, counts, toReview }
}
