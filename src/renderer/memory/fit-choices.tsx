/**
 * The choices of a fit plan (issue 15 item 8): each category with one tick for all its changes
 * and, folded, a tick per change; the entries that do not load, each with "move above the cut";
 * and the load gauges before → after (lines and characters, docs/memory-rules.md §2.2).
 * Long lists are drawn a window at a time (VirtualList, issue 15 item 6).
 */
import { useEffect, useRef } from 'react'
import type { FitCandidate, FitCategory, FitGauge, FitMove, FitPlan } from '../../shared/model-fit'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../../shared/limits'
import { VirtualList } from '../common/virtual-list'
import { formatNumber } from '../common/format'
import { limitWords } from '../common/wording'

const n = (v: number): string => formatNumber(v)

export const CATEGORY_LABEL: Record<FitCategory, string> = {
  blank: 'Blank lines',
  heading: 'Heading-only lines',
  duplicate: 'Duplicate entries',
  dangling: 'Entries whose topic file is gone',
  judged: 'Notes judged stale or wrong from the start',
  long: 'Long entries: detail moves to their topic file',
}

function Bar({ before, after, max }: { before: number; after: number; max: number }) {
  const pct = (v: number) => `${Math.min(100, (v / max) * 100)}%`
  return (
    <div className="gauge-bar fit-bar" aria-hidden>
      <div
        className={after >= max ? 'gauge-fill full' : 'gauge-fill'}
        style={{ width: pct(after) }}
      />
      <div className="fit-before-mark" style={{ left: pct(before) }} title={`now: ${n(before)}`} />
    </div>
  )
}

/** Lines, characters and entries that load: now → after the plan. */
export function FitGauges({ before, after }: { before: FitGauge; after: FitGauge }) {
  const loadText = (g: FitGauge) =>
    g.firstUnloadedLine === null
      ? 'everything loads'
      : `cut at line ${n(g.firstUnloadedLine)} by ${limitWords(g.limitHit)}`
  return (
    <div className="fit-gauges" data-testid="fit-gauges">
      <div className="fit-gauge" data-testid="fit-gauge-lines">
        <div>
          Lines: <strong>{n(before.loadedLines)}</strong> → <strong>{n(after.loadedLines)}</strong>{' '}
          / {n(MEMORY_MAX_LINES)}{' '}
          <span className="muted">
            (file: {n(before.totalLines)} → {n(after.totalLines)})
          </span>
        </div>
        <Bar before={before.loadedLines} after={after.loadedLines} max={MEMORY_MAX_LINES} />
      </div>
      <div className="fit-gauge" data-testid="fit-gauge-chars">
        <div>
          Characters: <strong>{n(before.loadedChars)}</strong> →{' '}
          <strong>{n(after.loadedChars)}</strong> / {n(MEMORY_MAX_CHARS)}{' '}
          <span className="muted">
            (UTF-16 units; {n(before.loadedBytes)} → {n(after.loadedBytes)} UTF-8 bytes)
          </span>
        </div>
        <Bar before={before.loadedChars} after={after.loadedChars} max={MEMORY_MAX_CHARS} />
      </div>
      <div className="fit-gauge" data-testid="fit-gauge-entries">
        Entries that load: <strong>{n(before.entriesLoaded)}</strong> of {n(before.entries)} →{' '}
        <strong>{n(after.entriesLoaded)}</strong> of {n(after.entries)}
        <div className="muted small">
          Now {loadText(before)}; after: {loadText(after)}.
        </div>
      </div>
    </div>
  )
}

function Tick({
  checked,
  mixed = false,
  disabled = false,
  onChange,
  label,
  testId,
}: {
  checked: boolean
  mixed?: boolean
  disabled?: boolean
  onChange: (on: boolean) => void
  label: string
  testId?: string
}) {
  const ref = useRef<HTMLInputElement | null>(null)
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed
  }, [mixed])
  return (
    <input
      ref={ref}
      type="checkbox"
      checked={checked}
      disabled={disabled}
      aria-label={label}
      data-testid={testId}
      onChange={(e) => onChange(e.target.checked)}
    />
  )
}

const ROW = 26

export function FitCategoryBox({
  category,
  info,
  items,
  chosen,
  onToggle,
}: {
  category: FitCategory
  info: FitPlan['categories'][number]
  items: readonly FitCandidate[]
  chosen: ReadonlySet<string>
  onToggle: (ids: readonly string[], on: boolean) => void
}) {
  const on = items.filter((c) => chosen.has(c.id)).length
  const label = CATEGORY_LABEL[category]
  return (
    <section className="fit-category" data-testid={`fit-cat-${category}`}>
      <label className="fit-cat-head">
        <Tick
          checked={items.length > 0 && on === items.length}
          mixed={on > 0 && on < items.length}
          disabled={items.length === 0}
          onChange={(v) =>
            onToggle(
              items.map((c) => c.id),
              v,
            )
          }
          label={label}
          testId={`fit-tick-${category}`}
        />
        <span className="fit-cat-label">{label}</span>
        <span className="muted" data-testid="fit-cat-count">
          {items.length === 0 ? 'none' : `${n(on)} of ${n(items.length)} ticked`}
        </span>
      </label>
      {info.note && (
        <p className="fit-note" data-testid="fit-cat-note">
          {info.note}
        </p>
      )}
      {items.length > 0 && (
        <details className="fit-each">
          <summary>Each change</summary>
          <VirtualList
            items={items}
            rowHeight={ROW}
            initialHeight={Math.min(items.length, 8) * ROW}
            className="fit-rows"
            style={{ height: Math.min(items.length, 8) * ROW }}
            testId={`fit-rows-${category}`}
            renderRow={(c) => (
              <li key={c.id} className="fit-row" title={c.detail} data-testid="fit-row">
                <Tick
                  checked={chosen.has(c.id)}
                  onChange={(v) => onToggle([c.id], v)}
                  label={`${label}: line ${n(c.line)}`}
                />
                <span className="entry-line muted">line {n(c.line)}</span>
                <span className="entry-title">
                  {c.title}
                  {!c.loaded && <span className="muted"> (does not load now)</span>}
                </span>
              </li>
            )}
          />
        </details>
      )}
    </section>
  )
}

const MOVE_STATE: Record<FitMove['state'], string> = {
  moved: 'moves above the cut',
  'no-room': 'no room: it would push a loaded line out — tick more to free room',
  loads: 'loads after the cleanup',
  removed: 'removed by a change above',
  stays: 'does not load',
}

export function FitMoves({
  moves,
  chosen,
  onToggle,
}: {
  moves: readonly FitMove[]
  chosen: ReadonlySet<number>
  onToggle: (line: number, on: boolean) => void
}) {
  if (moves.length === 0) return null
  // Newest (lowest in the file) first, as the cutoff summary lists them (docs/memory-rules.md §2.5).
  const rows = [...moves].reverse()
  const still = moves.filter((m) => m.state === 'stays' || m.state === 'no-room').length
  return (
    <section className="fit-category" data-testid="fit-moves">
      <div className="fit-cat-head">
        <span className="fit-cat-label">Move entries above the cut</span>
        <span className="muted">
          {still === 0 ? 'every entry loads' : `${n(still)} still do not load`}
        </span>
      </div>
      <p className="fit-note">
        Ticked entries go just below the last line that loads now, into the room freed above. A move
        never pushes a line that loads now out.
      </p>
      <VirtualList
        items={rows}
        rowHeight={ROW}
        initialHeight={Math.min(rows.length, 8) * ROW}
        className="fit-rows"
        style={{ height: Math.min(rows.length, 8) * ROW }}
        testId="fit-move-rows"
        renderRow={(m) => (
          <li key={m.line} className={`fit-row fit-move-${m.state}`} data-testid="fit-move">
            <Tick
              checked={chosen.has(m.line)}
              disabled={m.state === 'removed'}
              onChange={(v) => onToggle(m.line, v)}
              label={`Move ${m.title} above the cut`}
              testId="fit-move-tick"
            />
            <span className="entry-line muted">line {n(m.line)}</span>
            <span className="entry-title" title={m.title}>
              {m.title}
            </span>
            <span className="fit-move-state" data-testid="fit-move-state">
              {MOVE_STATE[m.state]}
            </span>
          </li>
        )}
      />
    </section>
  )
}
