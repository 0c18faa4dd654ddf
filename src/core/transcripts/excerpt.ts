/**
 * The excerpt of a session that wrote a note (issue 12 item 9): the person's words, the agent's,
 * and the tool calls with their results in the turns before a write, fed one transcript line at
 * a time (docs/memory-rules.md §5.1). Pure; bounded by src/core/limits.ts whatever the input.
 *
 * Decisions:
 * - A turn starts where the person speaks (a user line with text, not a tool result, not a
 *   `isMeta` line); the excerpt holds the last EXCERPT_MAX_TURNS turns up to the write.
 * - Every text is plain text: control characters, ANSI escapes and bidirectional overrides are
 *   removed, so a hostile transcript cannot restyle or reorder what the window shows.
 * - Only lines of the write's own thread count: its session, and sub-agent lines only when the
 *   write is a sub-agent's (older transcripts mix them in one file, docs/memory-rules.md §1.4).
 */
import type { ExcerptItem } from '../../shared/evidence-model'
import {
  EXCERPT_ITEM_MAX_CHARS,
  EXCERPT_MAX_CHARS,
  EXCERPT_MAX_TURNS,
  EXCERPT_RING_MAX_ITEMS,
} from '../limits'

export interface Excerpt {
  readonly items: readonly ExcerptItem[]
  /** Items before these left out (older turns, or over the size bound). */
  readonly omitted: number
}

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

// ANSI escapes first (they start with ESC, a control character), then other controls and bidi overrides.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]/g
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** Text safe to show as text: no control characters, escapes or direction overrides; `\r\n` → `\n`. */
export function plainText(s: string): string {
  return s.replace(/\r\n?/g, '\n').replace(ANSI, '').replace(CONTROL, '')
}

/** `s` as plain text cut to `max` characters (never inside a surrogate pair). */
export function cutText(s: string, max: number): { text: string; truncated: boolean } {
  // Cut before cleaning: a 50 MB string is never scanned whole.
  const head = s.length > max * 2 ? s.slice(0, max * 2) : s
  const clean = plainText(head)
  if (clean.length <= max && head.length === s.length) return { text: clean, truncated: false }
  let end = Math.min(max, clean.length)
  const c = clean.charCodeAt(end - 1)
  if (c >= 0xd800 && c <= 0xdbff) end--
  return { text: clean.slice(0, end), truncated: true }
}

function oneLine(s: string, max = 300): string {
  return cutText(s.replace(/\s+/g, ' ').trim(), max).text
}

/** A tool call's input on one line: the command, the file, the pattern — what a person reads first. */
export function inputSummary(name: string, input: unknown): string {
  if (!isObject(input)) return ''
  for (const key of ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description']) {
    const v = input[key]
    if (typeof v === 'string' && v !== '') return oneLine(v)
  }
  try {
    return oneLine(JSON.stringify(input) ?? '')
  } catch {
    return name
  }
}

/** The text of a tool result's `content`: a string, or the text blocks of an array. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  const parts: string[] = []
  let size = 0
  for (const b of content) {
    if (isObject(b) && typeof b.text === 'string') {
      parts.push(b.text)
      size += b.text.length
      if (size > EXCERPT_ITEM_MAX_CHARS * 2) break
    } else if (isObject(b) && b.type === 'image') parts.push('[image]')
  }
  return parts.join('\n')
}

/** What the write put in the file: a Write's content, an Edit's new text, a MultiEdit's new texts. */
function writtenText(input: Json): string {
  if (typeof input.content === 'string') return input.content
  if (typeof input.new_string === 'string') return input.new_string
  if (Array.isArray(input.edits))
    return input.edits.map((e) => (isObject(e) ? str(e.new_string) : '')).join('\n…\n')
  return ''
}

function item(
  kind: ExcerptItem['kind'],
  timestamp: string,
  raw: string,
  extra: Partial<Pick<ExcerptItem, 'tool' | 'input' | 'failed'>> = {},
): ExcerptItem {
  const { text, truncated } = cutText(raw, EXCERPT_ITEM_MAX_CHARS)
  return {
    kind,
    timestamp,
    tool: extra.tool ?? null,
    input: extra.input ?? null,
    text,
    truncated,
    failed: extra.failed ?? false,
  }
}

/** The id of the marker item that stands for skipped long lines. */
const LONG = '\0long'

interface Target {
  readonly sessionId: string | null
}

/**
 * Collects excerpts for the write calls `ids` (tool_use ids) of one transcript, one line at a
 * time: `add` each line in file order until `done`, then read `excerpts`.
 */
export class ExcerptCollector {
  readonly #targets: Map<string, Target>
  readonly #found = new Map<string, Excerpt>()
  /** Items of the lines so far, oldest first, at most EXCERPT_RING_MAX_ITEMS. */
  #ring: (ExcerptItem & { readonly id: string | null; readonly side: boolean })[] = []
  #dropped = 0
  #skippedLong = 0

  constructor(ids: Iterable<string>) {
    this.#targets = new Map([...ids].map((id) => [id, { sessionId: null }]))
  }

  get done(): boolean {
    return this.#found.size >= this.#targets.size
  }

  get excerpts(): ReadonlyMap<string, Excerpt> {
    return this.#found
  }

  /** A line too long to read was skipped (said in the excerpt, as an item of its own). */
  skipLongLine(): void {
    const last = this.#ring[this.#ring.length - 1]
    const n = last?.id === LONG ? this.#skippedLong + 1 : 1
    this.#skippedLong = n
    const marker = item(
      'agent',
      last?.timestamp ?? '',
      `[${n} line${n === 1 ? '' : 's'} too long to show]`,
    )
    if (last?.id === LONG)
      this.#ring[this.#ring.length - 1] = { ...marker, id: LONG, side: last.side }
    else this.#push(marker, LONG, last?.side ?? false)
  }

  add(line: string): void {
    if (this.done) return
    // Only message lines matter; the rest is never parsed.
    if (!line.includes('"user"') && !line.includes('"assistant"')) return
    let v: unknown
    try {
      v = JSON.parse(line)
    } catch {
      return
    }
    if (!isObject(v) || !isObject(v.message)) return
    const type = v.type
    const ts = str(v.timestamp)
    const side = v.isSidechain === true
    const content = v.message.content
    if (type === 'user') this.#user(v, ts, side, content)
    else if (type === 'assistant' && Array.isArray(content)) this.#assistant(ts, side, content)
  }

  #push(it: ExcerptItem, id: string | null, side: boolean): void {
    this.#ring.push({ ...it, id, side })
    if (this.#ring.length > EXCERPT_RING_MAX_ITEMS) {
      this.#ring.shift()
      this.#dropped++
    }
  }

  #user(v: Json, ts: string, side: boolean, content: unknown): void {
    if (v.isMeta === true) return
    if (typeof content === 'string') {
      if (content.trim() !== '') this.#push(item('person', ts, content), null, side)
      return
    }
    if (!Array.isArray(content)) return
    const words: string[] = []
    for (const b of content) {
      if (!isObject(b)) continue
      if (b.type === 'text' && typeof b.text === 'string') words.push(b.text)
      else if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
        this.#answer(b.tool_use_id, resultText(b.content), b.is_error === true)
      }
    }
    const said = words.join('\n').trim()
    if (said !== '') this.#push(item('person', ts, said), null, side)
  }

  /** Attach a result to its call (searched from the newest; a result without its call is dropped). */
  #answer(id: string, text: string, failed: boolean): void {
    for (let i = this.#ring.length - 1; i >= 0; i--) {
      const it = this.#ring[i]
      if (it.id !== id || it.kind !== 'tool') continue
      const cut = cutText(text, EXCERPT_ITEM_MAX_CHARS)
      this.#ring[i] = { ...it, text: cut.text, truncated: cut.truncated, failed }
      return
    }
  }

  #assistant(ts: string, side: boolean, content: unknown[]): void {
    for (const b of content) {
      if (!isObject(b)) continue
      if (b.type === 'text' && typeof b.text === 'string' && b.text.trim() !== '') {
        this.#push(item('agent', ts, b.text), null, side)
      } else if (b.type === 'tool_use' && typeof b.id === 'string') {
        const name = str(b.name) || 'tool'
        const input = inputSummary(name, b.input)
        if (this.#targets.has(b.id) && !this.#found.has(b.id)) {
          const written = isObject(b.input) ? writtenText(b.input) : ''
          const write = item('write', ts, written, { tool: name, input })
          this.#found.set(b.id, this.#excerpt(write, side))
        }
        this.#push(item('tool', ts, '', { tool: name, input }), b.id, side)
      }
    }
  }

  /** The last turns before a write on thread `side`, within the size bound, newest kept. */
  #excerpt(write: ExcerptItem, side: boolean): Excerpt {
    const thread = this.#ring.filter((it) => it.side === side)
    let start = 0
    let turns = 0
    for (let i = thread.length - 1; i >= 0; i--) {
      if (thread[i].kind === 'person' && ++turns === EXCERPT_MAX_TURNS) {
        start = i
        break
      }
    }
    const items: ExcerptItem[] = [write]
    let chars = write.text.length
    let i = thread.length - 1
    for (; i >= start; i--) {
      const it = thread[i]
      const size = it.text.length + (it.input?.length ?? 0)
      if (chars + size > EXCERPT_MAX_CHARS) break
      chars += size
      const { id: _id, side: _side, ...plain } = it
      items.push(plain)
    }
    items.reverse()
    return { items, omitted: i + 1 + this.#dropped }
  }
}
