/**
 * An undo-log entry as a sentence of what was done (issue 15 item 14): "Deleted the entry
 * “Coupons” (line 5) from MEMORY.md", "Undid: rewrote the note “Build”", never `undo 20261201T…`.
 * The log keeps the reason each change was made with (a plan's title, a note action); this turns
 * it into the past tense and names the file when the reason does not.
 */
import type { OperationInfo } from '../../shared/model'

export const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? p

/** Leading verbs of the reasons the window writes with, and their past tense. */
const PAST: readonly [RegExp, string][] = [
  [/^roll back\b/i, 'Rolled back'],
  [/^move\b/i, 'Moved'],
  [/^delete\b/i, 'Deleted'],
  [/^remove\b/i, 'Removed'],
  [/^extract\b/i, 'Extracted'],
  [/^replace\b/i, 'Replaced'],
  [/^rewrite\b/i, 'Rewrote'],
  [/^restore\b/i, 'Restored'],
  [/^follow\b/i, 'Followed'],
  [/^fit\b/i, 'Fitted'],
  [/^apply\b/i, 'Applied'],
  [/^add\b/i, 'Added'],
  [/^create\b/i, 'Created'],
  [/^write\b/i, 'Wrote'],
  [/^edit\b/i, 'Edited'],
  [/^verify\b/i, 'Verified'],
  [/^mark\b/i, 'Marked'],
]

/** An undo written before undo entries were described: `undo <operation id>`. */
const BARE_UNDO = /^undo \S+$/

/** The reason in the past tense, capitalised ("delete note “X”" → "Deleted note “X”"). */
export function pastTense(reason: string): string {
  const text = reason.trim()
  for (const [verb, past] of PAST) {
    const m = verb.exec(text)
    if (m) return past + text.slice(m[0].length)
  }
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** What an operation did to its file, in a few words ("MEMORY.md changed"). */
export function operationEffect(o: OperationInfo): string {
  const file = baseName(o.path)
  if (o.op === 'create') return `${file} created`
  if (o.op === 'delete') return `${file} moved to the trash`
  return `${file} changed`
}

function plainChange(o: OperationInfo): string {
  const file = baseName(o.path)
  if (o.op === 'create') return `Created ${file}`
  if (o.op === 'delete') return `Deleted ${file}`
  return `Changed ${file}`
}

/**
 * The sentence for one entry of the log. `byId` holds the whole log, so an undo can say what it
 * undid; an entry without a reason says what happened to which file.
 */
export function describeOperation(
  o: OperationInfo,
  byId: ReadonlyMap<string, OperationInfo>,
  depth = 0,
): string {
  const file = baseName(o.path)
  if (o.undoes !== undefined || BARE_UNDO.test(o.reason)) {
    const original = o.undoes !== undefined ? byId.get(o.undoes) : undefined
    if (!original || depth > 3) return `Undid an earlier change to ${file}`
    const what = describeOperation(original, byId, depth + 1)
    return `Undid: ${what.charAt(0).toLowerCase()}${what.slice(1)}`
  }
  const reason = o.reason.trim()
  if (reason === '') return plainChange(o)
  const sentence = pastTense(reason)
  if (sentence.includes(file)) return sentence
  const preposition = /^(Deleted|Removed)\b/.test(sentence) ? 'from' : 'in'
  return `${sentence} ${preposition} ${file}`
}

/** Every entry of the log by id (for `describeOperation`). */
export function operationsById(ops: readonly OperationInfo[]): Map<string, OperationInfo> {
  return new Map(ops.map((o) => [o.id, o]))
}
