/**
 * The files of a memory folder on the History tab (issue 15 item 15): those with recorded writes
 * or lost lines first, as chips (most writes first); the rest — a real folder has a hundred topic
 * files no transcript wrote — folded behind one button, in a list drawn a window at a time
 * (issue 15 item 6).
 */
import { useState, type ReactNode } from 'react'
import { VirtualList } from '../common/virtual-list'
import type { FileRow } from './history-format'
import { formatNumber } from '../common/format'

/** Chips shown before the rest fold away (ours). */
export const HISTORY_CHIPS_MAX = 24
const ROW = 26
const n = (v: number): string => formatNumber(v)

/** Files with writes or lost lines first (most writes first, then by name), then the quiet ones. */
export function orderHistoryFiles(files: readonly FileRow[]): {
  active: FileRow[]
  quiet: FileRow[]
} {
  const busy = (f: FileRow) => f.writes.length > 0 || f.lost.length > 0
  const active = files
    .filter(busy)
    .sort(
      (a, b) =>
        b.lost.length - a.lost.length ||
        b.writes.length - a.writes.length ||
        a.path.localeCompare(b.path, 'en', { numeric: true }),
    )
  const quiet = files
    .filter((f) => !busy(f))
    .sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }))
  return { active, quiet }
}

function Meta({ f }: { f: FileRow }) {
  return (
    <>
      <span className="tab-meta">
        {n(f.writes.length)} write{f.writes.length === 1 ? '' : 's'}
      </span>
      {f.lost.length > 0 && <span className="history-lost-badge">{n(f.lost.length)} lost</span>}
    </>
  )
}

export function HistoryFiles({
  files,
  current,
  onSelect,
  rel,
  children,
}: {
  files: readonly FileRow[]
  current: FileRow | null
  onSelect: (path: string) => void
  rel: (p: string) => string
  /** Status and buttons at the end of the row. */
  children?: ReactNode
}) {
  const [open, setOpen] = useState(false)
  const { active, quiet } = orderHistoryFiles(files)
  const chips = active.slice(0, HISTORY_CHIPS_MAX)
  const folded = [...active.slice(HISTORY_CHIPS_MAX), ...quiet]
  // A file chosen from the folded list stays visible as a chip.
  if (current && !chips.includes(current)) chips.push(current)
  const chip = (f: FileRow) => (
    <button
      key={f.path}
      role="tab"
      aria-selected={f === current}
      className={f === current ? 'tab active' : 'tab'}
      onClick={() => onSelect(f.path)}
      title={f.path}
      data-testid="history-file"
    >
      {rel(f.path)}
      <Meta f={f} />
    </button>
  )
  const foldedLabel =
    active.length > HISTORY_CHIPS_MAX
      ? `${n(folded.length)} more files`
      : `${n(quiet.length)} file${quiet.length === 1 ? '' : 's'} without recorded writes`
  return (
    <>
      <div className="history-files" role="tablist" aria-label="Memory files">
        {files.length === 0 && (
          <span className="muted">No memory files and no recorded writes.</span>
        )}
        {chips.map(chip)}
        {folded.length > 0 && (
          <button
            className="history-button history-quiet-toggle"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            data-testid="history-quiet-toggle"
            title={open ? 'Fold the list away' : 'List them'}
          >
            {open ? '▾' : '▸'} {foldedLabel}
          </button>
        )}
        {children}
      </div>
      {open && folded.length > 0 && (
        <VirtualList
          items={folded}
          rowHeight={ROW}
          initialHeight={Math.min(folded.length, 8) * ROW}
          className="history-quiet-list"
          style={{ height: Math.min(folded.length, 8) * ROW }}
          aria-label="Other memory files"
          testId="history-quiet-list"
          renderRow={(f) => (
            <li key={f.path} className="history-quiet-row">
              <button
                className={f === current ? 'link active' : 'link'}
                onClick={() => onSelect(f.path)}
                title={f.path}
                data-testid="history-quiet-file"
              >
                {rel(f.path)}
              </button>
              <Meta f={f} />
            </li>
          )}
        />
      )}
    </>
  )
}
