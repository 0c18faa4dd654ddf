/**
 * The undo history: every write and delete this app made, newest first, from the log the
 * back end keeps on disk (so it survives a restart). Undo the newest, or a chosen one.
 * Opened from its toolbar button or Ctrl+Shift+Z.
 */
import { useCallback, useEffect, useState } from 'react'
import type { EditOutcome, OperationInfo } from '../../shared/api'
import { getApi } from '../api/api-client'
import { Dialog } from './dialog'
import { formatDateTime, formatExactTime } from './format'
import { baseName, describeOperation, operationEffect, operationsById } from './operation-words'
import './undo-history.css'

function describeOutcome(o: EditOutcome): { text: string; bad: boolean } {
  switch (o.kind) {
    case 'written':
      return { text: `Restored ${baseName(o.path)} (${o.path}).`, bad: false }
    case 'deleted':
      return {
        text: `Removed ${o.path}${o.trashed ? ' (moved to the trash)' : ''}.${o.warning ? ` ${o.warning}` : ''}`,
        bad: false,
      }
    case 'conflict':
      return {
        text: `${o.path} changed after this operation; the undo was refused so nothing is lost. Undo the newer operations first, or edit the file by hand.`,
        bad: true,
      }
    case 'error':
      return { text: `${o.path}: ${o.reason}`, bad: true }
  }
}

export function UndoHistoryPanel({
  onClose,
  onChanged,
}: {
  onClose: () => void
  onChanged?: () => void
}) {
  const [ops, setOps] = useState<OperationInfo[] | null>(null)
  const [message, setMessage] = useState<{ text: string; bad: boolean } | null>(null)
  const [busy, setBusy] = useState(false)

  const load = useCallback(() => {
    getApi()
      .listOperations()
      .then(setOps, (err: Error) =>
        setMessage({ text: `Could not read the undo log: ${err.message}`, bad: true }),
      )
  }, [])
  useEffect(load, [load])

  const undo = async (id: string | null) => {
    setBusy(true)
    try {
      setMessage(describeOutcome(await getApi().undo(id)))
      onChanged?.()
    } catch (err) {
      setMessage({ text: `Undo failed: ${(err as Error).message}`, bad: true })
    } finally {
      setBusy(false)
      load()
    }
  }

  const newest = ops?.find((o) => !o.undone) ?? null
  const byId = operationsById(ops ?? [])
  return (
    <Dialog title="Undo history" onClose={onClose} testId="undo-history" size="narrow">
      <div className="dialog-body">
        <p className="muted">
          Every change made here, newest first. The log is kept on disk, so it survives a restart.
        </p>
        {message && (
          <p className={message.bad ? 'danger' : 'ok'} role="status" data-testid="undo-message">
            {message.text}
          </p>
        )}
        {ops === null && !message && <p className="muted">Reading the log…</p>}
        {ops && ops.length === 0 && <p className="muted">Nothing to undo yet.</p>}
        {ops && ops.length > 0 && (
          <ol className="op-list" data-testid="operation-list">
            {ops.map((o) => (
              <li key={o.id} className={o.undone ? 'op undone' : 'op'} data-testid="operation">
                <div className="op-main" data-testid="operation-text">
                  {describeOperation(o, byId)}
                </div>
                <div className="op-meta muted">
                  <span title={o.path}>{operationEffect(o)}</span> ·{' '}
                  <time dateTime={o.time} title={formatExactTime(o.time)}>
                    {formatDateTime(o.time)}
                  </time>
                  {o.undone && <span> · undone</span>}
                </div>
                {!o.undone && (
                  <button
                    onClick={() => void undo(o.id)}
                    disabled={busy}
                    title={`Undo: ${describeOperation(o, byId)} (${o.path})`}
                    data-testid="undo-op"
                  >
                    Undo
                  </button>
                )}
              </li>
            ))}
          </ol>
        )}
      </div>
      <div className="dialog-actions">
        <button onClick={onClose} title="Close (Esc)">
          Close
        </button>
        <button
          className="primary"
          disabled={!newest || busy}
          onClick={() => void undo(null)}
          data-testid="undo-newest"
          title={
            newest
              ? `Undo the newest change: ${describeOperation(newest, byId)}`
              : 'Nothing left to undo'
          }
        >
          Undo newest
        </button>
      </div>
    </Dialog>
  )
}

/** The toolbar button, and Ctrl+Shift+Z anywhere while it is mounted (unless an editor took the key for its own redo). */
export function UndoHistoryButton({ onChanged }: { onChanged?: () => void }) {
  const [open, setOpen] = useState(false)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (
        e.defaultPrevented ||
        !(e.ctrlKey || e.metaKey) ||
        !e.shiftKey ||
        e.key.toLowerCase() !== 'z'
      )
        return
      e.preventDefault()
      setOpen(true)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  return (
    <>
      <button
        className="toolbar-button"
        onClick={() => setOpen(true)}
        title="Undo history (Ctrl+Shift+Z)"
        data-testid="open-undo-history"
      >
        Undo history
      </button>
      {open && <UndoHistoryPanel onClose={() => setOpen(false)} onChanged={onChanged} />}
    </>
  )
}
