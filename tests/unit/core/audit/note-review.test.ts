import { describe, expect, it } from 'vitest'
import type { AuditNote, NoteStampStatus, Verdict } from '../../../../src/shared/model'
import { referenceState, reviewNotes } from '../../../../src/core/audit/note-review'

const note = (title: string, verdict: Verdict, status: 'ok' | 'missing' = 'ok'): AuditNote => ({
  file: '/m/MEMORY.md',
  line: 1,
  endLine: 1,
  title,
  verdict,
  writtenAt: null,
  references: [{ kind: 'path', text: 'src/a.ts', status, resolved: null, movedTo: null }],
  reasons: [],
})

const stamp = (n: AuditNote, state: 'valid' | 'expired', refState?: string): NoteStampStatus => ({
  stamp: {
    key: n.title,
    file: n.file,
    title: n.title,
    noteHash: 'h',
    references: {},
    at: '2026-12-01T10:00:00.000Z',
    ...(refState === undefined ? {} : { referenceState: refState }),
  },
  state,
  reasons: state === 'expired' ? ['`src/a.ts` changed since you verified it on 2026-12-01'] : [],
})

describe('reviewNotes', () => {
  it('a verified stale note counts as verified, not stale, and leaves the queue', () => {
    const n = note('A', 'stale', 'missing')
    const { reviews, summary } = reviewNotes([n], [stamp(n, 'valid', referenceState(n.references))])
    expect(reviews[0]).toMatchObject({ standing: 'verified', needs: null, verification: 'valid' })
    expect(summary.counts.stale).toBe(0)
    expect(summary.counts.verified).toBe(1)
    expect(summary.toReview).toBe(0)
  })

  it('the verification lapses when the code the note rests on answers differently', () => {
    const then = note('A', 'stale', 'missing')
    const now = note('A', 'stale', 'ok')
    const { reviews, summary } = reviewNotes(
      [now],
      [stamp(now, 'valid', referenceState(then.references))],
    )
    expect(reviews[0].verification).toBe('expired')
    expect(reviews[0].standing).toBe('stale')
    expect(reviews[0].needs).toBe('stale')
    expect(reviews[0].lapsedBecause[0]).toMatch(/answers differently/)
    expect(summary.counts.stale).toBe(1)
  })

  it('the queue holds what needs a decision; fresh notes never verified stay out', () => {
    const notes = [
      note('fresh', 'fresh'),
      note('stale', 'stale'),
      note('suspect', 'suspect'),
      note('wrong', 'never-matched'),
      note('unverifiable', 'unverifiable'),
      note('fresh, lapsed', 'fresh'),
    ]
    const { reviews, summary } = reviewNotes(notes, [stamp(notes[5], 'expired')])
    expect(reviews.map((r) => r.needs)).toEqual([
      null,
      'stale',
      'suspect',
      'never-matched',
      'unverified',
      'expired',
    ])
    expect(summary.toReview).toBe(5)
    expect(summary.total).toBe(6)
    // Every note is counted exactly once.
    expect(Object.values(summary.counts).reduce((a, b) => a + b, 0)).toBe(6)
  })

  it('a verified fresh note stays fresh (verification adds nothing to count)', () => {
    const n = note('A', 'fresh')
    const { reviews } = reviewNotes([n], [stamp(n, 'valid')])
    expect(reviews[0]).toMatchObject({ standing: 'fresh', needs: null, verification: 'valid' })
  })
})
