/** One note: its verdict and why, when it was written and how we know, and what it rests on. */
import type { AuditNote, NoteStampStatus, Verdict } from '../../shared/model'
import { VERDICT_LABEL, findingReasons, shortPath, writtenAtSource } from './notes-state'
import { TableHead } from '../common/table-head'

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return (
    <span className={`verdict-badge verdict-${verdict}`} data-testid="verdict-badge">
      {VERDICT_LABEL[verdict]}
    </span>
  )
}

export function StampBadge({ stamp }: { stamp: NoteStampStatus | null }) {
  if (!stamp) return null
  return stamp.state === 'valid' ? (
    <span
      className="stamp-badge stamp-valid"
      title={`Verified ${stamp.stamp.at}`}
      data-testid="stamp-badge"
    >
      ✓ verified
    </span>
  ) : (
    <span
      className="stamp-badge stamp-expired"
      title={stamp.reasons.join('\n')}
      data-testid="stamp-badge"
    >
      stamp expired
    </span>
  )
}

export function NoteDetail({
  note,
  stamp,
  memoryDir,
  repoRoot,
}: {
  note: AuditNote
  stamp: NoteStampStatus | null
  memoryDir: string
  repoRoot: string | null
}) {
  const source = writtenAtSource(note)
  const reasons = findingReasons(note)
  const where = `${shortPath(note.file, [memoryDir, repoRoot])}:${note.line}${note.endLine > note.line ? `–${note.endLine}` : ''}`
  return (
    <div className="note-detail" data-testid="note-detail">
      <div className="note-detail-head">
        <VerdictBadge verdict={note.verdict} />
        <h2 title={note.title}>{note.title}</h2>
        <StampBadge stamp={stamp} />
      </div>
      <div className="note-meta">
        <span title={note.file}>
          <code>{where}</code>
        </span>
        <span data-testid="written-at">
          written{' '}
          {note.writtenAt ? (
            <time dateTime={note.writtenAt}>
              {note.writtenAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}
            </time>
          ) : (
            'at an unknown time'
          )}
          {source && <span className="muted"> — from {source}</span>}
        </span>
        {stamp && (
          <span className="muted">
            {stamp.state === 'valid'
              ? `verified ${stamp.stamp.at}`
              : `verified ${stamp.stamp.at}, since expired: ${stamp.reasons.join('; ')}`}
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
                  <span className={`ref-status ref-${r.status}`}>{r.status}</span>
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
