/** Monaco pieces every memory and instruction view shares: the theme that follows the system, and read-only viewers. */
import { useEffect, useRef } from 'react'
import Editor, { DiffEditor, type DiffOnMount } from '@monaco-editor/react'
import { useDarkTheme } from '../common/theme'

/** Monaco's theme, following the window's theme setting (common/theme.ts; every editor uses this). */
export function useMonacoTheme(): 'vs' | 'vs-dark' {
  return useDarkTheme() ? 'vs-dark' : 'vs'
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
export function TextViewer({ text, language = 'markdown' }: { text: string; language?: string }) {
  const theme = useMonacoTheme()
  return <Editor value={text} language={language} theme={theme} options={VIEWER_OPTIONS} />
}

type DiffInstance = Parameters<DiffOnMount>[0]
type DiffModels = NonNullable<ReturnType<DiffInstance['getModel']>>

/**
 * Two versions, read-only: every diff in the app is this component.
 *
 * Decisions:
 * - The models are kept on unmount (`keepCurrent*Model`): @monaco-editor/react otherwise disposes
 *   them before the diff widget lets go of them and Monaco throws ("TextModel got disposed before
 *   DiffEditorWidget model got reset"). This component disposes them itself once the widget is gone
 *   (a task after the unmount), so a diff opened per click does not leak its two models.
 * - Long files collapse unchanged regions by default (changes with some context, not 200
 *   identical lines first); `hideUnchanged={false}` keeps every line, e.g. where lines are
 *   revealed by number.
 */
export function TextDiff({
  original,
  modified,
  language = 'markdown',
  sideBySide = true,
  hideUnchanged = true,
  overviewRuler = true,
  fontSize = VIEWER_OPTIONS.fontSize,
  onMount,
}: {
  original: string
  modified: string
  language?: string
  /** false: one column, removed lines above added ones. */
  sideBySide?: boolean
  hideUnchanged?: boolean
  overviewRuler?: boolean
  fontSize?: number
  onMount?: DiffOnMount
}) {
  const theme = useMonacoTheme()
  const models = useRef<DiffModels | null>(null)
  useEffect(
    () => () => {
      const kept = models.current
      models.current = null
      // The wrapper disposes the widget in its own unmount; the models go after it.
      if (kept)
        setTimeout(() => {
          kept.original.dispose()
          kept.modified.dispose()
        }, 0)
    },
    [],
  )
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
        fontSize,
        originalEditable: false,
        renderSideBySide: sideBySide,
        renderOverviewRuler: overviewRuler,
        useInlineViewWhenSpaceIsLimited: false,
        hideUnchangedRegions: hideUnchanged
          ? { enabled: true, contextLineCount: 3, minimumLineCount: 5, revealLineCount: 20 }
          : { enabled: false },
      }}
      onMount={(editor, monaco) => {
        models.current = editor.getModel()
        onMount?.(editor, monaco)
      }}
    />
  )
}
