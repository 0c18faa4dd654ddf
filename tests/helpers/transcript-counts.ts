/** Tallies of what parseTranscriptLine makes of every line of a transcript (for exact-count tests). */
import { parseTranscriptLine, type TranscriptEvent } from '../../src/core/transcripts/line'

export interface TranscriptCounts {
  Write: number
  Edit: number
  MultiEdit: number
  results: number
  failed: number
  skips: number
}

export const NO_EVENTS: Readonly<TranscriptCounts> = {
  Write: 0,
  Edit: 0,
  MultiEdit: 0,
  results: 0,
  failed: 0,
  skips: 0,
}

/** Write/Edit/MultiEdit calls, tool results (and failed ones) and skipped lines; blank lines do not count. */
export function countTranscriptEvents(text: string): TranscriptCounts {
  const c: TranscriptCounts = { ...NO_EVENTS }
  for (const line of text.split('\n')) {
    if (line === '') continue
    const p = parseTranscriptLine(line)
    if (p.kind === 'skip') {
      c.skips++
      continue
    }
    for (const e of p.events) {
      if (e.kind === 'write-call') c[e.input.tool]++
      else {
        c.results++
        if (!e.ok) c.failed++
      }
    }
  }
  return c
}

/** One line per event: `Tool /path` for a write call, `result ok originalLength|-` for a result. */
export function describeWriteEvents(events: readonly TranscriptEvent[]): string[] {
  return events.map((e) =>
    e.kind === 'write-call'
      ? `${e.input.tool} ${e.filePath}`
      : `result ${e.ok} ${e.originalFile === null ? '-' : e.originalFile.length}`,
  )
}
