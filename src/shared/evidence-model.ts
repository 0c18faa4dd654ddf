/**
 * The result shapes of a note's evidence: the session that wrote it, as excerpts of its
 * transcript, live or archived in our state folder (issue 12 items 9 and 10; docs/cli.md §7, §8).
 */
import type { Problem } from './model'

/** `live`: its transcript is on disk; `archived`: kept in our state folder; `none`: no record. */
export type EvidenceState = 'live' | 'archived' | 'none'

export interface NoteEvidence {
  readonly state: EvidenceState
  /** Why there is none: no recorded session wrote its lines, or it was written before any transcript seen. */
  readonly never: 'by-hand' | 'before-transcripts' | null
  /** In words: where the evidence is, or why there is none. */
  readonly reason: string
  /** Writes with an excerpt (live or archived). */
  readonly writes: number
}

/** One thing in the turns before a write: the person's words, the agent's, a tool call and its result, the write. */
export interface ExcerptItem {
  readonly kind: 'person' | 'agent' | 'tool' | 'write'
  readonly timestamp: string
  /** The tool's name, for `tool` and `write`. */
  readonly tool: string | null
  /** What the tool was asked (a command, a file), on one line. */
  readonly input: string | null
  /** The words, the tool's result or the text written; plain text, cut to a bound. */
  readonly text: string
  readonly truncated: boolean
  /** For `tool`: the result was an error. */
  readonly failed: boolean
}

export interface NoteOriginWrite {
  readonly sessionId: string
  readonly timestamp: string
  readonly tool: string
  readonly transcript: string
  readonly toolUseId: string
  readonly source: 'live' | 'archived'
  /** When the excerpt was archived (null when not, e.g. the archive is full). */
  readonly archivedAt: string | null
  readonly items: readonly ExcerptItem[]
  /** Items before these left out (older turns, or over the size bound). */
  readonly omitted: number
}

/** The transcript excerpts that wrote one note, newest write first. */
export interface NoteOrigin {
  readonly file: string
  readonly line: number
  readonly endLine: number
  readonly title: string
  readonly evidence: NoteEvidence
  readonly writes: readonly NoteOriginWrite[]
  readonly problems: readonly Problem[]
}

export interface NoteEvidenceEntry {
  readonly file: string
  readonly line: number
  readonly endLine: number
  readonly title: string
  readonly topicFile: string | null
  readonly evidence: NoteEvidence
}

/** The evidence of every note of a memory folder (archiving what is seen for the first time). */
export interface NoteEvidenceResult {
  readonly notes: readonly NoteEvidenceEntry[]
  readonly problems: readonly Problem[]
}
