/**
 * Beside a note, the session that wrote it (issue 12 items 9 and 10): the person's words, the
 * agent's, and the tool results in the turns before each write, from the live transcript or the
 * evidence archive; and, for the folder, which notes have such evidence and which never will.
 * Everything from a transcript is hostile input: it is shown as plain text only (no markup, no
 * links), as the back end already stripped control and direction characters.
 */
import { useEffect, useState } from 'react'
import type { AuditNote } from '../../shared/model'
import type {
  ExcerptItem,
  NoteEvidence,
  NoteEvidenceResult,
  NoteOrigin as Origin,
  NoteOriginWrite,
} from '../../shared/api'
import { getApi } from '../api/api-client'
import { afterDiff } from './diff-first'
import { countOf, formatDateTime, formatNumber } from '../common/format'
import { baseName } from '../common/operation-words'
import './note-origin.css'

type Load<T> =
  | { readonly kind: 'loading' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'ok'; readonly value: T }

const STATE_LABEL: Readonly<Record<NoteEvidence['state'], string>> = {
  live: 'transcript on disk',
  archived: 'archived',
  none: 'no record',
}

const ITEM_LABEL: Readonly<Record<'person' | 'agent', string>> = {
  person: 'The person said',
  agent: 'The agent said',
}

const count = (n: number, word: string): string => countOf(n, word)
const when = (iso: string): string => formatDateTime(iso, iso)

/** The evidence of the folder's notes, in words: how many have it, and how many never will. */
export function evidenceSummary(r: NoteEvidenceResult): string {
  const by = (f: (e: NoteEvidence) => boolean) => r.notes.filter((n) => f(n.evidence)).length
  const live = by((e) => e.state === 'live')
  const archived = by((e) => e.state === 'archived')
  const hand = by((e) => e.never === 'by-hand')
  const before = by((e) => e.never === 'before-transcripts')
  const parts = [
    `${count(live, 'note')} with the transcript on disk`,
    `${formatNumber(archived)} archived`,
  ]
  const never: string[] = []
  if (hand > 0) never.push(`${formatNumber(hand)} written by hand`)
  if (before > 0) never.push(`${formatNumber(before)} written before any transcript we saw`)
  return `Evidence in this folder: ${parts.join(', ')}${never.length > 0 ? `; never will: ${never.join(', ')}` : ''}.`
}

function Item({ item }: { item: ExcerptItem }) {
  const head =
    item.kind === 'write'
      ? `Wrote ${baseName(item.input ?? '')} (${item.tool ?? 'write'})`
      : item.kind === 'tool'
        ? `${item.tool ?? 'Tool'}${item.input ? `: ${item.input}` : ''}`
        : ITEM_LABEL[item.kind]
  return (
    <li
      className={`origin-item origin-${item.kind}${item.failed ? ' origin-failed' : ''}`}
      data-testid="origin-item"
    >
      <div className="origin-item-head" title={item.input ?? undefined}>
        <span>{head}</span>
        {item.failed && <span className="origin-failed-label">failed</span>}
      </div>
      {item.text !== '' && <pre className="origin-text">{item.text}</pre>}
      {item.truncated && (
        <div className="muted origin-cut">… cut here (too long to show whole)</div>
      )}
    </li>
  )
}

function Write({ write, open }: { write: NoteOriginWrite; open: boolean }) {
  return (
    <details className="origin-write" open={open} data-testid="origin-write">
      <summary>
        {write.tool} by session <code>{write.sessionId.slice(0, 8)}</code>, {when(write.timestamp)}
        <span className={`origin-source origin-source-${write.source}`}>
          {write.source === 'live' ? 'from the transcript' : 'from the archive'}
        </span>
      </summary>
      {write.omitted > 0 && (
        <p className="muted origin-omitted">{count(write.omitted, 'earlier item')} not shown.</p>
      )}
      <ol className="origin-items">
        {write.items.map((it, i) => (
          <Item key={i} item={it} />
        ))}
      </ol>
      <p className="muted origin-where" title={write.transcript}>
        {write.archivedAt
          ? `Archived ${when(write.archivedAt)}; transcript ${baseName(write.transcript)}.`
          : `Not archived; transcript ${baseName(write.transcript)}.`}
      </p>
    </details>
  )
}

/** The folder's evidence, asked once per memory folder until something changes on disk. */
const summaries = new Map<string, Promise<NoteEvidenceResult>>()
let watching = false
/** One subscription for the module (not one per mount): a change drops every kept summary. */
function watchChanges(): void {
  if (watching) return
  watching = true
  getApi().onDidChange(() => summaries.clear())
}

export function NoteOrigin({ note, memoryDir }: { note: AuditNote; memoryDir: string }) {
  const [origin, setOrigin] = useState<Load<Origin | null>>({ kind: 'loading' })
  const [summary, setSummary] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    setOrigin({ kind: 'loading' })
    // After the note's diff is in (diff-first.ts): this reads transcripts.
    void afterDiff().then(() => {
      if (!live) return
      getApi()
        .noteOrigin(memoryDir, note.file, note.line)
        .then(
          (value) => live && setOrigin({ kind: 'ok', value }),
          (e: Error) => live && setOrigin({ kind: 'error', message: e.message }),
        )
    })
    return () => {
      live = false
    }
    // A new audit brings new note objects: the note may have changed, so ask again.
  }, [memoryDir, note])
  useEffect(() => {
    let live = true
    watchChanges()
    let p = summaries.get(memoryDir)
    if (!p) {
      p = afterDiff().then(() => getApi().noteEvidence(memoryDir))
      summaries.set(memoryDir, p)
      p.catch(() => summaries.delete(memoryDir))
    }
    p.then(
      (r) => live && setSummary(evidenceSummary(r)),
      () => live && setSummary(null),
    )
    return () => {
      live = false
    }
  }, [memoryDir, note])

  return (
    <section
      className="note-origin"
      data-testid="note-origin"
      aria-label="Where this note came from"
    >
      <h3>Where this note came from</h3>
      {origin.kind === 'loading' && <p className="muted">Reading the session that wrote it…</p>}
      {origin.kind === 'error' && (
        <p className="origin-error" role="alert">
          Cannot read where this note came from: {origin.message}
        </p>
      )}
      {origin.kind === 'ok' && origin.value === null && (
        <p className="muted">No note starts at this line any more.</p>
      )}
      {origin.kind === 'ok' && origin.value !== null && (
        <>
          <p className="origin-evidence" data-testid="origin-evidence">
            <span className={`origin-badge origin-badge-${origin.value.evidence.state}`}>
              {STATE_LABEL[origin.value.evidence.state]}
            </span>{' '}
            {origin.value.evidence.reason}
          </p>
          {origin.value.writes.map((w, i) => (
            <Write key={`${w.sessionId}:${w.toolUseId}`} write={w} open={i === 0} />
          ))}
        </>
      )}
      {summary && (
        <p className="muted origin-summary" data-testid="origin-summary">
          {summary}
        </p>
      )}
    </section>
  )
}
