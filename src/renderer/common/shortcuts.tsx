/**
 * The keyboard shortcuts (issue 15 item 13): the list `?` shows, and the window-wide keys
 * (`/` and Ctrl+K search, `?` this list, Ctrl+, settings). Letters and `/` act only while
 * nobody is typing (a field, an editor); chords with Ctrl act everywhere. Nothing opens on top
 * of an open dialog.
 */
import { useEffect } from 'react'
import { Dialog } from './dialog'
import { openLayers } from './escape'

export interface Shortcut {
  readonly keys: readonly string[]
  readonly what: string
}

export const SHORTCUT_GROUPS: readonly {
  readonly title: string
  readonly items: readonly Shortcut[]
}[] = [
  {
    title: 'Anywhere',
    items: [
      { keys: ['/', 'Ctrl+K'], what: 'Search all notes and memory files' },
      { keys: ['?'], what: 'Show these shortcuts' },
      { keys: ['Ctrl+,'], what: 'Settings (theme)' },
      { keys: ['Alt+1 … Alt+5'], what: 'Memory, Notes, Review queue, History, Instructions' },
      { keys: ['Esc'], what: 'Close the open dialog or panel, also from inside an editor' },
      { keys: ['Ctrl+Shift+Z'], what: 'Undo history' },
      { keys: ['Ctrl+Shift+R'], what: 'Rescan the Claude home (desktop app)' },
    ],
  },
  {
    title: 'Project list',
    items: [
      { keys: ['↑', '↓'], what: 'Previous or next project' },
      { keys: ['Home', 'End'], what: 'First or last project' },
      { keys: ['↓'], what: 'From the project search box into the list' },
    ],
  },
  {
    title: 'Notes and review queue',
    items: [
      { keys: ['j', 'k'], what: 'Next or previous note' },
      { keys: ['v'], what: 'Verify the note' },
      { keys: ['r'], what: 'Rewrite the note' },
      { keys: ['d'], what: 'Delete the note' },
      { keys: ['u', 'Ctrl+Z'], what: 'Undo the last change' },
      { keys: ['Ctrl+S'], what: 'Review, then save a rewrite' },
    ],
  },
  {
    title: 'Search',
    items: [
      { keys: ['↑', '↓'], what: 'Previous or next result' },
      { keys: ['Enter'], what: 'Open the result' },
      { keys: ['verdict:stale', 'project:name'], what: 'Filter by verdict or project' },
    ],
  },
]

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} testId="shortcuts-dialog" size="narrow">
      <div className="dialog-body shortcuts">
        {SHORTCUT_GROUPS.map((g) => (
          <section key={g.title}>
            <h3>{g.title}</h3>
            <dl>
              {g.items.map((s) => (
                <div key={s.what} className="shortcut-row">
                  <dt>
                    {s.keys.map((k, i) => (
                      <span key={k}>
                        {i > 0 && <span className="muted"> or </span>}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd>{s.what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <div className="dialog-actions">
        <button className="primary" onClick={onClose} title="Close (Esc)">
          Close
        </button>
      </div>
    </Dialog>
  )
}

/** Whether the person is typing: a text field, a select, editable text or an editor has the key. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  if (target.closest('.monaco-editor')) return true
  if (target instanceof HTMLElement && target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color'].includes(
      target.type,
    )
  }
  return false
}

export type GlobalCommand = 'search' | 'shortcuts' | 'settings'

/** The command a key press asks for, or null. */
export function globalCommand(e: KeyboardEvent): GlobalCommand | null {
  if (e.isComposing) return null
  const ctrl = e.ctrlKey || e.metaKey
  if (ctrl && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') return 'search'
  if (ctrl && !e.altKey && e.key === ',') return 'settings'
  if (ctrl || e.altKey || isTyping(e.target)) return null
  if (e.key === '/') return 'search'
  if (e.key === '?') return 'shortcuts'
  return null
}

/** Listen for the window-wide keys while mounted (capture phase: before an editor takes Ctrl+K). */
export function useGlobalKeys(run: (command: GlobalCommand) => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || openLayers() > 0) return
      const command = globalCommand(e)
      if (!command) return
      e.preventDefault()
      e.stopPropagation()
      run(command)
    }
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [run])
}
