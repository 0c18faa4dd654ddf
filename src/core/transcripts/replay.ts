/**
 * Replaying the writes to one file, in time order, into the sequence of its contents — to tell
 * who added each line and which lines a different session's later write removed (docs/memory-rules.md
 * §5, §6.4 "One writer per page"). Pure; uses jsdiff for the line diffs.
 */
import { diffArrays } from 'diff'
import { REPLAY_DIFF_MAX_EDITS, REPLAY_DIFF_MAX_LINES, REPLAY_MAX_CHARS } from '../limits'
import { splitLines } from '../text'
import type { EditOp, WriteInput } from './line'

/**
 * Whether a call took effect: `ok` (a successful result), `failed` (is_error or a string
 * `toolUseResult` — it changed nothing, docs/memory-rules.md §5.3), `unknown` (no result: the transcript
 * ends before one, e.g. a session killed mid-call). Unknown calls are treated as not applied,
 * unless a later `originalFile` anchor shows they were (see `replayWrites`).
 */
export type StepStatus = 'ok' | 'failed' | 'unknown'

/** One write call to the file, paired with its result. */
export interface ReplayStep {
  readonly sessionId: string
  readonly timestamp: string
  readonly input: WriteInput
  readonly status: StepStatus
  /** The file's text just before the call, when the result recorded it: an anchor that resyncs the replay. */
  readonly originalFile: string | null
}

export type StepOutcome =
  /** `exact` is false when an earlier step could not be applied, so the text it edited is a best guess. */
  | { readonly kind: 'applied'; readonly exact: boolean }
  | { readonly kind: 'not-applied'; readonly reason: string }
  | { readonly kind: 'cannot-apply'; readonly reason: string }

/** The replayed text and, per line, the index of the step that added it (null: not seen being written). */
export interface ReplayState {
  readonly text: string
  readonly owners: readonly (number | null)[]
  readonly exact: boolean
}

/**
 * A line one session added and a different session's later write removed: anything a Write
 * dropped, and lines an Edit/MultiEdit deleted outright (not lines it rewrote in place).
 */
export interface LostLine {
  readonly text: string
  readonly addedBy: string
  readonly removedBy: string
  /** Indexes into the replayed steps. */
  readonly addedStep: number
  readonly removedStep: number
  /** False when the removal was seen in text that is a best guess (after a cannot-apply step). */
  readonly exact: boolean
}

export interface ReplayResult {
  /** One outcome per step, same order as the input. */
  readonly outcomes: readonly StepOutcome[]
  /** The replayed content after the last step; null when it never became known. */
  readonly final: ReplayState | null
  /** Every cross-session removal, before filtering against the final content (see `findLostLines`). */
  readonly removals: readonly LostLine[]
  /** Anchors (`originalFile`) that disagreed with the replayed text: writes made outside the history. */
  readonly drifts: number
}

/** Sort items by ISO timestamp, keeping input order for ties and putting unparsable times last. */
export function orderByTime<T extends { readonly timestamp: string }>(items: readonly T[]): T[] {
  return items
    .map((item, i) => ({ item, i, t: Date.parse(item.timestamp) }))
    .sort((a, b) => {
      const ta = Number.isNaN(a.t) ? Infinity : a.t
      const tb = Number.isNaN(b.t) ? Infinity : b.t
      return ta === tb ? a.i - b.i : ta - tb
    })
    .map((x) => x.item)
}

type Applied =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string }

/** An edit whose result would be longer than REPLAY_MAX_CHARS: its length, never built. */
interface TooLong {
  readonly tooLong: number
}

/** Non-overlapping occurrences of `needle` (as split() finds them), counted without building anything. */
function occurrences(text: string, needle: string): number {
  let count = 0
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length))
    count++
  return count
}

/**
 * Replace without `$` patterns (String.replace would expand `$&` in note text). The result's
 * length is computed first: past REPLAY_MAX_CHARS nothing is built (issue 11, item 8).
 */
function replaceIn(text: string, op: EditOp): string | null | TooLong {
  const at = text.indexOf(op.oldString)
  if (at < 0) return null
  const count = op.replaceAll ? occurrences(text, op.oldString) : 1
  const length = text.length + count * (op.newString.length - op.oldString.length)
  if (length > REPLAY_MAX_CHARS) return { tooLong: length }
  if (op.replaceAll) return text.split(op.oldString).join(op.newString)
  return text.slice(0, at) + op.newString + text.slice(at + op.oldString.length)
}

/** Apply one edit like Claude's Edit tool: old_string must occur; an empty old_string only creates. */
function applyOp(text: string, op: EditOp): string | null | TooLong {
  if (op.oldString === '') {
    if (text !== '') return null
    return op.newString.length > REPLAY_MAX_CHARS ? { tooLong: op.newString.length } : op.newString
  }
  const direct = replaceIn(text, op)
  if (direct !== null) return direct
  // The model writes `\n`; a CRLF file is matched on its LF form and written back as CRLF.
  if (text.includes('\r\n')) {
    const lf = replaceIn(text.replace(/\r\n/g, '\n'), op)
    if (lf === null || typeof lf !== 'string') return lf
    const crlf = lf.length + occurrences(lf, '\n')
    if (crlf > REPLAY_MAX_CHARS) return { tooLong: crlf }
    return lf.replace(/\r?\n/g, '\r\n')
  }
  return null
}

const tooLongReason = (which: string, length: number): string =>
  `${which}the result would be ${length.toLocaleString('en')} characters, over the replay limit of ${REPLAY_MAX_CHARS.toLocaleString('en')}; not replayed`

/** The text a write produces from `prev` (null: unknown), or why it cannot be reproduced. */
export function applyWrite(prev: string | null, input: WriteInput): Applied {
  if (input.tool === 'Write') {
    if (input.content.length > REPLAY_MAX_CHARS)
      return { ok: false, reason: tooLongReason('', input.content.length) }
    return { ok: true, text: input.content }
  }
  const ops = input.tool === 'Edit' ? [input.edit] : input.edits
  let text = prev
  if (text === null) {
    // Without the previous text only a creating edit (empty old_string first) can be replayed.
    if (ops[0]?.oldString !== '') {
      return {
        ok: false,
        reason: 'previous content unknown: history starts with an edit and no originalFile',
      }
    }
    text = ''
  }
  for (let i = 0; i < ops.length; i++) {
    const next = applyOp(text, ops[i])
    const which = ops.length > 1 ? `edit ${i + 1} of ${ops.length}: ` : ''
    if (next === null)
      return { ok: false, reason: `${which}old_string not found in the replayed text` }
    if (typeof next !== 'string') return { ok: false, reason: tooLongReason(which, next.tooLong) }
    text = next
  }
  return { ok: true, text }
}

interface Transition {
  readonly owners: (number | null)[]
  /** Removed lines; `replaced` when an added block sits right beside them (the lines were rewritten). */
  readonly removed: readonly {
    readonly text: string
    readonly owner: number | null
    readonly replaced: boolean
  }[]
}

/**
 * Line owners after `prev` → `next`: unchanged lines keep their owner, added lines get `owner`,
 * and a line removed and re-added elsewhere in the same write (a move) keeps its author.
 */
function transition(prev: ReplayState | null, next: string, owner: number | null): Transition {
  const newLines = splitLines(next)
  if (prev === null) return { owners: newLines.map(() => owner), removed: [] }
  const oldLines = splitLines(prev.text)
  // The line diff costs (lines × edits): past either bound, every old line counts as removed
  // and every new one as added, and the move matching below still keeps authors of equal lines.
  const changes = (oldLines.length + newLines.length <= REPLAY_DIFF_MAX_LINES
    ? diffArrays(oldLines, newLines, { maxEditLength: REPLAY_DIFF_MAX_EDITS })
    : undefined) ?? [
    { value: oldLines, added: false, removed: true, count: oldLines.length },
    { value: newLines, added: true, removed: false, count: newLines.length },
  ]
  const pool = new Map<string, { owner: number | null; used: boolean }[]>()
  const removedOrder: { text: string; owner: number | null; used: boolean; replaced: boolean }[] =
    []
  let o = 0
  for (let k = 0; k < changes.length; k++) {
    const c = changes[k]
    if (c.added) continue
    const replaced = c.removed && (changes[k - 1]?.added === true || changes[k + 1]?.added === true)
    for (const line of c.value) {
      if (c.removed) {
        const entry = { text: line, owner: prev.owners[o] ?? null, used: false, replaced }
        removedOrder.push(entry)
        const list = pool.get(line) ?? []
        list.push(entry)
        pool.set(line, list)
      }
      o++
    }
  }
  const owners: (number | null)[] = []
  o = 0
  for (const c of changes) {
    if (c.removed) {
      o += c.value.length
      continue
    }
    for (const line of c.value) {
      if (c.added) {
        const moved = pool.get(line)?.find((e) => !e.used)
        if (moved) {
          moved.used = true
          owners.push(moved.owner)
        } else owners.push(owner)
      } else {
        owners.push(prev.owners[o] ?? null)
        o++
      }
    }
  }
  return { owners, removed: removedOrder.filter((e) => !e.used) }
}

/**
 * Replay writes to one file, given in time order (see `orderByTime`). Failed and unknown calls
 * change nothing. An edit that cannot be reproduced is marked `cannot-apply` with a reason — the
 * text is not guessed; later edits still try the last known text, flagged inexact. A step's
 * `originalFile` re-anchors the text; lines that appear only through an anchor have no owner.
 */
export function replayWrites(steps: readonly ReplayStep[]): ReplayResult {
  const outcomes: StepOutcome[] = []
  const removals: LostLine[] = []
  let state: ReplayState | null = null
  let drifts = 0
  // Unknown-status steps since the last applied one: an anchor may prove they took effect.
  let unknownSince: number[] = []

  const commit = (index: number, text: string, exact: boolean, recordLoss: boolean): void => {
    const prev = state
    const t = transition(prev, text, index)
    if (recordLoss && prev) {
      const by = steps[index].sessionId
      const overwrite = steps[index].input.tool === 'Write'
      for (const r of t.removed) {
        if (r.owner === null || steps[r.owner].sessionId === by) continue
        // An edit matched the text it replaced, so its author saw it: rewriting lines in place is
        // a change, not a loss. A Write replaces the whole file, possibly from a stale view.
        if (!overwrite && r.replaced) continue
        removals.push({
          text: r.text,
          addedBy: steps[r.owner].sessionId,
          removedBy: by,
          addedStep: r.owner,
          removedStep: index,
          exact: prev.exact,
        })
      }
    }
    state = { text, owners: t.owners, exact }
  }

  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]
    if (step.status === 'failed') {
      outcomes.push({ kind: 'not-applied', reason: 'the call failed' })
      continue
    }
    if (step.status === 'unknown') {
      outcomes.push({
        kind: 'not-applied',
        reason: 'no result recorded (transcript ends before it)',
      })
      unknownSince.push(i)
      continue
    }
    if (step.originalFile !== null && (state === null || state.text !== step.originalFile)) {
      if (!proveUnknown(step.originalFile)) {
        if (state !== null) drifts++
        const t = transition(state, step.originalFile, null)
        state = { text: step.originalFile, owners: t.owners, exact: true }
      }
    }
    unknownSince = []
    const current: ReplayState | null = state
    const result = applyWrite(current === null ? null : current.text, step.input)
    if (!result.ok) {
      outcomes.push({ kind: 'cannot-apply', reason: result.reason })
      if (current !== null) state = { ...current, exact: false }
      continue
    }
    const exact = step.input.tool === 'Write' || (current?.exact ?? true)
    outcomes.push({ kind: 'applied', exact })
    commit(i, result.text, exact, true)
  }
  return { outcomes, final: state, removals, drifts }

  /** If applying the unknown steps since the last applied one yields the anchor, they did take effect. */
  function proveUnknown(anchor: string): boolean {
    if (unknownSince.length === 0) return false
    const start: ReplayState | null = state
    let text: string | null = start === null ? null : start.text
    for (const j of unknownSince) {
      const r = applyWrite(text, steps[j].input)
      if (!r.ok) return false
      text = r.text
    }
    if (text !== anchor) return false
    text = start === null ? null : start.text
    const exact = start === null ? true : start.exact
    for (const j of unknownSince) {
      const r = applyWrite(text, steps[j].input)
      if (!r.ok) return false
      text = r.text
      outcomes[j] = { kind: 'applied', exact }
      commit(j, r.text, exact, true)
    }
    return true
  }
}

/**
 * For each line of `current` (the file on disk), the index of the step that added it, or null
 * when the replay cannot tell (the line changed outside the recorded writes).
 */
export function attributeLines(current: string, history: ReplayResult): (number | null)[] {
  const lines = splitLines(current)
  const final = history.final
  if (final === null) return lines.map(() => null)
  const t = transition(final, current, null)
  return t.owners.slice(0, lines.length)
}

/**
 * Lines a session added that a different session's later write removed and that are not in the
 * final content (`current`, else the replayed text). Blank lines are not reported; each
 * (text, addedBy, removedBy) appears once.
 */
export function findLostLines(history: ReplayResult, current: string | null): LostLine[] {
  const finalText = current ?? history.final?.text ?? ''
  const present = new Set(splitLines(finalText).map((l) => l.trimEnd()))
  const seen = new Set<string>()
  const lost: LostLine[] = []
  for (const r of history.removals) {
    const text = r.text.trimEnd()
    if (text.trim() === '' || present.has(text)) continue
    const key = JSON.stringify([text, r.addedBy, r.removedBy])
    if (seen.has(key)) continue
    seen.add(key)
    lost.push(r)
  }
  return lost
}
