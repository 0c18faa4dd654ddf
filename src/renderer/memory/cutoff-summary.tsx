/**
 * The load summary above MEMORY.md: line and character gauges against Claude Code's limits
 * (docs/memory-rules.md §2), where the cutoff falls, and the entries that do not load, each with
 * previewed fixes (move above the cutoff, move detail to a topic file).
 */
import { useEffect } from 'react'
import { VirtualList } from '../common/virtual-list'
import { preloadMonacoWhenIdle } from '../monaco/monaco-setup'
import type { CutoffResult } from '../../shared/model'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../../shared/limits'
import type { PlanAction } from './plan-dialog'
import { ProblemList } from '../common/problem-list'
import { countOf, formatNumber } from '../common/format'
import { limitWords } from '../common/wording'

/** Height of a row of the entries that do not load (memory.css `.unloaded-list .entry-row`). */
const ENTRY_ROW = 30

function Gauge({
  label,
  value,
  max,
  extra,
}: {
  label: string
  value: number
  max: number
  extra?: string
}) {
  const pct = Math.min(100, (value / max) * 100)
  return (
    <div className="gauge" aria-label={`${label}: ${formatNumber(value)} of ${formatNumber(max)}`}>
      <div className="gauge-label">
        {label}: <strong>{formatNumber(value)}</strong> / {formatNumber(max)}
        {extra && <span className="gauge-extra"> {extra}</span>}
      </div>
      <div className="gauge-bar">
        <div
          className={pct >= 100 ? 'gauge-fill full' : 'gauge-fill'}
          style={{ width: `${pct}%` }}
        />
      </div>
    </div>
  )
}

export function CutoffSummary({
  cutoff,
  editing,
  onReveal,
  onPlan,
  onFit,
}: {
  cutoff: CutoffResult
  editing: boolean
  onReveal: (line: number, top?: boolean) => void
  onPlan: (action: PlanAction) => void
  /** Open "Fit under the cutoff" (issue 15 item 8). */
  onFit?: () => void
}) {
  const unloaded = cutoff.entries.filter((e) => !e.loaded).reverse()
  // The window's first useful paint is this summary: only now is Monaco fetched (main.tsx).
  useEffect(() => preloadMonacoWhenIdle(0), [])
  const blocked = editing ? 'Save or discard your edit first' : undefined
  return (
    <div className="cutoff-summary" data-testid="cutoff-summary">
      <Gauge
        label="Lines"
        value={cutoff.loadedLines}
        max={MEMORY_MAX_LINES}
        extra={`(file has ${formatNumber(cutoff.totalLines)})`}
      />
      <Gauge
        label="Characters"
        value={cutoff.loadedChars}
        max={MEMORY_MAX_CHARS}
        extra={`(UTF-16 units; ${formatNumber(cutoff.loadedBytes)} UTF-8 bytes)`}
      />
      <div className="cutoff-verdict" data-testid="cutoff-verdict">
        {cutoff.firstUnloadedLine === null
          ? 'Everything in this file loads at session start.'
          : `From line ${formatNumber(cutoff.firstUnloadedLine)} on, nothing loads at session start: ${limitWords(cutoff.limitHit)} cuts it. ${countOf(unloaded.length, 'entry', 'entries')} ${unloaded.length === 1 ? 'does' : 'do'} not load.`}
        {cutoff.firstUnloadedLine !== null && (
          <button
            className="link go-cutoff"
            data-testid="go-cutoff"
            onClick={() => onReveal(Math.max(1, (cutoff.firstUnloadedLine ?? 1) - 3), true)}
          >
            Show the cutoff
          </button>
        )}
        {cutoff.firstUnloadedLine !== null && onFit && (
          <button
            className="small-button primary fit-open"
            data-testid="fit-open"
            disabled={editing}
            onClick={onFit}
            title={
              blocked ??
              'Free room under the cutoff (blank lines, duplicates, missing topic files, …) and move entries above it: one previewed plan'
            }
          >
            Fit under the cutoff…
          </button>
        )}
      </div>
      <ProblemList problems={cutoff.problems} className="problem-list" alert />
      {unloaded.length > 0 && (
        <details className="unloaded" open>
          <summary>
            Entries that do not load, newest first ({formatNumber(unloaded.length)})
          </summary>
          <VirtualList
            items={unloaded}
            rowHeight={ENTRY_ROW}
            initialHeight={Math.min(unloaded.length, 5) * ENTRY_ROW}
            style={{ height: Math.min(unloaded.length, 5) * ENTRY_ROW }}
            className="unloaded-list"
            aria-label="Entries that do not load"
            testId="unloaded-entries"
            renderRow={(e) => (
              <li key={e.line} data-testid="unloaded-entry" className="entry-row">
                <button
                  className="link entry-line"
                  onClick={() => onReveal(e.line)}
                  title={`Show line ${formatNumber(e.line)}`}
                >
                  line {formatNumber(e.line)}
                </button>
                <span className="entry-title" title={e.title}>
                  {e.title}
                </span>
                <button
                  className="small-button"
                  data-testid="move-above"
                  disabled={editing}
                  title={blocked ?? 'Move this entry to just above the cutoff (preview first)'}
                  onClick={() =>
                    onPlan({ kind: 'move', file: cutoff.file, line: e.line, title: e.title })
                  }
                >
                  Move above the cutoff
                </button>
                <button
                  className="small-button"
                  data-testid="extract-topic"
                  disabled={editing}
                  title={
                    blocked ??
                    'Move this entry’s detail into a new topic file, leaving a one-line link (preview first)'
                  }
                  onClick={() =>
                    onPlan({ kind: 'extract', file: cutoff.file, line: e.line, title: e.title })
                  }
                >
                  Move detail to a topic file
                </button>
              </li>
            )}
          />
        </details>
      )}
    </div>
  )
}
