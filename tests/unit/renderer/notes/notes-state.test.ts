import { describe, expect, it } from 'vitest'
import type { AuditNote, AuditResult, NoteStampStatus, Verdict } from '../../../../src/shared/model'
import type { AuditView } from '../../../../src/shared/api'
import { reviewNotes } from '../../../../src/core/audit/note-review'
import {
  firstDiffTab,
  buildQueue,
  initialNotesState,
  isReviewed,
  keyedNotes,
  listKeys,
  mergeQueue,
  moveSelection,
  nextUnreviewed,
  noteKeys,
  queueProgress,
  reduceNotes,
  renameReplacement,
  shortPath,
  reviewsByKey,
  stampFor,
  standingCounts,
  VERDICT_LABEL,
  visibleNotes,
  writtenAtSource,
  type NotesState,
} from '../../../../src/renderer/notes/notes-state'

const M = '/h/.claude/projects/-r/memory/MEMORY.md'

function note(
  title: string,
  verdict: Verdict,
  line: number,
  extra: Partial<AuditNote> = {},
): AuditNote {
  return {
    file: M,
    line,
    endLine: line,
    title,
    verdict,
    writtenAt: null,
    references: [],
    reasons: [],
    ...extra,
  }
}

function audit(notes: AuditNote[]): AuditResult {
  const summary = { fresh: 0, suspect: 0, stale: 0, 'never-matched': 0, unverifiable: 0 }
  for (const n of notes) summary[n.verdict]++
  return { repo: '/r', notes, summary }
}

function stamp(title: string, state: 'valid' | 'expired', file = M): NoteStampStatus {
  return {
    stamp: {
      key: `k-${title}`,
      file,
      title,
      noteHash: 'h',
      references: {},
      at: '2026-05-01T00:00:00.000Z',
    },
    state,
    reasons: state === 'expired' ? ['the note text changed'] : [],
  }
}

const key = (title: string) => `${M}::${title}`

/** The back end's view of an audit: standings from core/audit/note-review.ts. */
function view(a: AuditResult, stamps: NoteStampStatus[] = []): AuditView {
  const { reviews, summary } = reviewNotes(a.notes, stamps)
  return { audit: a, stamps, reviews, summary, token: 't' }
}

/** A state holding `a` as the back end would hand it over. */
function holding(
  a: AuditResult,
  stamps: NoteStampStatus[] = [],
  extra: Partial<NotesState> = {},
): NotesState {
  const v = view(a, stamps)
  return {
    ...initialNotesState,
    audit: a,
    stamps,
    reviews: reviewsByKey(v),
    summary: v.summary,
    ...extra,
  }
}

const NOTES = [
  note('Fresh one', 'fresh', 3),
  note('Stale one', 'stale', 4),
  note('Prose', 'unverifiable', 5),
  note('Suspect one', 'suspect', 6),
  note('Fresh two', 'fresh', 7),
  note('Stale two', 'stale', 8),
]

describe('keys and listing', () => {
  it('keys notes by file and title, numbering duplicates', () => {
    expect(noteKeys([note('A', 'fresh', 1), note('A', 'stale', 9), note('B', 'fresh', 2)])).toEqual(
      [`${M}::A`, `${M}::A#2`, `${M}::B`],
    )
  })

  it('lists the worst verdict first, then by file and line', () => {
    expect(keyedNotes(audit(NOTES)).map((k) => k.note.title)).toEqual([
      'Stale one',
      'Stale two',
      'Suspect one',
      'Fresh one',
      'Fresh two',
      'Prose',
    ])
    expect(keyedNotes(null)).toEqual([])
  })

  it('names never-matched notes "wrong from the start" and keeps them out of the stale count', () => {
    const a = audit([...NOTES, note('Never', 'never-matched', 9)])
    expect(VERDICT_LABEL['never-matched']).toBe('wrong from the start')
    const s: NotesState = holding(a, [], { filter: 'never-matched' })
    expect(standingCounts(s)).toMatchObject({ stale: 2, 'never-matched': 1 })
    expect(visibleNotes(s).map((k) => k.note.title)).toEqual(['Never'])
  })

  it('counts verdicts and filters by one', () => {
    const a = audit(NOTES)
    const s: NotesState = holding(a, [stamp('Stale two', 'valid')], { filter: 'fresh' })
    // A verified stale note counts as verified, not stale (issue 15 item 3).
    expect(standingCounts(s)).toEqual({
      stale: 1,
      suspect: 1,
      'never-matched': 0,
      fresh: 2,
      unverifiable: 1,
      verified: 1,
    })
    expect(visibleNotes(s).map((k) => k.note.title)).toEqual(['Fresh one', 'Fresh two'])
    expect(visibleNotes({ ...s, filter: 'verified' }).map((k) => k.note.title)).toEqual([
      'Stale two',
    ])
  })

  it('matches a stamp on file and title, preferring a valid one', () => {
    const n = note('Fresh one', 'fresh', 30)
    expect(stampFor(n, [stamp('Other', 'valid')])).toBeNull()
    expect(stampFor(n, [stamp('Fresh one', 'expired'), stamp('Fresh one', 'valid')])?.state).toBe(
      'valid',
    )
    expect(stampFor(n, [stamp('Fresh one', 'valid', '/elsewhere/MEMORY.md')])).toBeNull()
  })
})

describe('the review queue', () => {
  it('orders stale, suspect, expired stamps, never verified; a valid stamp takes a note out', () => {
    const v = view(audit(NOTES), [
      stamp('Fresh two', 'expired'),
      stamp('Fresh one', 'valid'),
      stamp('Stale two', 'valid'),
    ])
    const q = buildQueue(v.audit, reviewsByKey(v))
    expect(q).toEqual([
      { key: key('Stale one'), reason: 'stale' },
      { key: key('Suspect one'), reason: 'suspect' },
      { key: key('Fresh two'), reason: 'expired' },
      { key: key('Prose'), reason: 'unverified' },
    ])
  })

  it('keeps handled entries and their order when merged, appending new ones', () => {
    const before = [
      { key: 'a', reason: 'stale' as const },
      { key: 'b', reason: 'unverified' as const },
    ]
    const after = [
      { key: 'c', reason: 'stale' as const },
      { key: 'b', reason: 'expired' as const },
    ]
    const merged = mergeQueue(before, after)
    expect(merged).toEqual([
      { key: 'a', reason: 'stale' },
      { key: 'b', reason: 'expired' },
      { key: 'c', reason: 'stale', appended: true },
    ])
    // A note that came up and is gone again (a passing state on disk) leaves; 'a' stays, handled.
    expect(mergeQueue(merged, [{ key: 'b', reason: 'expired' }])).toEqual([
      { key: 'a', reason: 'stale' },
      { key: 'b', reason: 'expired' },
    ])
  })

  it('counts progress: deleted, verified and rewritten notes are reviewed', () => {
    const reduce = reduceNotes('queue')
    let s = reduce(initialNotesState, { type: 'audit-start', requestId: 1 })
    s = reduce(s, { type: 'audit-done', requestId: 1, view: view(audit(NOTES)) })
    // Fresh notes need no decision (issue 15 item 9).
    expect(queueProgress(s)).toEqual({ reviewed: 0, total: 4, text: '0 of 4 reviewed' })
    expect(s.selectedKey).toBe(key('Stale one'))
    // Stale one deleted, Suspect one verified, Prose rewritten.
    s = reduce(s, { type: 'rewritten', key: key('Prose') })
    s = reduce(s, { type: 'audit-start', requestId: 2 })
    s = reduce(s, {
      type: 'audit-done',
      requestId: 2,
      view: view(audit(NOTES.filter((n) => n.title !== 'Stale one')), [
        stamp('Suspect one', 'valid'),
      ]),
    })
    expect(queueProgress(s).text).toBe('3 of 4 reviewed')
    expect(isReviewed(s, key('Stale one'))).toBe(true)
    expect(isReviewed(s, key('Suspect one'))).toBe(true)
    expect(isReviewed(s, key('Stale two'))).toBe(false)
    // The deleted note's place goes to the next one in the queue.
    expect(s.selectedKey).toBe(key('Stale two'))
    expect(listKeys(s, 'queue')).not.toContain(key('Stale one'))
    // Undo of the rewrite takes it back out of "reviewed".
    s = reduce(s, { type: 'unrewritten', key: key('Prose') })
    expect(queueProgress(s).text).toBe('2 of 4 reviewed')
  })

  it('finds the next note still to review, wrapping round, or null when all are done', () => {
    const reduce = reduceNotes('queue')
    let s = reduce(initialNotesState, { type: 'audit-start', requestId: 1 })
    s = reduce(s, {
      type: 'audit-done',
      requestId: 1,
      view: view(audit(NOTES), [stamp('Suspect one', 'valid')]),
    })
    // Suspect one was verified before the session: not in the queue at all.
    expect(listKeys(s, 'queue')).toEqual([key('Stale one'), key('Stale two'), key('Prose')])
    s = reduce(s, { type: 'audit-start', requestId: 2 })
    s = reduce(s, {
      type: 'audit-done',
      requestId: 2,
      view: view(audit(NOTES), [stamp('Suspect one', 'valid'), stamp('Stale two', 'valid')]),
    })
    expect(nextUnreviewed(s, key('Stale one'))).toBe(key('Prose'))
    expect(nextUnreviewed(s, key('Prose'))).toBe(key('Stale one'))
    s = { ...s, rewritten: { [key('Stale one')]: true, [key('Prose')]: true } }
    expect(nextUnreviewed(s, key('Prose'))).toBeNull()
  })

  it('shows every note a filter away: the rest after the queue, nothing to decide on them', () => {
    const reduce = reduceNotes('queue')
    let q = reduce(initialNotesState, { type: 'audit-start', requestId: 1 })
    q = reduce(q, { type: 'audit-done', requestId: 1, view: view(audit(NOTES)) })
    expect(listKeys(q, 'queue')).toHaveLength(4)
    q = reduce(q, { type: 'queue-scope', scope: 'all' })
    expect(listKeys(q, 'queue')).toHaveLength(6)
    expect(queueProgress(q).total).toBe(4)
  })
})

describe('selection and requests', () => {
  it('moves within bounds and starts at the first', () => {
    expect(moveSelection(['a', 'b', 'c'], null, 1)).toBe('a')
    expect(moveSelection(['a', 'b', 'c'], 'a', 1)).toBe('b')
    expect(moveSelection(['a', 'b', 'c'], 'c', 1)).toBe('c')
    expect(moveSelection(['a', 'b', 'c'], 'a', -1)).toBe('a')
    expect(moveSelection(['a', 'b'], 'gone', -1)).toBe('a')
    expect(moveSelection([], 'a', 1)).toBeNull()
  })

  it('drops the answer of a cancelled or superseded audit', () => {
    const reduce = reduceNotes('notes')
    let s = reduce(initialNotesState, { type: 'audit-start', requestId: 1 })
    s = reduce(s, { type: 'audit-cancel' })
    expect(s.auditing).toBe(false)
    expect(reduce(s, { type: 'audit-done', requestId: 1, view: view(audit(NOTES)) })).toBe(s)
    s = reduce(s, { type: 'audit-start', requestId: 5 })
    expect(reduce(s, { type: 'audit-failed', requestId: 4, message: 'old' })).toBe(s)
    s = reduce(s, { type: 'audit-done', requestId: 5, view: view(audit(NOTES)) })
    expect(s.audit?.notes.length).toBe(6)
    expect(s.selectedKey).toBe(key('Stale one'))
    s = reduce(s, { type: 'audit-start', requestId: 6 })
    s = reduce(s, { type: 'audit-failed', requestId: 6, message: 'Audit of /m failed: boom' })
    expect(s).toMatchObject({ auditing: false, error: 'Audit of /m failed: boom' })
    // The last good audit stays on screen.
    expect(s.audit?.notes.length).toBe(6)
  })

  it('keeps the selection across a filter when it still shows, else takes the first', () => {
    const reduce = reduceNotes('notes')
    let s: NotesState = holding(audit(NOTES), [], { selectedKey: key('Fresh two') })
    s = reduce(s, { type: 'filter', filter: 'fresh' })
    expect(s.selectedKey).toBe(key('Fresh two'))
    s = reduce(s, { type: 'filter', filter: 'stale' })
    expect(s.selectedKey).toBe(key('Stale one'))
    s = reduce(s, { type: 'filter', filter: 'suspect' })
    expect(s.selectedKey).toBe(key('Suspect one'))
  })
})

describe('small helpers', () => {
  it('names the source of writtenAt', () => {
    const n = note('x', 'fresh', 1, { writtenAtSource: 'frontmatter' })
    expect(writtenAtSource(n)).toBe('the topic file’s frontmatter')
    expect(writtenAtSource(note('z', 'fresh', 1, { writtenAtSource: 'mtime' }))).toContain('coarse')
    expect(writtenAtSource(note('y', 'fresh', 1))).toBeNull()
  })

  it('writes the replacement for a renamed path the way the note wrote it', () => {
    const ref = {
      text: 'src/auth/session.ts',
      kind: 'path' as const,
      status: 'moved' as const,
      resolved: '/r/src/auth/token-session.ts',
      movedTo: '/r/src/auth/token-session.ts',
    }
    expect(renameReplacement(ref, '/r')).toEqual({
      from: 'src/auth/session.ts',
      to: 'src/auth/token-session.ts',
    })
    expect(renameReplacement({ ...ref, text: './src/auth/session.ts' }, '/r/')).toEqual({
      from: './src/auth/session.ts',
      to: './src/auth/token-session.ts',
    })
    expect(renameReplacement({ ...ref, text: '/r/src/auth/session.ts' }, '/r')).toEqual({
      from: '/r/src/auth/session.ts',
      to: '/r/src/auth/token-session.ts',
    })
    expect(renameReplacement({ ...ref, movedTo: null }, '/r')).toBeNull()
  })

  it('shortens paths inside a root only', () => {
    expect(shortPath('/r/src/a.ts', ['/m', '/r'])).toBe('src/a.ts')
    expect(shortPath('/rr/a.ts', ['/r'])).toBe('/rr/a.ts')
    expect(shortPath('/x', [null])).toBe('/x')
  })
})

describe('firstDiffTab', () => {
  const d = (status: string, text: boolean) => ({
    reference: { status },
    before: text ? { label: 'a', text: 'x' } : null,
    after: null,
  })
  it('opens the first reference that no longer holds and has something to show', () => {
    expect(
      firstDiffTab([d('ok', false), d('missing', false), d('ok', true), d('moved', true)]),
    ).toBe(3)
    expect(firstDiffTab([d('ok', false), d('missing', false), d('ok', true)])).toBe(2)
    expect(firstDiffTab([d('ok', false), d('missing', false)])).toBe(1)
    expect(firstDiffTab([d('ok', false)])).toBe(0)
    expect(firstDiffTab([])).toBe(0)
  })
})
