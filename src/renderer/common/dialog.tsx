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
    // In order of preference (a selector list would pick whichever comes first in the page, the
    // close button); a disabled button cannot take focus, which left it behind the dialog.
    const root = box.current
    const first =
      [
        '[data-autofocus]',
        'input:not([disabled])',
        'button.primary:not([disabled])',
        'button:not([disabled])',
      ]
        .map((sel) => root?.querySelector<HTMLElement>(sel))
        .find((el) => el) ?? root
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
