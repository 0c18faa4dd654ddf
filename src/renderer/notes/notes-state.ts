/**
 * State of the Notes and Review queue tabs as pure functions (docs/architecture.md §4.6):
 * which notes are shown, which is selected, the order of the review queue and how far
 * the person got through it. Components hold this in `useReducer`; nothing here does I/O.
 */
import type { AuditNote, AuditResult, NoteStampStatus, Verdict } from '../../shared/model'
import type { AuditSummary, AuditView, NoteReview, ReviewReason } from '../../shared/api'

/** A note's standing: its verdict, or `verified` when a verification that holds overrides it. */
export type Standing = Verdict | 'verified'
export type VerdictFilter = 'all' | Standing

/** Worst first: the order notes are listed in and the queue is walked in. */
export const VERDICT_ORDER: readonly Verdict[] = [
  'stale',
  'suspect',
  'never-matched',
  'fresh',
  'unverifiable',
]

/** The filters of the Notes tab, in order: every standing a count is shown for. */
export const STANDING_ORDER: readonly Standing[] = [...VERDICT_ORDER, 'verified']

/** How each standing is named in lists, filters and badges. */
export const VERDICT_LABEL: Readonly<Record<Standing, string>> = {
  stale: 'stale',
  suspect: 'suspect',
  // A reference that already failed when the note was written: never counted as stale.
  'never-matched': 'wrong from the start',
  fresh: 'fresh',
  unverifiable: 'unverifiable',
  verified: 'verified',
}

/** Why a note is in the review queue, in queue order (core/audit/note-review.ts decides). */
export type QueueReason = ReviewReason
const QUEUE_RANK: Readonly<Record<QueueReason, number>> = {
  stale: 0,
  suspect: 1,
  'never-matched': 2,
  expired: 3,
  unverified: 4,
}

export interface QueueEntry {
  readonly key: string
  readonly reason: QueueReason
  /** Came up after the session started (not in the queue as first built). */
  readonly appended?: true
}

export interface NotesState {
  readonly audit: AuditResult | null
  readonly stamps: readonly NoteStampStatus[]
  /** Each note's standing by key (from the back end's view: one source for every count). */
  readonly reviews: Readonly<Record<string, NoteReview>>
  readonly summary: AuditSummary | null
  /** The review queue shows what needs a decision, or every note (the rest a filter away). */
  readonly queueScope: 'decide' | 'all'
  readonly auditing: boolean
  /** Id of the audit in flight; results of any other (older, cancelled) request are dropped. */
  readonly requestId: number
  readonly error: string | null
  readonly filter: VerdictFilter
  readonly selectedKey: string | null
  /**
   * The review queue as it stood when the session started, with notes that came up since
   * appended: entries stay (marked done) once handled, so progress reads "3 of 17".
   */
  readonly queue: readonly QueueEntry[]
  /** Notes the person rewrote in this session (verify and delete show in the audit itself). */
  readonly rewritten: Readonly<Record<string, true>>
}

export type NotesAction =
  | { readonly type: 'audit-start'; readonly requestId: number }
  | { readonly type: 'audit-done'; readonly requestId: number; readonly view: AuditView }
  | { readonly type: 'audit-failed'; readonly requestId: number; readonly message: string }
  | { readonly type: 'audit-cancel' }
  | { readonly type: 'filter'; readonly filter: VerdictFilter }
  | { readonly type: 'queue-scope'; readonly scope: 'decide' | 'all' }
  | { readonly type: 'select'; readonly key: string | null }
  | { readonly type: 'rewritten'; readonly key: string }
  | { readonly type: 'unrewritten'; readonly key: string }

export const initialNotesState: NotesState = {
  audit: null,
  stamps: [],
  reviews: {},
  summary: null,
  queueScope: 'decide',
  auditing: false,
  requestId: 0,
  error: null,
  filter: 'all',
  selectedKey: null,
  queue: [],
  rewritten: {},
}

/**
 * A note's identity across edits: its file and title (not its line, which shifts when an
 * entry above it is deleted). The nth note with the same file and title gets `#n`.
 */
export function noteKeys(notes: readonly AuditNote[]): string[] {
  const seen = new Map<string, number>()
  return notes.map((n) => {
    const base = `${n.file}::${n.title}`
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    return count === 0 ? base : `${base}#${count + 1}`
  })
}

/**
 * Kept per audit result (it never changes once received): with 50,000 notes, sorting them again
 * for every row of the queue froze the window (issue 15 item 6).
 */
const keyedCache = new WeakMap<AuditResult, readonly { key: string; note: AuditNote }[]>()
const byKeyCache = new WeakMap<AuditResult, ReadonlyMap<string, AuditNote>>()
const FILE_ORDER = new Intl.Collator()

/** The notes of an audit with their keys, worst verdict first, then by file and line. */
export function keyedNotes(audit: AuditResult | null): readonly { key: string; note: AuditNote }[] {
  if (!audit) return []
  const kept = keyedCache.get(audit)
  if (kept) return kept
  const keys = noteKeys(audit.notes)
  const rank = new Map(VERDICT_ORDER.map((v, i) => [v, i]))
  const sorted = audit.notes
    .map((note, i) => ({ key: keys[i], note }))
    .sort(
      (a, b) =>
        (rank.get(a.note.verdict) ?? 0) - (rank.get(b.note.verdict) ?? 0) ||
        (a.note.file === b.note.file ? 0 : FILE_ORDER.compare(a.note.file, b.note.file)) ||
        a.note.line - b.note.line,
    )
  keyedCache.set(audit, sorted)
  return sorted
}

export function findNote(state: NotesState, key: string | null): AuditNote | null {
  if (key === null || !state.audit) return null
  let byKey = byKeyCache.get(state.audit)
  if (!byKey) {
    byKey = new Map(keyedNotes(state.audit).map((k) => [k.key, k.note]))
    byKeyCache.set(state.audit, byKey)
  }
  return byKey.get(key) ?? null
}

/** The stamp of a note (matched on file and title: stamp keys survive line moves), valid ones first. */
export function stampFor(
  note: AuditNote,
  stamps: readonly NoteStampStatus[],
): NoteStampStatus | null {
  const mine = stamps.filter((s) => s.stamp.file === note.file && s.stamp.title === note.title)
  return mine.find((s) => s.state === 'valid') ?? mine[0] ?? null
}

/** A note's standing: a verification that holds overrides the verdict (core/audit/note-review.ts). */
export function standingOf(state: NotesState, key: string, note: AuditNote): Standing {
  return state.reviews[key]?.standing ?? note.verdict
}

/** The counts every view shows: the back end's one summary (never counted again here). */
export function standingCounts(state: NotesState): Record<Standing, number> {
  const c = state.summary?.counts
  return {
    stale: c?.stale ?? 0,
    suspect: c?.suspect ?? 0,
    'never-matched': c?.['never-matched'] ?? 0,
    fresh: c?.fresh ?? 0,
    unverifiable: c?.unverifiable ?? 0,
    verified: c?.verified ?? 0,
  }
}

/** What the Notes tab lists under the current filter. */
export function visibleNotes(state: NotesState): readonly { key: string; note: AuditNote }[] {
  const all = keyedNotes(state.audit)
  return state.filter === 'all'
    ? all
    : all.filter((k) => standingOf(state, k.key, k.note) === state.filter)
}

/**
 * The queue for periodic cleanup: what needs a decision (stale, suspect, wrong from the start,
 * a verification that lapsed, never verified where nothing can be checked), worst first. The
 * standings come from the back end (core/audit/note-review.ts); a verification that holds
 * takes a note out.
 */
export function buildQueue(
  audit: AuditResult | null,
  reviews: Readonly<Record<string, NoteReview>>,
): QueueEntry[] {
  const entries: (QueueEntry & { order: number })[] = []
  keyedNotes(audit).forEach(({ key }, order) => {
    const reason = reviews[key]?.needs ?? null
    if (reason !== null) entries.push({ key, reason, order })
  })
  return entries
    .sort((a, b) => QUEUE_RANK[a.reason] - QUEUE_RANK[b.reason] || a.order - b.order)
    .map(({ key, reason }) => ({ key, reason }))
}

/** Each note's review by key (the view's reviews are in the order of its notes). */
export function reviewsByKey(view: AuditView): Record<string, NoteReview> {
  const keys = noteKeys(view.audit.notes)
  const out: Record<string, NoteReview> = {}
  keys.forEach((k, i) => {
    const r = view.reviews[i]
    if (r) out[k] = r
  })
  return out
}

/**
 * Keep the queue's order and its handled entries; append notes that newly need review. An
 * appended entry whose note is gone again is dropped: it was a passing state on disk (a topic
 * file between the two steps of an undo), not a note the person handled.
 */
export function mergeQueue(
  previous: readonly QueueEntry[],
  next: readonly QueueEntry[],
): QueueEntry[] {
  const nextByKey = new Map(next.map((e) => [e.key, e]))
  const kept: QueueEntry[] = []
  for (const e of previous) {
    const now = nextByKey.get(e.key)
    if (now) kept.push(e.appended ? { ...now, appended: true } : now)
    else if (!e.appended) kept.push(e)
  }
  const known = new Set(previous.map((e) => e.key))
  const first = previous.length === 0
  return [
    ...kept,
    ...next
      .filter((e) => !known.has(e.key))
      .map((e) => (first ? e : { ...e, appended: true as const })),
  ]
}

/** Whether a queue entry is done: the note was deleted, verified (valid stamp) or rewritten. */
export function isReviewed(state: NotesState, key: string): boolean {
  if (state.rewritten[key]) return true
  const note = findNote(state, key)
  if (!note) return true
  return (state.reviews[key]?.needs ?? null) === null
}

export interface QueueProgress {
  readonly reviewed: number
  readonly total: number
  readonly text: string
}

export function queueProgress(state: NotesState): QueueProgress {
  const total = state.queue.length
  const reviewed = state.queue.filter((e) => isReviewed(state, e.key)).length
  const f = new Intl.NumberFormat()
  return { reviewed, total, text: `${f.format(reviewed)} of ${f.format(total)} reviewed` }
}

/** The queue rows: each entry with its note (null once deleted) and whether it is done. */
export function queueRows(
  state: NotesState,
): { key: string; reason: QueueReason | null; note: AuditNote | null; done: boolean }[] {
  const all = keyedNotes(state.audit)
  const byKey = new Map(all.map((k) => [k.key, k.note]))
  const rows: { key: string; reason: QueueReason | null; note: AuditNote | null; done: boolean }[] =
    state.queue.map((e) => ({
      key: e.key,
      reason: e.reason,
      note: byKey.get(e.key) ?? null,
      done: isReviewed(state, e.key),
    }))
  if (state.queueScope === 'decide') return rows
  // "All notes": the rest after the queue, nothing to decide on them.
  const inQueue = new Set(state.queue.map((e) => e.key))
  for (const { key, note } of all)
    if (!inQueue.has(key)) rows.push({ key, reason: null, note, done: true })
  return rows
}

/** Move the selection by `delta` in `keys` (clamped); with no selection, start at the first. */
export function moveSelection(
  keys: readonly string[],
  selected: string | null,
  delta: number,
): string | null {
  if (keys.length === 0) return null
  const at = selected === null ? -1 : keys.indexOf(selected)
  if (at < 0) return keys[0]
  return keys[Math.max(0, Math.min(keys.length - 1, at + delta))]
}

/** The next entry still to review after `selected` (wrapping round), or null when all are done. */
export function nextUnreviewed(state: NotesState, selected: string | null): string | null {
  const rows = queueRows(state).filter((r) => r.note !== null)
  if (rows.length === 0) return null
  const at = selected === null ? -1 : rows.findIndex((r) => r.key === selected)
  for (let i = 1; i <= rows.length; i++) {
    const r = rows[(at + i + rows.length) % rows.length]
    if (!r.done) return r.key
  }
  return null
}

/** Keys the list shows now: the queue's (skipping deleted notes) or the filtered notes'. */
export function listKeys(state: NotesState, mode: 'notes' | 'queue'): string[] {
  return mode === 'queue'
    ? queueRows(state)
        .filter((r) => r.note !== null)
        .map((r) => r.key)
    : visibleNotes(state).map((k) => k.key)
}

/** After a re-audit, keep the selection; if its note is gone, take the one now at its place. */
function keepSelection(
  before: NotesState,
  after: NotesState,
  mode: 'notes' | 'queue',
): string | null {
  const keys = listKeys(after, mode)
  if (before.selectedKey !== null && keys.includes(before.selectedKey)) return before.selectedKey
  const oldKeys = listKeys(before, mode)
  const at = before.selectedKey === null ? 0 : Math.max(0, oldKeys.indexOf(before.selectedKey))
  return keys[Math.min(at, keys.length - 1)] ?? null
}

/** The reducer; `mode` decides which list the selection follows after a re-audit. */
export function reduceNotes(mode: 'notes' | 'queue') {
  return (state: NotesState, action: NotesAction): NotesState => {
    switch (action.type) {
      case 'audit-start':
        return { ...state, auditing: true, requestId: action.requestId, error: null }
      case 'audit-done': {
        if (action.requestId !== state.requestId || !state.auditing) return state
        const reviews = reviewsByKey(action.view)
        const queue = mergeQueue(state.queue, buildQueue(action.view.audit, reviews))
        const next: NotesState = {
          ...state,
          audit: action.view.audit,
          stamps: action.view.stamps,
          reviews,
          summary: action.view.summary,
          auditing: false,
          error: null,
          queue,
        }
        const selectedKey =
          mode === 'queue' && state.audit === null
            ? nextUnreviewed(next, null)
            : keepSelection(state, next, mode)
        return { ...next, selectedKey }
      }
      case 'audit-failed':
        if (action.requestId !== state.requestId) return state
        return { ...state, auditing: false, error: action.message }
      case 'audit-cancel':
        // The back end may still finish; bumping the id makes its answer be dropped.
        return state.auditing
          ? { ...state, auditing: false, requestId: state.requestId + 1 }
          : state
      case 'filter': {
        const next = { ...state, filter: action.filter }
        const keys = listKeys(next, 'notes')
        return {
          ...next,
          selectedKey:
            state.selectedKey && keys.includes(state.selectedKey)
              ? state.selectedKey
              : (keys[0] ?? null),
        }
      }
      case 'select':
        return { ...state, selectedKey: action.key }
      case 'queue-scope':
        return { ...state, queueScope: action.scope }
      case 'rewritten':
        return { ...state, rewritten: { ...state.rewritten, [action.key]: true } }
      case 'unrewritten': {
        if (!state.rewritten[action.key]) return state
        const { [action.key]: _gone, ...rest } = state.rewritten
        return { ...state, rewritten: rest }
      }
    }
  }
}

export {
  findingReasons,
  firstDiffTab,
  renameReplacement,
  shortPath,
  writtenAtSource,
} from './notes-format'
