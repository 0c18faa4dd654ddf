/** One note: its verdict and why, when it was written and how we know, and what it rests on. */
import type { AuditNote, Verdict } from '../../shared/model'
import type { NoteReview } from '../../shared/api'
import { VERDICT_LABEL, findingReasons, shortPath, writtenAtSource } from './notes-state'
import { TableHead } from '../common/table-head'
import { formatDateTime, formatExactTime } from '../common/format'
import { REFERENCE_SENTENCES, REFERENCE_WORDS, codeTooltip } from '../common/wording'

/** A date and time in the person's locale (common/format.ts); the raw value when it is not a time. */
export function localTime(iso: string): string {
  return formatDateTime(iso, iso)
}

/**
 * The note's standing: its verdict, or "verified" when the person's verification overrides it
 * (issue 15 item 3: never "stale ✓ verified"; the verdict it overrides is in the tooltip).
 */
export function VerdictBadge({
  verdict,
  review = null,
}: {
  verdict: Verdict
  review?: NoteReview | null
}) {
  const standing = review?.standing ?? verdict
  const title =
    standing === 'verified' && review?.verifiedAt
      ? `The audit says ${VERDICT_LABEL[verdict]}; you verified this note on ${localTime(review.verifiedAt)}. That stands until the code it rests on changes.`
      : undefined
  return (
    <span
      className={`verdict-badge verdict-${standing}`}
      data-testid="verdict-badge"
      data-standing={standing}
      title={title}
    >
      {VERDICT_LABEL[standing]}
    </span>
  )
}

/** A verification on a note the verdict badge does not already speak for: on a fresh note, or lapsed. */
export function StampBadge({ review }: { review: NoteReview | null }) {
  if (!review || review.verification === 'none') return null
  if (review.verification === 'valid') {
    if (review.standing === 'verified') return null
    return (
      <span
        className="stamp-badge stamp-valid"
        title={review.verifiedAt ? `Verified ${localTime(review.verifiedAt)}` : 'Verified'}
        data-testid="stamp-badge"
      >
        ✓ verified
      </span>
    )
  }
  return (
    <span
      className="stamp-badge stamp-expired"
      title={review.lapsedBecause.join('\n')}
      data-testid="stamp-badge"
    >
      verification lapsed
    </span>
  )
}

export function NoteDetail({
  note,
  review,
  memoryDir,
  repoRoot,
}: {
  note: AuditNote
  review: NoteReview | null
  memoryDir: string
  repoRoot: string | null
}) {
  const source = writtenAtSource(note)
  const reasons = findingReasons(note)
  const where = `${shortPath(note.file, [memoryDir, repoRoot])}:${note.line}${note.endLine > note.line ? `–${note.endLine}` : ''}`
  return (
    <div className="note-detail" data-testid="note-detail">
      <div className="note-detail-head">
        <VerdictBadge verdict={note.verdict} review={review} />
        <h2 title={note.title}>{note.title}</h2>
        <StampBadge review={review} />
      </div>
      <div className="note-meta">
        <span title={note.file}>
          <code>{where}</code>
        </span>
        <span data-testid="written-at">
          written{' '}
          {note.writtenAt ? (
            <time dateTime={note.writtenAt} title={formatExactTime(note.writtenAt)}>
              {localTime(note.writtenAt)}
            </time>
          ) : (
            'at an unknown time'
          )}
          {source && <span className="muted"> — from {source}</span>}
        </span>
        {review?.verifiedAt && (
          <span className="muted" data-testid="verified-line">
            {review.verification === 'valid'
              ? review.standing === 'verified'
                ? `you verified it on ${localTime(review.verifiedAt)}: it counts as right (the audit says ${VERDICT_LABEL[note.verdict]}) until the code it rests on changes`
                : `verified ${localTime(review.verifiedAt)}`
              : `verified ${localTime(review.verifiedAt)}, since lapsed: ${review.lapsedBecause.join('; ')}`}
          </span>
        )}
      </div>
      {reasons.length > 0 && (
        <ul className="note-reasons" data-testid="note-reasons">
          {reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      {note.references.length > 0 && (
        <table className="note-refs" data-testid="note-refs">
          <TableHead columns={['kind', 'reference', 'status', 'now at']} />
          <tbody>
            {note.references.map((r, i) => (
              <tr key={`${r.kind}:${r.text}:${i}`}>
                <td>{r.kind}</td>
                <td>
                  <code>{r.text}</code>
                </td>
                <td>
                  <span
                    className={`ref-status ref-${r.status}`}
                    title={`${REFERENCE_SENTENCES[r.status]}\n(${codeTooltip(r.status)})`}
                  >
                    {REFERENCE_WORDS[r.status]}
                  </span>
                </td>
                <td title={r.movedTo ?? r.resolved ?? ''}>
                  {r.movedTo ? (
                    <>
                      moved to <code>{shortPath(r.movedTo, [repoRoot])}</code>
                    </>
                  ) : r.resolved ? (
                    <code>{shortPath(r.resolved, [repoRoot])}</code>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}
