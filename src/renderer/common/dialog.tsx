/**
 * A modal dialog: Escape closes it wherever the focus is (escape.ts; also from inside an editor),
 * focus moves into it and returns where it was.
 */
import { useEffect, useRef, type ReactNode } from 'react'
import { useEscape } from './escape'
import './dialog.css'

export function Dialog({
  title,
  onClose,
  children,
  testId,
  size = 'wide',
}: {
  title: string
  onClose: () => void
  children: ReactNode
  testId?: string
  size?: 'wide' | 'narrow'
}) {
  const box = useRef<HTMLDivElement | null>(null)
  useEscape(onClose)
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    // A disabled button cannot take focus: the focus would stay behind the dialog.
    const first =
      box.current?.querySelector<HTMLElement>(
        '[data-autofocus], input:not([disabled]), button.primary:not([disabled]), button:not([disabled])',
      ) ?? box.current
    first?.focus()
    return () => before?.focus?.()
  }, [])
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={box}
        className={`dialog dialog-${size}`}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        data-testid={testId}
        tabIndex={-1}
      >
        <div className="dialog-head">
          <h2>{title}</h2>
          <button className="icon-button" onClick={onClose} title="Close (Esc)" aria-label="Close">
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  )
}
