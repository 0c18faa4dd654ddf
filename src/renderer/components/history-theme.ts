/** Monaco's theme for the History tab: follows the system light/dark setting while the window is open. */
import { useEffect, useState } from 'react'

const DARK = '(prefers-color-scheme: dark)'

export function useHistoryTheme(): 'vs' | 'vs-dark' {
  const [dark, setDark] = useState(() => window.matchMedia?.(DARK).matches ?? false)
  useEffect(() => {
    const query = window.matchMedia?.(DARK)
    if (!query) return
    const on = (e: MediaQueryListEvent) => setDark(e.matches)
    query.addEventListener('change', on)
    return () => query.removeEventListener('change', on)
  }, [])
  return dark ? 'vs-dark' : 'vs'
}
