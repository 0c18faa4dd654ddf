/** How the History tab shows provenance values: times, session ids, write states. Display only. */
import type { ProvenanceFile, ProvenanceWrite } from '../../shared/model'
import { formatDateTime } from '../common/format'

/** Rows of the History tab: the contract's provenance shapes, with their added fields. */
export type WriteRow = ProvenanceWrite
export type LostRow = ProvenanceFile['lost'][number]
export type FileRow = ProvenanceFile

/** First 8 characters of a session id: enough to tell sessions apart on screen. */
export const shortId = (id: string): string => id.slice(0, 8)

/**
 * A moment in the person's locale (common/format.ts; issue 15 item 14), or the raw value when it
 * is not a time. Views put `formatExactTime` (with seconds) in the tooltip.
 */
export function formatTime(iso: string): string {
  return formatDateTime(iso, iso || 'unknown time')
}

/** Writes sorted by time (stable; unparsable times last), as the timeline lists them. */
export function byTime<T extends { readonly timestamp: string }>(rows: readonly T[]): T[] {
  const key = (r: T): number => {
    const t = Date.parse(r.timestamp)
    return Number.isNaN(t) ? Infinity : t
  }
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => key(a.r) - key(b.r) || a.i - b.i)
    .map((x) => x.r)
}

/** A hue per session, so a session's writes and lines share a colour. */
export function sessionHue(id: string): number {
  let h = 0
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0
  return h % 360
}

/** What became of a write: the label, a CSS modifier and the reason to show. */
export function writeState(w: WriteRow): {
  label: string
  tone: 'ok' | 'failed' | 'warn'
  detail: string | null
} {
  if (w.status === 'failed' || (!w.ok && w.status === undefined)) {
    return {
      label: 'failed',
      tone: 'failed',
      detail: w.reason ?? 'the call failed: it changed nothing',
    }
  }
  if (w.status === 'unknown' && !w.ok) {
    return {
      label: 'no result',
      tone: 'warn',
      detail: w.reason ?? 'the transcript ends before a result',
    }
  }
  if (w.replay === 'cannot-apply') {
    return { label: 'ok, not replayable', tone: 'warn', detail: w.reason ?? null }
  }
  return { label: 'ok', tone: 'ok', detail: null }
}

/** The last path segment (a worktree's folder name), for a compact column. */
export function lastSegment(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean)
  return parts[parts.length - 1] ?? path
}

/** Where each session worked, from its writes to the file: branch and launch folder. */
export function sessionPlaces(
  writes: readonly WriteRow[],
): Map<string, { branch: string; cwd: string }> {
  const out = new Map<string, { branch: string; cwd: string }>()
  for (const w of writes)
    if (!out.has(w.sessionId)) out.set(w.sessionId, { branch: w.gitBranch, cwd: w.cwd })
  return out
}
