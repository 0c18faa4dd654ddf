/**
 * Lines one session added that a different session's later write removed (docs/memory-rules.md §6.4: parallel
 * worktree sessions overwrite each other), each with a Restore through the safe write path.
 * Restore first says where the line goes back and whether it will load there (issue 15 item 2:
 * a line put back below the MEMORY.md cutoff still does not load), and offers "above the cutoff".
 */
import { useState } from 'react'
import type { EditOutcome } from '../../shared/api'
import type { RestorePreview } from '../../shared/model-fit'
import { getApi } from '../api/api-client'
import { formatTime, sessionHue, shortId, type LostRow } from './history-format'
import { formatNumber } from '../common/format'
import { problemText } from '../common/wording'
import { RestorePreviewBox } from './history-restore'
import { TextDiff } from '../monaco/text-views'

type Placement = RestorePreview['placement']

type RestoreState =
  | { readonly kind: 'busy' }
  | { readonly kind: 'preview'; readonly preview: RestorePreview }
  | {
      readonly kind: 'outcome'
      readonly outcome: EditOutcome
      readonly basedOn: string | null
      readonly text: string
      readonly placement: Placement
      readonly line: number | null
      readonly loads: boolean | null
    }
  | { readonly kind: 'failed'; readonly message: string }

const rowKey = (l: LostRow): string => JSON.stringify([l.text, l.addedBy, l.removedBy])

function Session({
  id,
  places,
}: {
  id: string
  places: ReadonlyMap<string, { branch: string; cwd: string }>
}) {
  const p = places.get(id)
  return (
    <span className="history-session" title={`${id}${p?.cwd ? ` in ${p.cwd}` : ''}`}>
      <span
        className="session-dot"
        style={{ background: `hsl(${sessionHue(id)} 60% 50%)` }}
        aria-hidden
      />
      <span className="mono">{shortId(id)}</span>
      {p && <span className="mono history-branch-chip">{p.branch || 'no branch'}</span>}
    </span>
  )
}

export function HistoryLost({
  memoryDir,
  file,
  lost,
  places,
}: {
  memoryDir: string
  file: string
  lost: readonly LostRow[]
  places: ReadonlyMap<string, { branch: string; cwd: string }>
}) {
  const [states, setStates] = useState<ReadonlyMap<string, RestoreState>>(new Map())
  const set = (key: string, s: RestoreState) => setStates((prev) => new Map(prev).set(key, s))

  /** Where the line would go (nothing is written yet). */
  async function preview(l: LostRow, placement: Placement) {
    const key = rowKey(l)
    set(key, { kind: 'busy' })
    try {
      const p = await getApi().previewRestore(memoryDir, file, l.text, placement)
      set(key, { kind: 'preview', preview: p })
    } catch (e) {
      set(key, { kind: 'failed', message: `${file}: ${(e as Error).message}` })
    }
  }

  /** Write a previewed restore: one compare-and-swap on the hash the preview was made from. */
  async function apply(l: LostRow, p: RestorePreview) {
    const key = rowKey(l)
    const change = p.plan.changes[0]
    if (!change) return
    set(key, { kind: 'busy' })
    try {
      const out = await getApi().applyPlan(p.plan.changes, p.plan.title)
      const outcome = out.failure ?? out.outcomes[0]
      set(key, {
        kind: 'outcome',
        outcome,
        basedOn: change.before,
        text: l.text,
        placement: p.placement,
        line: p.line,
        loads: p.loads,
      })
    } catch (e) {
      set(key, { kind: 'failed', message: `${file}: ${(e as Error).message}` })
    }
  }

  /** After a conflict: the same placement, planned and written on the file as it is now. */
  async function retry(l: LostRow, placement: Placement) {
    const key = rowKey(l)
    set(key, { kind: 'busy' })
    try {
      const p = await getApi().previewRestore(memoryDir, file, l.text, placement)
      if (p.plan.changes.length === 0) set(key, { kind: 'preview', preview: p })
      else await apply(l, p)
    } catch (e) {
      set(key, { kind: 'failed', message: `${file}: ${(e as Error).message}` })
    }
  }

  // Restored lines leave the list once the history is read again; say what was done.
  const shown = new Set(lost.map(rowKey))
  const restored = [...states].flatMap(([k, s]) =>
    !shown.has(k) && s.kind === 'outcome' && s.outcome.kind === 'written'
      ? [{ k, text: s.text, path: s.outcome.path }]
      : [],
  )
  return (
    <>
      {restored.length > 0 && (
        <ul className="history-restored" data-testid="history-restored">
          {restored.map((r) => (
            <li key={r.k} className="history-outcome ok" role="status">
              Restored <code>{r.text}</code> into {r.path} (a backup of the previous version was
              kept).
            </li>
          ))}
        </ul>
      )}
      {lost.length === 0 ? (
        <p className="history-none" data-testid="history-no-lost">
          No line is lost: no session&apos;s write removed a line another session had added that is
          still missing.
        </p>
      ) : (
        lostList()
      )}
    </>
  )

  function lostList() {
    return (
      <ul
        className={
          [...states.values()].some(
            (x) => x.kind === 'preview' || (x.kind === 'outcome' && x.outcome.kind === 'conflict'),
          )
            ? 'history-lost expanded'
            : 'history-lost'
        }
        data-testid="history-lost"
      >
        {lost.map((l) => {
          const key = rowKey(l)
          const s = states.get(key)
          const written = s?.kind === 'outcome' && s.outcome.kind === 'written'
          return (
            <li key={key} className="history-lost-item" data-testid="lost-line">
              <div className="history-lost-head">
                <code className="history-lost-text" data-testid="lost-text">
                  {l.text}
                </code>
                <button
                  className="history-button"
                  data-testid="restore-line"
                  disabled={s?.kind === 'busy' || written}
                  onClick={() => void preview(l, 'in-place')}
                  title={`See where this line would go back into ${file} and whether it would load; nothing is written yet`}
                >
                  {s?.kind === 'busy' ? 'Working…' : written ? 'Restored' : 'Restore…'}
                </button>
              </div>
              <div className="history-lost-meta">
                added by <Session id={l.addedBy} places={places} />
                {l.addedAt && <span className="muted"> at {formatTime(l.addedAt)}</span>} · removed
                by <Session id={l.removedBy} places={places} />
                {l.removedAt && <span className="muted"> at {formatTime(l.removedAt)}</span>}
                {l.removedByTool && <span className="muted"> ({l.removedByTool})</span>}
                {l.exact === false && (
                  <span
                    className="history-warn"
                    title="An earlier edit could not be replayed, so the text around this removal is a best guess"
                  >
                    {' '}
                    · approximate
                  </span>
                )}
              </div>
              {s?.kind === 'preview' && (
                <RestorePreviewBox
                  preview={s.preview}
                  onApply={(p) => void apply(l, p)}
                  onAbove={() => void preview(l, 'above-cutoff')}
                  onInPlace={() => void preview(l, 'in-place')}
                  onCancel={() =>
                    setStates((prev) => {
                      const next = new Map(prev)
                      next.delete(key)
                      return next
                    })
                  }
                />
              )}
              {s && s.kind !== 'preview' && (
                <RestoreResult
                  state={s}
                  onRetry={() => s.kind === 'outcome' && void retry(l, s.placement)}
                />
              )}
            </li>
          )
        })}
      </ul>
    )
  }
}

function RestoreResult({ state, onRetry }: { state: RestoreState; onRetry: () => void }) {
  if (state.kind === 'busy' || state.kind === 'preview') return null
  if (state.kind === 'failed') {
    return (
      <div className="history-outcome failed" role="alert" data-testid="restore-outcome">
        Could not restore: {state.message}
      </div>
    )
  }
  const o = state.outcome
  switch (o.kind) {
    case 'written':
      return (
        <div className="history-outcome ok" role="status" data-testid="restore-outcome">
          Restored into {o.path}
          {state.line !== null && ` at line ${formatNumber(state.line)}`}
          {state.loads === true && ', where it loads at session start'}
          {state.loads === false && ', below the cutoff: it does not load at session start'} (a
          backup of the previous version was kept).
        </div>
      )
    case 'deleted':
      return (
        <div className="history-outcome failed" role="alert" data-testid="restore-outcome">
          Unexpected: {o.path} was deleted.
        </div>
      )
    case 'error':
      return (
        <div className="history-outcome failed" role="alert" data-testid="restore-outcome">
          Could not restore into {o.path}: {problemText(o.reason)}
        </div>
      )
    case 'conflict':
      return (
        <div className="history-outcome warn" role="alert" data-testid="restore-outcome">
          <div>
            {o.path} changed after it was read, so nothing was written. Below, the version the
            restore was based on against the file now (red: no longer there, green: new).
          </div>
          <div className="history-conflict-diff">
            <TextDiff
              original={state.basedOn ?? ''}
              modified={o.currentText ?? ''}
              sideBySide={false}
              hideUnchanged={false}
              fontSize={12}
            />
          </div>
          {o.currentHash && o.currentText !== null ? (
            <button
              className="history-button"
              data-testid="restore-retry"
              onClick={onRetry}
              title="Restore the line into the file as it is now"
            >
              Retry on the current version
            </button>
          ) : (
            <span> The file no longer exists.</span>
          )}
        </div>
      )
  }
}
