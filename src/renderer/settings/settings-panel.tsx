/**
 * Settings (issue 15 item 12): the theme (follow the system, light, dark), kept by the back end so
 * it survives restarts. Opened from the gear button in the header or Ctrl+,.
 * Other settings (hooks) mount below the theme.
 */
import { useState, type ReactNode } from 'react'
import type { ThemeSetting } from '../../shared/api'
import { Dialog } from '../common/dialog'
import { saveTheme, useThemeSetting } from '../common/theme'

const CHOICES: readonly {
  readonly value: ThemeSetting
  readonly label: string
  readonly hint: string
}[] = [
  { value: 'system', label: 'System', hint: 'Follow the light or dark setting of the system' },
  { value: 'light', label: 'Light', hint: 'Always light' },
  { value: 'dark', label: 'Dark', hint: 'Always dark' },
]

export function SettingsPanel({
  onClose,
  children,
}: {
  onClose: () => void
  children?: ReactNode
}) {
  const theme = useThemeSetting()
  const [status, setStatus] = useState<{ text: string; bad: boolean } | null>(null)
  const choose = (value: ThemeSetting): void => {
    setStatus(null)
    saveTheme(value).then(
      () => setStatus({ text: 'Saved: kept across restarts.', bad: false }),
      (err: Error) =>
        setStatus({ text: `The theme is shown but could not be saved: ${err.message}`, bad: true }),
    )
  }
  return (
    <Dialog title="Settings" onClose={onClose} testId="settings-panel" size="narrow">
      <div className="dialog-body settings">
        <fieldset className="theme-choice" data-testid="theme-setting">
          <legend>Theme</legend>
          {CHOICES.map((c) => (
            <label key={c.value} title={c.hint}>
              <input
                type="radio"
                name="theme"
                value={c.value}
                checked={theme === c.value}
                onChange={() => choose(c.value)}
                data-testid={`theme-${c.value}`}
                data-autofocus={theme === c.value ? '' : undefined}
              />{' '}
              {c.label} <span className="muted small">— {c.hint.toLowerCase()}</span>
            </label>
          ))}
        </fieldset>
        {status && (
          <p
            className={status.bad ? 'danger small' : 'muted small'}
            role="status"
            data-testid="settings-status"
          >
            {status.text}
          </p>
        )}
        {children}
      </div>
      <div className="dialog-actions">
        <button className="primary" onClick={onClose} title="Close (Esc)">
          Close
        </button>
      </div>
    </Dialog>
  )
}
