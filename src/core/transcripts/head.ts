/**
 * Picking a transcript's launch directory out of its first lines (docs/memory-rules.md §1, §5):
 * the project folder name is lossy, so the real path is the first `cwd` a transcript
 * records. Pure: the caller streams the lines; this only decides what they say.
 */
import { TRANSCRIPT_HEAD_MAX_LINES } from '../limits'

/** What the head of one transcript says about the session that wrote it. */
export interface TranscriptHead {
  /** The first non-empty string `cwd` (summary and snapshot lines have none). */
  readonly cwd: string | null
  /** The first string `sessionId` seen. */
  readonly sessionId: string | null
  /** `gitBranch` of the line that gave the cwd (`""` outside git, docs/memory-rules.md §5.1). */
  readonly gitBranch: string | null
  /** The first top-level string `timestamp` seen. */
  readonly firstTimestamp: string | null
  /** Lines that are not a JSON object, including a line cut at the byte cap. */
  readonly badLines: number
  /** Lines looked at (blank ones included). */
  readonly linesRead: number
}

/** A head being read line by line; `done` once the cwd is found or the line cap is reached. */
export interface TranscriptHeadState extends TranscriptHead {
  readonly done: boolean
}

/** The state before any line. */
export const EMPTY_TRANSCRIPT_HEAD: TranscriptHeadState = {
  cwd: null,
  sessionId: null,
  gitBranch: null,
  firstTimestamp: null,
  badLines: 0,
  linesRead: 0,
  done: false,
}

/** Feed one complete line (without its `\n`) to the head; lines after `done` change nothing. */
export function stepTranscriptHead(state: TranscriptHeadState, line: string): TranscriptHeadState {
  if (state.done) return state
  const linesRead = state.linesRead + 1
  const capped = linesRead >= TRANSCRIPT_HEAD_MAX_LINES
  const text = linesRead === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line
  if (text.trim() === '') return { ...state, linesRead, done: capped }
  const obj = parseObject(text)
  if (!obj) return { ...state, linesRead, badLines: state.badLines + 1, done: capped }
  const sessionId = state.sessionId ?? stringField(obj, 'sessionId')
  const firstTimestamp = state.firstTimestamp ?? stringField(obj, 'timestamp')
  const cwd = stringField(obj, 'cwd')
  if (cwd !== null && cwd !== '') {
    return {
      ...state,
      linesRead,
      sessionId,
      firstTimestamp,
      cwd,
      gitBranch: stringField(obj, 'gitBranch'),
      done: true,
    }
  }
  return { ...state, linesRead, sessionId, firstTimestamp, done: capped }
}

/**
 * A line that was cut at the byte cap before its end. A truncated *last* line is
 * normal (we stopped reading) and ignored; a first line longer than the whole head
 * can never be parsed, so it counts as bad.
 */
export function cutTranscriptHeadLine(state: TranscriptHeadState): TranscriptHeadState {
  if (state.done || state.linesRead > 0) return { ...state, done: true }
  return { ...state, linesRead: 1, badLines: 1, done: true }
}

/**
 * Read a head from text already in memory. `complete` says the text reaches the end
 * of the file; otherwise the part after the last `\n` is a cut line.
 */
export function pickTranscriptHead(text: string, complete = true): TranscriptHead {
  const parts = text.split('\n')
  const tail = parts.pop() ?? ''
  let state = EMPTY_TRANSCRIPT_HEAD
  for (const part of parts) state = stepTranscriptHead(state, part)
  if (tail !== '') state = complete ? stepTranscriptHead(state, tail) : cutTranscriptHeadLine(state)
  return withoutDone(state)
}

/** Drop the reading flag from a finished state. */
export function withoutDone(state: TranscriptHeadState): TranscriptHead {
  const { done: _done, ...head } = state
  return head
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text)
    return v !== null && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

function stringField(obj: Record<string, unknown>, key: string): string | null {
  const v = obj[key]
  return typeof v === 'string' ? v : null
}
