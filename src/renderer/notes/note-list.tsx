/**
 * The list beside the note: one row per note (standing, title, file:line), keyboard-navigable,
 * drawn a window at a time (common/virtual-list.tsx: 50,000 notes paint at once, issue 15 item 6).
 */
import type { KeyboardEvent, ReactNode } from 'react'
import type { AuditNote } from '../../shared/model'
import type { NoteReview } from '../../shared/api'
import { VirtualList } from '../common/virtual-list'
import { VerdictBadge, StampBadge } from './note-detail'
import { shortPath } from './notes-state'

/** Every row's height in pixels (notes.css `.note-row` has the same). */
export const NOTE_ROW_HEIGHT = 52

export interface NoteRow {
  readonly key: string
  readonly note: AuditNote | null
  readonly review: NoteReview | null
  /** Shown before the title (e.g. why the note is in the queue). */
  readonly tag?: ReactNode
  readonly done?: boolean
  /** An unsaved rewrite of this note is kept (issue 15 item 1). */
  readonly draft?: boolean
}

export function NoteList({
  rows,
  selectedKey,
  onSelect,
  onMove,
  roots,
  label,
  testId,
}: {
  rows: readonly NoteRow[]
  selectedKey: string | null
  onSelect: (key: string) => void
  onMove: (delta: number) => void
  roots: readonly (string | null)[]
  label: string
  testId: string
}) {
  const onKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      onMove(1)
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      onMove(-1)
    }
  }

  const active = selectedKey === null ? -1 : rows.findIndex((r) => r.key === selectedKey)
  return (
    <VirtualList
      items={rows}
      rowHeight={NOTE_ROW_HEIGHT}
      activeIndex={active}
      className="note-list"
      role="listbox"
      aria-label={label}
      tabIndex={0}
      onKeyDown={onKey}
      testId={testId}
      renderRow={(r) => (
        <li
          key={r.key}
          role="option"
          aria-selected={r.key === selectedKey}
          className={[
            'note-row',
            r.key === selectedKey ? 'selected' : '',
            r.done ? 'done' : '',
          ].join(' ')}
          onClick={() => r.note && onSelect(r.key)}
          data-testid="note-row"
          data-key={r.key}
        >
          <div className="note-row-top">
            {r.tag}
            {r.note ? (
              <VerdictBadge verdict={r.note.verdict} review={r.review} />
            ) : (
              <span className="verdict-badge verdict-gone">deleted</span>
            )}
            <span className="note-row-title" title={r.note?.title}>
              {r.note?.title ?? r.key.split('::').slice(1).join('::')}
            </span>
            {r.draft && (
              <span
                className="draft-mark"
                data-testid="draft-mark"
                title="An unsaved rewrite is kept"
              >
                draft
              </span>
            )}
            {r.done && (
              <span className="done-mark" aria-label="reviewed">
                ✓
              </span>
            )}
            {!r.done && <StampBadge review={r.review} />}
          </div>
          {r.note && (
            <div className="note-row-where" title={r.note.file}>
              {shortPath(r.note.file, roots)}:{r.note.line}
            </div>
          )}
        </li>
      )}
    />
  )
}
