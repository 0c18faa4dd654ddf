/**
 * Verification stamps: a person checked a note against the code (docs/memory-rules.md §6.2, the
 * "verify against ground truth" step) and the stamp remembers the note's text and the
 * content of every file it rests on at that moment. The stamp holds while none of
 * them changes. Pure: hashing and reading happen in src/node/edits/edit-actions.ts.
 */
import type { NoteStamp, NoteStampStatus } from '../../shared/model'

/**
 * What a stamp's key is made from: the note's file and title, not its line, so the
 * stamp follows an entry that moves to another line (the node layer hashes this).
 */
export function stampKeySource(file: string, title: string): string {
  return `${file}#${title}`
}

/** A referenced file as it is now. */
export type ReferenceNow =
  | { readonly kind: 'file'; readonly hash: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly reason: string }

/** The note and what it rests on, as they are now. */
export interface StampedNow {
  /** Hash of the note's text now; null when no note with the stamp's key exists any more. */
  readonly noteHash: string | null
  /** The current state of each path in the stamp's references (absent = missing). */
  readonly references: Readonly<Record<string, ReferenceNow>>
}

/** `path` relative to `root` when inside it, for reasons a person reads. */
function shown(path: string, root: string | null): string {
  if (root !== null) {
    const r = root.endsWith('/') ? root.slice(0, -1) : root
    if (path.startsWith(`${r}/`)) return path.slice(r.length + 1)
  }
  return path
}

/**
 * Compare a stamp with the present: `valid` when the note's text and every referenced
 * file's content are what they were when it was stamped, else `expired` with why.
 */
export function compareStamp(
  stamp: NoteStamp,
  now: StampedNow,
  root: string | null,
): NoteStampStatus {
  const reasons: string[] = []
  const day = stamp.at.slice(0, 10)
  if (now.noteHash === null) {
    reasons.push(`the note “${stamp.title}” is no longer in ${stamp.file}`)
  } else if (now.noteHash !== stamp.noteHash) {
    reasons.push(`the note's text changed since you verified it on ${day}`)
  }
  for (const path of Object.keys(stamp.references).sort()) {
    const then = stamp.references[path]
    const cur: ReferenceNow = now.references[path] ?? { kind: 'missing' }
    const name = `\`${shown(path, root)}\``
    if (cur.kind === 'unreadable') {
      reasons.push(`${name} cannot be read now (${cur.reason})`)
    } else if (cur.kind === 'missing') {
      if (then !== null) reasons.push(`${name} is gone since you verified the note on ${day}`)
    } else if (then === null) {
      reasons.push(`${name} exists now; it was missing when you verified the note on ${day}`)
    } else if (cur.hash !== then) {
      reasons.push(`${name} changed since you verified it on ${day}`)
    }
  }
  return { stamp, state: reasons.length === 0 ? 'valid' : 'expired', reasons }
}

/** True when `value` has the shape of a NoteStamp (stores can hold damaged or old data). */
export function isNoteStamp(value: unknown): value is NoteStamp {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  if (
    typeof v.key !== 'string' ||
    typeof v.file !== 'string' ||
    typeof v.title !== 'string' ||
    typeof v.noteHash !== 'string' ||
    typeof v.at !== 'string' ||
    typeof v.references !== 'object' ||
    v.references === null ||
    Array.isArray(v.references)
  ) {
    return false
  }
  if (v.referenceState !== undefined && typeof v.referenceState !== 'string') return false
  return Object.values(v.references).every((h) => h === null || typeof h === 'string')
}
