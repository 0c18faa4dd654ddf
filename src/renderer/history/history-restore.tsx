/**
 * A restore before it is written (issue 15 item 2): the line it goes back to, whether it loads
 * there (MEMORY.md's cutoff, docs/memory-rules.md §2.1; topic files never load at start), and
 * for a line below the cutoff the choice to restore it above the cutoff instead, naming any
 * line that would then stop loading.
 */
import type { RestorePreview } from '../../shared/model-fit'
import { formatNumber } from '../common/format'

const n = (v: number): string => formatNumber(v)

export function RestorePreviewBox({
  preview: p,
  onApply,
  onAbove,
  onInPlace,
  onCancel,
}: {
  preview: RestorePreview
  onApply: (p: RestorePreview) => void
  onAbove: () => void
  onInPlace: () => void
  onCancel: () => void
}) {
  const problem = p.plan.problems[0]
  if (p.line === null || p.plan.changes.length === 0) {
    return (
      <div className="history-outcome failed" role="alert" data-testid="restore-preview">
        {p.placement === 'above-cutoff' ? 'Cannot restore above the cutoff' : 'Cannot restore'}:{' '}
        {problem?.reason ?? 'no place found'}.{' '}
        {p.placement === 'above-cutoff' && (
          <button className="history-button" onClick={onInPlace}>
            Back to where it stood
          </button>
        )}
      </div>
    )
  }
  const entriesFall = p.falls.filter((f) => f.entry)
  const where =
    p.placement === 'above-cutoff'
      ? `Goes above the load cutoff, at line ${n(p.line)}`
      : `Goes back at line ${n(p.line)}${p.anchor ? `, ${p.anchor}` : ''}`
  const tone = p.loads === false ? 'warn' : 'ok'
  return (
    <div className={`history-outcome ${tone} restore-preview`} data-testid="restore-preview">
      <div data-testid="restore-where">{where}.</div>
      <div data-testid="restore-loads">
        {p.loads === null &&
          'A topic file does not load at session start; Claude opens it when an entry of MEMORY.md leads there.'}
        {p.loads === true && 'It will load at session start.'}
        {p.loads === false &&
          `Line ${n(p.line)} is below the load cutoff (nothing from line ${n(p.cutoffLine ?? p.line)} on loads): restored there, it will not load at session start.`}
      </div>
      {p.falls.length > 0 && (
        <div className="history-warn" data-testid="restore-falls">
          Restoring here pushes{' '}
          {p.falls
            .slice(0, 3)
            .map((f) =>
              f.text.trim() === ''
                ? `a blank line (line ${n(f.line)})`
                : `“${f.text.trim()}” (line ${n(f.line)})`,
            )
            .join(', ')}
          {p.falls.length > 3 && ` and ${n(p.falls.length - 3)} more`} below the cutoff;{' '}
          {p.falls.length === 1 ? 'it stops' : 'they stop'} loading at session start.
        </div>
      )}
      <div className="restore-actions">
        {p.loads === false && p.placement === 'in-place' ? (
          <>
            <button
              className="history-button primary"
              data-testid="restore-above"
              onClick={onAbove}
            >
              Restore above the cutoff…
            </button>
            <button
              className="history-button"
              data-testid="restore-here"
              onClick={() => onApply(p)}
            >
              Restore at line {n(p.line)} anyway
            </button>
          </>
        ) : (
          <button
            className="history-button primary"
            data-testid="restore-here"
            onClick={() => onApply(p)}
            title={p.plan.title}
          >
            {p.placement === 'above-cutoff'
              ? entriesFall.length > 0
                ? `Restore at line ${n(p.line)}; ${entriesFall.length === 1 ? 'that entry stops' : 'those entries stop'} loading`
                : `Restore at line ${n(p.line)}`
              : 'Restore'}
          </button>
        )}
        {p.placement === 'above-cutoff' && (
          <button className="history-button" onClick={onInPlace}>
            Back to where it stood
          </button>
        )}
        <button className="history-button" onClick={onCancel} data-testid="restore-cancel">
          Cancel
        </button>
      </div>
    </div>
  )
}
