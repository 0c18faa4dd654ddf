/** A modal dialog: Escape closes it, focus moves into it and returns where it was. */
import { useEffect, useRef, type ReactNode } from 'react'
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
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    const first = box.current?.querySelector<HTMLElement>(
      '[data-autofocus], input, button.primary, button',
    )
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
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation()
            onClose()
          }
        }}
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
