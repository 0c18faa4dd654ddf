/**
 * Esc closes the topmost open dialog or panel (issue 15 item 13), wherever the focus is: in an
 * editor (Monaco handles Esc itself and never lets it reach the page's own handlers), on a
 * disabled button, or on the page body. One capture-phase listener on the window sees the key
 * before anything else; each open dialog or panel registers with `useEscape`, the newest on top.
 * Monaco keeps Esc while one of its own widgets (suggestions, find) is open: it closes that first.
 */
import { useEffect, useRef } from 'react'

interface Entry {
  readonly close: () => void
}

const stack: Entry[] = []
let installed = false

/** Whether `target` is in a Monaco editor that shows a widget Esc should close first. */
function editorWidgetOpen(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  const editor = target.closest('.monaco-editor')
  if (!editor) return false
  return (
    editor.querySelector(
      '.suggest-widget.visible, .find-widget.visible, .parameter-hints-widget.visible, .monaco-hover:not(.hidden)',
    ) !== null
  )
}

function onKeyDown(e: KeyboardEvent): void {
  if (e.key !== 'Escape' || e.isComposing || stack.length === 0) return
  if (editorWidgetOpen(e.target)) return
  e.preventDefault()
  e.stopPropagation()
  stack[stack.length - 1].close()
}

/** How many dialogs and panels are open (tests and the shortcuts layer read it). */
export const openLayers = (): number => stack.length

/** While mounted (and `active`), Esc calls `close` when this is the newest open layer. */
export function useEscape(close: () => void, active = true): void {
  const latest = useRef(close)
  useEffect(() => {
    latest.current = close
  })
  useEffect(() => {
    if (!active) return
    const entry: Entry = { close: () => latest.current() }
    stack.push(entry)
    if (!installed) {
      window.addEventListener('keydown', onKeyDown, true)
      installed = true
    }
    return () => {
      const i = stack.lastIndexOf(entry)
      if (i >= 0) stack.splice(i, 1)
    }
  }, [active])
}
