/**
 * Transcript lines (JSONL) → the file-write events provenance needs (docs/memory-rules.md §5.2).
 * Pure: one line in, events or a counted skip out; never throws on bad input.
 */

/** The tools whose calls change a file's text (docs/memory-rules.md §5.2). */
export type WriteTool = 'Write' | 'Edit' | 'MultiEdit'

/** One string replacement, as Edit and each MultiEdit step apply it. */
export interface EditOp {
  readonly oldString: string
  readonly newString: string
  readonly replaceAll: boolean
}

/** What a write call asks for, by tool. */
export type WriteInput =
  | { readonly tool: 'Write'; readonly content: string }
  | { readonly tool: 'Edit'; readonly edit: EditOp }
  | { readonly tool: 'MultiEdit'; readonly edits: readonly EditOp[] }

/** Fields every message line carries (docs/memory-rules.md §5.1); `""` when a line lacks one. */
export interface LineMeta {
  readonly sessionId: string
  readonly timestamp: string
  readonly cwd: string
  readonly gitBranch: string
  readonly uuid: string
  /** Sub-agent id, when the line comes from a sub-agent (2.x `agentId`). */
  readonly agentId: string | null
  readonly isSidechain: boolean
}

/** A Write/Edit/MultiEdit tool_use block of an assistant line. */
export interface WriteCallEvent extends LineMeta {
  readonly kind: 'write-call'
  readonly toolUseId: string
  /** `file_path` exactly as written in the call (normally absolute). */
  readonly filePath: string
  readonly input: WriteInput
}

/** A tool_result block of a user line: did the call with `toolUseId` succeed? */
export interface ToolResultEvent {
  readonly kind: 'tool-result'
  readonly toolUseId: string
  readonly sessionId: string
  readonly timestamp: string
  /** False when `is_error` is set or `toolUseResult` is a plain string (docs/memory-rules.md §5.3). */
  readonly ok: boolean
  /** The file's text before the call, when the result records it (`originalFile`, or `""` on create). */
  readonly originalFile: string | null
  /** What was really applied, recorded only when the user modified the proposal (`userModified`). */
  readonly applied: WriteInput | null
  /** First line of the error text of a failed call. */
  readonly error: string | null
}

export type TranscriptEvent = WriteCallEvent | ToolResultEvent

export type SkipReason = 'empty' | 'broken-json' | 'not-an-object' | 'unknown-type' | 'bad-shape'

export type ParsedLine =
  | { readonly kind: 'events'; readonly events: readonly TranscriptEvent[] }
  | { readonly kind: 'skip'; readonly reason: SkipReason }

/** Line types Claude Code writes that we know and (mostly) ignore; anything else is a counted skip. */
const KNOWN_TYPES: ReadonlySet<string> = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'result',
  'custom-title',
])

const WRITE_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit'])

export interface QuickMatchOptions {
  /** A substring every interesting `file_path` contains (e.g. `memory`); skips writes to other files. */
  readonly pathNeedle?: string | null
  /**
   * Ids of write calls still waiting for their result. When given, a tool_result line matters
   * only if it names one of them — most tool_result lines answer Bash/Read calls.
   */
  readonly pendingIds?: Iterable<string>
}

/** Bytes frequent in transcripts (English text, JSON, paths, ids): a search anchor avoids starting on one. */
const COMMON_BYTES: ReadonlySet<number> = new Set(
  [...' etaoinsrhldcu"/:,.\\_-0123456789{}'].map((c) => c.charCodeAt(0)),
)
/** Longest anchor: shorter needles take the byte search's fast path (issue 7, ~5× over 8+ bytes). */
export const NEEDLE_ANCHOR_MAX_BYTES = 7
const NEEDLE_ANCHOR_MIN_BYTES = 4

/**
 * The part of a byte needle to search for before checking the whole needle: at most
 * `NEEDLE_ANCHOR_MAX_BYTES` long, starting on the first uncommon byte that leaves at least 4
 * bytes (else the needle's last bytes). Needles this short or shorter are their own anchor.
 */
export function needleAnchor(needle: Uint8Array): { readonly start: number; readonly end: number } {
  const n = needle.length
  if (n <= NEEDLE_ANCHOR_MAX_BYTES) return { start: 0, end: n }
  for (let i = 0; i + NEEDLE_ANCHOR_MIN_BYTES <= n; i++) {
    if (!COMMON_BYTES.has(needle[i]))
      return { start: i, end: Math.min(n, i + NEEDLE_ANCHOR_MAX_BYTES) }
  }
  return { start: n - NEEDLE_ANCHOR_MAX_BYTES, end: n }
}

/**
 * Cheap substring test run before JSON.parse: could this line hold a write call or the result
 * of one? Message lines carry their own sessionId/cwd/gitBranch/timestamp (docs/memory-rules.md §5.1), so
 * no line is needed only for metadata.
 */
export function quickMayMatter(line: string, options: QuickMatchOptions = {}): boolean {
  if (
    line.includes('"tool_use"') &&
    (line.includes('"Write"') || line.includes('"Edit"') || line.includes('"MultiEdit"')) &&
    (options.pathNeedle == null || line.includes(options.pathNeedle))
  ) {
    return true
  }
  if (!line.includes('"tool_result"') && !line.includes('"toolUseResult"')) return false
  if (options.pendingIds === undefined) return true
  for (const id of options.pendingIds) if (line.includes(id)) return true
  return false
}

type Json = Record<string, unknown>

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** Parse one transcript line. Broken JSON, non-objects and unknown types are skips, never throws. */
export function parseTranscriptLine(line: string): ParsedLine {
  const trimmed = line.trim()
  if (trimmed === '') return { kind: 'skip', reason: 'empty' }
  let value: unknown
  try {
    value = JSON.parse(trimmed)
  } catch {
    return { kind: 'skip', reason: 'broken-json' }
  }
  if (!isObject(value)) return { kind: 'skip', reason: 'not-an-object' }
  const type = value.type
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type))
    return { kind: 'skip', reason: 'unknown-type' }
  if (type !== 'assistant' && type !== 'user') return { kind: 'events', events: [] }
  const message = value.message
  if (!isObject(message)) return { kind: 'skip', reason: 'bad-shape' }
  const content = message.content
  // A plain-string content is a prompt or reply: no tool blocks, nothing to record.
  if (typeof content === 'string') return { kind: 'events', events: [] }
  if (!Array.isArray(content)) return { kind: 'skip', reason: 'bad-shape' }
  const meta = lineMeta(value)
  return type === 'assistant' ? assistantEvents(meta, content) : userEvents(value, meta, content)
}

function lineMeta(v: Json): LineMeta {
  return {
    sessionId: str(v.sessionId),
    timestamp: str(v.timestamp),
    cwd: str(v.cwd),
    gitBranch: str(v.gitBranch),
    uuid: str(v.uuid),
    agentId: typeof v.agentId === 'string' ? v.agentId : null,
    isSidechain: v.isSidechain === true,
  }
}

function assistantEvents(meta: LineMeta, content: unknown[]): ParsedLine {
  const events: TranscriptEvent[] = []
  let bad = false
  for (const block of content) {
    if (!isObject(block) || block.type !== 'tool_use') continue
    const name = block.name
    if (typeof name !== 'string' || !WRITE_TOOLS.has(name)) continue
    const id = block.id
    const input = block.input
    if (typeof id !== 'string' || !isObject(input) || typeof input.file_path !== 'string') {
      bad = true
      continue
    }
    const parsed = writeInput(name as WriteTool, input)
    if (parsed === null) {
      bad = true
      continue
    }
    events.push({
      kind: 'write-call',
      ...meta,
      toolUseId: id,
      filePath: input.file_path,
      input: parsed,
    })
  }
  if (bad && events.length === 0) return { kind: 'skip', reason: 'bad-shape' }
  return { kind: 'events', events }
}

/** Read one edit given either as tool input (snake_case) or as a result record (camelCase). */
function editOp(v: unknown): EditOp | null {
  if (!isObject(v)) return null
  const oldString = v.old_string ?? v.oldString
  const newString = v.new_string ?? v.newString
  if (typeof oldString !== 'string' || typeof newString !== 'string') return null
  return { oldString, newString, replaceAll: (v.replace_all ?? v.replaceAll) === true }
}

function writeInput(tool: WriteTool, input: Json): WriteInput | null {
  switch (tool) {
    case 'Write':
      return typeof input.content === 'string' ? { tool, content: input.content } : null
    case 'Edit': {
      const edit = editOp(input)
      return edit ? { tool, edit } : null
    }
    case 'MultiEdit': {
      if (!Array.isArray(input.edits)) return null
      const edits: EditOp[] = []
      for (const e of input.edits) {
        const op = editOp(e)
        if (!op) return null
        edits.push(op)
      }
      return { tool, edits }
    }
  }
}

function userEvents(line: Json, meta: LineMeta, content: unknown[]): ParsedLine {
  const blocks = content.filter((b): b is Json => isObject(b) && b.type === 'tool_result')
  const events: TranscriptEvent[] = []
  // `toolUseResult` describes the line's one result; with several blocks it is ambiguous.
  const record = blocks.length === 1 ? line.toolUseResult : undefined
  for (const block of blocks) {
    const id = block.tool_use_id
    if (typeof id !== 'string') continue
    const stringFailure = typeof record === 'string'
    const ok = block.is_error !== true && !stringFailure
    const rec = isObject(record) ? record : null
    events.push({
      kind: 'tool-result',
      toolUseId: id,
      sessionId: meta.sessionId,
      timestamp: meta.timestamp,
      ok,
      originalFile: ok && rec ? originalFile(rec) : null,
      applied: ok && rec && rec.userModified === true ? appliedInput(rec) : null,
      error: ok ? null : errorText(stringFailure ? record : block.content),
    })
  }
  return { kind: 'events', events }
}

function originalFile(rec: Json): string | null {
  if (typeof rec.originalFile === 'string') return rec.originalFile
  if (typeof rec.originalFileContents === 'string') return rec.originalFileContents
  // A Write that created the file started from nothing.
  if (rec.type === 'create') return ''
  return null
}

function appliedInput(rec: Json): WriteInput | null {
  if (Array.isArray(rec.edits)) return writeInput('MultiEdit', rec)
  if (typeof rec.oldString === 'string') {
    const edit = editOp(rec)
    return edit ? { tool: 'Edit', edit } : null
  }
  if ((rec.type === 'create' || rec.type === 'update') && typeof rec.content === 'string') {
    return { tool: 'Write', content: rec.content }
  }
  return null
}

function errorText(v: unknown): string | null {
  let text: string | null = null
  if (typeof v === 'string') text = v
  else if (Array.isArray(v)) {
    const first = v.find((b) => isObject(b) && typeof b.text === 'string') as Json | undefined
    text = first ? (first.text as string) : null
  }
  if (text === null) return null
  const firstLine =
    text
      .replace(/<\/?tool_use_error>/g, '')
      .trim()
      .split('\n')[0] ?? ''
  return firstLine.slice(0, 300)
}
