/** The list beside the note: one row per note (verdict, title, file:line), keyboard-navigable. */
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react'
import type { AuditNote, NoteStampStatus } from '../../shared/model'
import { VerdictBadge, StampBadge } from './note-detail'
import { shortPath } from './notes-state'

export interface NoteRow {
  readonly key: string
  readonly note: AuditNote | null
  readonly stamp: NoteStampStatus | null
  /** Shown before the title (e.g. why the note is in the queue). */
  readonly tag?: ReactNode
  readonly done?: boolean
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
  const listRef = useRef<HTMLUListElement>(null)
  useEffect(() => {
    if (!selectedKey || !listRef.current) return
    const el = listRef.current.querySelector<HTMLElement>('[aria-selected="true"]')
    el?.scrollIntoView({ block: 'nearest' })
  }, [selectedKey])

  const onKey = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      onMove(1)
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      onMove(-1)
    }
  }

  return (
    <ul
      ref={listRef}
      className="note-list"
      role="listbox"
      aria-label={label}
      tabIndex={0}
      onKeyDown={onKey}
      data-testid={testId}
    >
      {rows.map((r) => (
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
              <VerdictBadge verdict={r.note.verdict} />
            ) : (
              <span className="verdict-badge verdict-gone">deleted</span>
            )}
            <span className="note-row-title" title={r.note?.title}>
              {r.note?.title ?? r.key.split('::').slice(1).join('::')}
            </span>
            {r.done && (
              <span className="done-mark" aria-label="reviewed">
                ✓
              </span>
            )}
            {!r.done && <StampBadge stamp={r.stamp} />}
          </div>
          {r.note && (
            <div className="note-row-where" title={r.note.file}>
              {shortPath(r.note.file, roots)}:{r.note.line}
            </div>
          )}
        </li>
      ))}
    </ul>
  )
}
