/**
 * The colour theme (issue 15 item 12): follow the system, or always light or dark. The setting is
 * kept by the back end (getSettings / setSettings, in its state folder), so it survives restarts of
 * the app and of `serve`; a copy in localStorage paints the first frame in the right colours
 * before the back end answers. A forced theme sets `data-theme` on the root element, which
 * styles.css reads; "system" removes it and the `prefers-color-scheme` rules apply.
 */
import { useSyncExternalStore } from 'react'
import type { ThemeSetting } from '../../shared/api'
import { getApi } from '../api/api-client'

const CACHE_KEY = 'memory-curator-theme'
const DARK_QUERY = '(prefers-color-scheme: dark)'
const THEMES: readonly ThemeSetting[] = ['system', 'light', 'dark']

const listeners = new Set<() => void>()
let setting: ThemeSetting = 'system'
/** Choices made in this window so far: a back-end answer older than the newest choice is not shown. */
let choices = 0
let systemDark = false

function notify(): void {
  for (const l of listeners) l()
}

function readCache(): ThemeSetting {
  try {
    const v = localStorage.getItem(CACHE_KEY)
    return THEMES.includes(v as ThemeSetting) ? (v as ThemeSetting) : 'system'
  } catch {
    return 'system'
  }
}

/** Show `theme` now (no saving). */
export function applyTheme(theme: ThemeSetting): void {
  setting = theme
  const root = document.documentElement
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
  try {
    localStorage.setItem(CACHE_KEY, theme)
  } catch {
    // Storage refused (private mode): the back end still keeps the setting.
  }
  notify()
}

/**
 * At start: the cached theme at once, then the back end's saved one; follows the system's
 * light/dark switch while the setting is "system".
 */
export function startTheme(): void {
  applyTheme(readCache())
  const query = window.matchMedia?.(DARK_QUERY)
  systemDark = query?.matches ?? false
  query?.addEventListener('change', (e) => {
    systemDark = e.matches
    notify()
  })
  getApi()
    .getSettings()
    .then(
      // A choice made before the back end answered wins over what it had kept.
      (s) => {
        if (choices === 0) applyTheme(s.theme)
      },
      () => undefined, // The cached theme stays; the settings panel reports a failed save.
    )
}

/** Choose and save a theme; resolves once the back end kept it. */
export async function saveTheme(theme: ThemeSetting): Promise<void> {
  const mine = ++choices
  applyTheme(theme)
  const saved = await getApi().setSettings({ theme })
  // Two quick choices: the first one's answer must not undo the second.
  if (mine === choices) applyTheme(saved.theme)
}

const subscribe = (l: () => void): (() => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}

/** The setting (system, light or dark). */
export function useThemeSetting(): ThemeSetting {
  return useSyncExternalStore(subscribe, () => setting)
}

/** Whether the window is dark now: the setting, or the system's when it is "system". */
export function useDarkTheme(): boolean {
  return useSyncExternalStore(subscribe, () =>
    setting === 'system' ? systemDark : setting === 'dark',
  )
}
