/** Monaco pieces every memory and instruction view shares: the theme that follows the system, and read-only viewers. */
import { useEffect, useState } from 'react'
import Editor, { DiffEditor, type OnMount } from '@monaco-editor/react'

const DARK = '(prefers-color-scheme: dark)'

/** `vs-dark` or `vs`, following the system theme while the window is open. */
/** Monaco's theme, following the system light/dark setting while the window is open (every editor uses this). */
export function useMonacoTheme(): 'vs' | 'vs-dark' {
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

export const VIEWER_OPTIONS = {
  readOnly: true,
  minimap: { enabled: false },
  wordWrap: 'on',
  scrollBeyondLastLine: false,
  automaticLayout: true,
  fontSize: 13,
} as const

/** A file shown read-only. */
export function TextViewer({
  text,
  language = 'markdown',
  onMount,
}: {
  text: string
  language?: string
  onMount?: OnMount
}) {
  const theme = useMonacoTheme()
  return (
    <Editor
      value={text}
      language={language}
      theme={theme}
      options={VIEWER_OPTIONS}
      onMount={onMount}
    />
  )
}

/**
 * Two versions side by side, read-only. The models are kept on unmount: @monaco-editor/react
 * otherwise disposes them before the diff widget lets go of them and Monaco throws.
 */
export function TextDiff({
  original,
  modified,
  language = 'markdown',
}: {
  original: string
  modified: string
  language?: string
}) {
  const theme = useMonacoTheme()
  return (
    <DiffEditor
      original={original}
      modified={modified}
      language={language}
      theme={theme}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      options={{
        ...VIEWER_OPTIONS,
        originalEditable: false,
        renderSideBySide: true,
        useInlineViewWhenSpaceIsLimited: false,
        // Long files: show the changes with some context, not 200 identical lines first.
        hideUnchangedRegions: {
          enabled: true,
          contextLineCount: 3,
          minimumLineCount: 5,
          revealLineCount: 20,
        },
      }}
    />
  )
}
