/**
 * Reading the excerpts of some write calls from one transcript on disk (issue 12 item 9): the
 * file is streamed in fixed chunks through one handle until every call is found, lines longer
 * than EXCERPT_LINE_MAX_BYTES are skipped without being held, and the pure collector
 * (src/core/transcripts/excerpt.ts) keeps a bounded ring of what came before.
 * A transcript deleted or unreadable is a problem, never an error (docs/memory-rules.md §1.7).
 */
import { constants as fsConstants } from 'node:fs'
import { open } from 'node:fs/promises'
import type { Problem } from '../../shared/model'
import { ExcerptCollector, type Excerpt } from '../../core/transcripts/excerpt'
import { EXCERPT_LINE_MAX_BYTES, TRANSCRIPT_CHUNK_BYTES } from '../../core/limits'

export interface ExcerptRead {
  /** Tool-use id → its excerpt, for the calls found. */
  readonly excerpts: ReadonlyMap<string, Excerpt>
  readonly problem: Problem | null
}

const NEWLINE = 0x0a

/** The excerpts of the write calls `ids` in the transcript `path`. */
export async function readExcerpts(
  path: string,
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<ExcerptRead> {
  const collector = new ExcerptCollector(ids)
  let handle
  try {
    // O_NONBLOCK: a FIFO put in place of a transcript opens at once and is refused below.
    handle = await open(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'transcript no longer exists' : `cannot open: ${code}`
    return { excerpts: collector.excerpts, problem: { path, reason } }
  }
  try {
    const st = await handle.stat()
    if (!st.isFile())
      return { excerpts: collector.excerpts, problem: { path, reason: 'not a regular file' } }
    const chunk = Buffer.alloc(TRANSCRIPT_CHUNK_BYTES)
    let pending: Buffer[] = []
    let pendingBytes = 0
    let skipping = false
    let position = 0
    while (!collector.done && position < st.size) {
      signal?.throwIfAborted()
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position)
      if (bytesRead === 0) break
      position += bytesRead
      let from = 0
      for (;;) {
        const nl = chunk.indexOf(NEWLINE, from)
        const end = nl === -1 || nl >= bytesRead ? bytesRead : nl
        if (!skipping) {
          if (pendingBytes + (end - from) > EXCERPT_LINE_MAX_BYTES) {
            skipping = true
            pending = []
            pendingBytes = 0
          } else {
            pending.push(Buffer.from(chunk.subarray(from, end)))
            pendingBytes += end - from
          }
        }
        if (end === bytesRead) break
        // A whole line: hand it over (or say it was too long).
        if (skipping) collector.skipLongLine()
        else collector.add(Buffer.concat(pending, pendingBytes).toString('utf8'))
        pending = []
        pendingBytes = 0
        skipping = false
        from = end + 1
        if (collector.done) break
      }
    }
    // A last line without its newline (still being written) is read as it is.
    if (!collector.done && !skipping && pendingBytes > 0)
      collector.add(Buffer.concat(pending, pendingBytes).toString('utf8'))
    return { excerpts: collector.excerpts, problem: null }
  } catch (err) {
    if (signal?.aborted) throw err
    const reason = `cannot read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`
    return { excerpts: collector.excerpts, problem: { path, reason } }
  } finally {
    await handle.close()
  }
}
