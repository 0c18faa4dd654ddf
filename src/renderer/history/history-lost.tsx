/**
 * Lines one session added that a different session's later write removed (docs/memory-rules.md §6.4: parallel
 * worktree sessions overwrite each other), each with a Restore through the safe write path.
 */
import { useState } from 'react'
import type { EditOutcome } from '../../shared/api'
import { getApi } from '../api/api-client'
import { formatTime, sessionHue, shortId, type LostRow } from './history-format'
import { TextDiff } from '../monaco/text-views'

type RestoreState =
  | { readonly kind: 'busy' }
  | {
      readonly kind: 'outcome'
      readonly outcome: EditOutcome
      readonly basedOn: string | null
      readonly text: string
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

  /** Restore from `hash` (the version the person saw); without one, read the file's current hash first. */
  async function restore(l: LostRow, known: { hash: string; text: string } | null) {
    const key = rowKey(l)
    set(key, { kind: 'busy' })
    const api = getApi()
    try {
      let base = known
      if (!base) {
        const read = await api.readFile(file)
        if (!read.ok) {
          set(key, { kind: 'failed', message: `${read.path}: ${read.reason}` })
          return
        }
        base = { hash: read.hash, text: read.text }
      }
      const outcome = await api.restoreLostLine(memoryDir, file, l.text, base.hash)
      set(key, { kind: 'outcome', outcome, basedOn: base.text, text: l.text })
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
          [...states.values()].some((x) => x.kind === 'outcome' && x.outcome.kind === 'conflict')
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
                  onClick={() => void restore(l, null)}
                  title={`Put this line back into ${file} where it stood, through the safe write (a backup is kept; undo is possible)`}
                >
                  {s?.kind === 'busy' ? 'Restoring…' : written ? 'Restored' : 'Restore'}
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
              {s && <RestoreResult state={s} onRetry={(base) => void restore(l, base)} />}
            </li>
          )
        })}
      </ul>
    )
  }
}

function RestoreResult({
  state,
  onRetry,
}: {
  state: RestoreState
  onRetry: (base: { hash: string; text: string }) => void
}) {
  if (state.kind === 'busy') return null
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
          Restored into {o.path} (a backup of the previous version was kept).
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
          Could not restore into {o.path}: {o.reason}
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
              onClick={() =>
                onRetry({ hash: o.currentHash as string, text: o.currentText as string })
              }
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
