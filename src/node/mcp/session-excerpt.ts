/**
 * What a session was doing when it wrote a note (issue 18 item 3, `note_origin`): the person's
 * last message before the write and the agent's words beside it, from the session's transcript
 * (docs/memory-rules.md §1.4). Transcripts are hostile input: read line by line with a cap on
 * a line and on the whole read; a line that is not JSON is passed over.
 */
import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'

/** Characters of one side of an excerpt. */
const EXCERPT_MAX_CHARS = 1500
/** Longest transcript line looked at (huge tool results are skipped). */
const LINE_MAX_CHARS = 1024 * 1024
/** Most bytes read from one transcript. */
const READ_MAX_BYTES = 256 * 1024 * 1024

export interface SessionExcerpt {
  /** The person's last message before the write. */
  readonly prompt: string | null
  /** The agent's text in the message that made the write, else its last text before it. */
  readonly reply: string | null
  readonly timestamp: string | null
}

const clip = (s: string): string =>
  s.length > EXCERPT_MAX_CHARS ? `${s.slice(0, EXCERPT_MAX_CHARS)}…` : s

type Block = { type?: unknown; text?: unknown; id?: unknown }

function texts(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return (content as Block[])
    .filter((b) => b && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n')
}

/** The excerpt around the tool call `toolUseId` in `transcript`, or null when it is not found. */
export async function sessionExcerpt(
  transcript: string,
  toolUseId: string,
): Promise<SessionExcerpt | null> {
  const stream = createReadStream(transcript, { encoding: 'utf8', end: READ_MAX_BYTES - 1 })
  const lines = createInterface({ input: stream, crlfDelay: Infinity })
  let prompt: string | null = null
  let reply: string | null = null
  try {
    for await (const line of lines) {
      if (line.length > LINE_MAX_CHARS || line.trim() === '') continue
      let rec: { type?: unknown; timestamp?: unknown; message?: { content?: unknown } }
      try {
        rec = JSON.parse(line) as typeof rec
      } catch {
        continue
      }
      const content = rec.message?.content
      if (rec.type === 'user') {
        const t = texts(content).trim()
        if (t !== '') prompt = t
      } else if (rec.type === 'assistant') {
        const t = texts(content).trim()
        const made =
          Array.isArray(content) &&
          (content as Block[]).some((b) => b && b.type === 'tool_use' && b.id === toolUseId)
        if (made)
          return {
            prompt: prompt === null ? null : clip(prompt),
            reply: clip(t !== '' ? t : (reply ?? '')) || null,
            timestamp: typeof rec.timestamp === 'string' ? rec.timestamp : null,
          }
        if (t !== '') reply = t
      }
    }
  } catch {
    return null // gone mid-read (§1.7) or unreadable: no excerpt
  } finally {
    lines.close()
    stream.destroy()
  }
  return null
}
