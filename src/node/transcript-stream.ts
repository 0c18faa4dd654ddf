/**
 * Streaming a JSONL transcript for write events with bounded memory (memory-facts §5):
 * fixed-size chunks through one file handle, byte-level needle search so the ~99% of lines
 * that cannot matter are never decoded or parsed, and a cap on how much of one line is held.
 */
import { constants as fsConstants } from 'node:fs'
import { open } from 'node:fs/promises'
import type { Problem } from '../core/model'
import {
  parseTranscriptLine,
  quickMayMatter,
  type SkipReason,
  type TranscriptEvent,
  type WriteCallEvent,
} from '../core/transcript'
import { TRANSCRIPT_CHUNK_BYTES, TRANSCRIPT_LINE_MAX_BYTES } from '../core/limits'

export { TRANSCRIPT_CHUNK_BYTES, TRANSCRIPT_LINE_MAX_BYTES }

/** Bytes read per call. Our own tuning, not an agent rule. */
/** The longest line we hold in memory; longer ones (huge tool results) are skipped and counted. */

export type StreamSkip = SkipReason | 'too-long'

export interface StreamOptions {
  /** Byte offset to start at; must be the start of a line (an offset a previous read returned). */
  readonly startOffset?: number
  /**
   * Substring every interesting `file_path` contains, as it appears in the raw JSON (e.g.
   * `/memory/`). When given, it is the only needle scanned for besides pending result ids, so
   * pick a rare one; lines without it are never decoded.
   */
  readonly pathNeedle?: string | null
  /** Keep only calls this accepts (others are neither returned nor awaited). Default: all. */
  readonly isTarget?: (call: WriteCallEvent) => boolean
  /** Ids of kept calls whose result had not arrived when the previous read stopped. */
  readonly pendingIds?: Iterable<string>
  readonly maxLineBytes?: number
  readonly chunkBytes?: number
  readonly signal?: AbortSignal
  /** Called after each chunk with the number of bytes just read. */
  readonly onBytes?: (bytes: number) => void
}

export interface StreamStats {
  readonly bytesRead: number
  /** Lines decoded because a needle matched (the rest were never decoded). */
  readonly linesExamined: number
  /** Lines given to JSON.parse. */
  readonly linesParsed: number
  readonly skippedLines: number
  readonly skips: Readonly<Partial<Record<StreamSkip, number>>>
}

export type StreamResult =
  | (StreamStats & {
      readonly kind: 'ok'
      /** Kept write calls and the results of kept calls, in file order. */
      readonly events: readonly TranscriptEvent[]
      /** Size of the file when reading began; reading stops there. */
      readonly size: number
      readonly mtimeMs: number
      /** Byte offset just after the last complete line: where the next read resumes. */
      readonly endOffset: number
      /** Kept calls still without a result. */
      readonly pending: readonly string[]
      /** True when the file ends in a line without its newline (still being written): not parsed. */
      readonly partialTail: boolean
    })
  | { readonly kind: 'error'; readonly problem: Problem }

const NL = 0x0a
/** Byte needles for the tool names: `Edit"` covers both `"Edit"` and `"MultiEdit"` in one pass. */
const TOOL_NEEDLES = ['"Write"', 'Edit"'].map((s) => Buffer.from(s))

/**
 * Read a transcript from `startOffset` to its current end and return the write events found.
 * Never throws for file problems (they come back as `kind: 'error'`); rejects only on abort.
 */
export async function streamTranscript(
  path: string,
  options: StreamOptions = {},
): Promise<StreamResult> {
  const maxLine = options.maxLineBytes ?? TRANSCRIPT_LINE_MAX_BYTES
  // A chunk never exceeds the line cap, so any over-long line must cross the carry and be caught.
  const chunkSize = Math.max(1, Math.min(options.chunkBytes ?? TRANSCRIPT_CHUNK_BYTES, maxLine))
  const isTarget = options.isTarget ?? (() => true)
  // One byte scan per needle per chunk: a rare path needle alone beats the tool names.
  const scanNeedles = options.pathNeedle ? [Buffer.from(options.pathNeedle)] : TOOL_NEEDLES
  const pending = new Map<string, Buffer>()
  for (const id of options.pendingIds ?? []) pending.set(id, Buffer.from(id))
  const events: TranscriptEvent[] = []
  const skips: Partial<Record<StreamSkip, number>> = {}
  let linesExamined = 0
  let linesParsed = 0
  let skippedLines = 0
  const skip = (reason: StreamSkip): void => {
    skips[reason] = (skips[reason] ?? 0) + 1
    skippedLines++
  }

  let handle
  try {
    handle = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch (err) {
    return { kind: 'error', problem: { path, reason: `cannot open: ${errCode(err)}` } }
  }
  try {
    const st = await handle.stat()
    if (!st.isFile()) return { kind: 'error', problem: { path, reason: 'not a regular file' } }
    const size = st.size
    const start = Math.min(Math.max(0, options.startOffset ?? 0), size)
    const readBuf = Buffer.allocUnsafe(chunkSize)
    let fileOffset = start
    let committed = start
    let carry: Buffer[] = []
    let carryLen = 0
    let skipping = false
    let bytesRead = 0

    /** Examine the complete lines in work[from, limit) where work[limit] is a newline. */
    const processRegion = (work: Buffer, from: number, limit: number): void => {
      const cursors = scanNeedles.map((buf) => ({ buf, next: -1 }))
      const idCursors = new Map<string, { buf: Buffer; next: number }>()
      for (const [id, buf] of pending) idCursors.set(id, { buf, next: -1 })
      let pos = from
      const advance = (c: { buf: Buffer; next: number }): number => {
        if (c.next !== Infinity && c.next < pos) {
          const at = work.indexOf(c.buf, pos)
          c.next = at < 0 || at >= limit ? Infinity : at
        }
        return c.next
      }
      while (pos < limit) {
        let hit = Infinity
        for (const c of cursors) hit = Math.min(hit, advance(c))
        for (const c of idCursors.values()) hit = Math.min(hit, advance(c))
        if (hit === Infinity) break
        const lineStart = work.lastIndexOf(NL, hit) + 1
        const lineEnd = work.indexOf(NL, hit)
        pos = lineEnd + 1
        let line = work.toString('utf8', Math.max(lineStart, from), lineEnd)
        if (line.endsWith('\r')) line = line.slice(0, -1)
        linesExamined++
        if (!quickMayMatter(line, { pathNeedle: options.pathNeedle, pendingIds: pending.keys() }))
          continue
        linesParsed++
        const parsed = parseTranscriptLine(line)
        if (parsed.kind === 'skip') {
          skip(parsed.reason)
          continue
        }
        for (const e of parsed.events) {
          if (e.kind === 'write-call') {
            if (!isTarget(e)) continue
            events.push(e)
            const buf = Buffer.from(e.toolUseId)
            pending.set(e.toolUseId, buf)
            idCursors.set(e.toolUseId, { buf, next: -1 })
          } else if (pending.has(e.toolUseId)) {
            events.push(e)
            pending.delete(e.toolUseId)
            idCursors.delete(e.toolUseId)
          }
        }
      }
    }

    while (fileOffset < size) {
      options.signal?.throwIfAborted()
      const want = Math.min(chunkSize, size - fileOffset)
      const { bytesRead: n } = await handle.read(readBuf, 0, want, fileOffset)
      if (n === 0) break
      const chunkStart = fileOffset
      fileOffset += n
      bytesRead += n
      options.onBytes?.(n)
      let data = readBuf.subarray(0, n)
      let dataStart = chunkStart
      if (skipping) {
        const nl = data.indexOf(NL)
        if (nl < 0) continue
        skipping = false
        skip('too-long')
        data = data.subarray(nl + 1)
        dataStart = chunkStart + nl + 1
        committed = dataStart
      }
      const lastNl = data.lastIndexOf(NL)
      if (lastNl < 0) {
        carry.push(Buffer.from(data))
        carryLen += data.length
        if (carryLen > maxLine) {
          skipping = true
          carry = []
          carryLen = 0
        }
        continue
      }
      let work = data
      let from = 0
      if (carryLen > 0) {
        const firstNl = data.indexOf(NL)
        if (carryLen + firstNl > maxLine) {
          skip('too-long')
          from = firstNl + 1
        } else {
          work = Buffer.concat([...carry, data])
        }
      }
      const base = work === data ? dataStart : dataStart - carryLen
      const limit = work === data ? lastNl : carryLen + lastNl
      if (from <= limit) processRegion(work, from, limit)
      committed = base + limit + 1
      carry = lastNl + 1 < data.length ? [Buffer.from(data.subarray(lastNl + 1))] : []
      carryLen = data.length - lastNl - 1
    }
    return {
      kind: 'ok',
      events,
      size,
      mtimeMs: st.mtimeMs,
      endOffset: committed,
      pending: [...pending.keys()],
      partialTail: carryLen > 0 || skipping,
      bytesRead,
      linesExamined,
      linesParsed,
      skippedLines,
      skips,
    }
  } catch (err) {
    if (options.signal?.aborted) throw err
    return { kind: 'error', problem: { path, reason: `cannot read: ${errCode(err)}` } }
  } finally {
    await handle.close()
  }
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? String(err)
}
