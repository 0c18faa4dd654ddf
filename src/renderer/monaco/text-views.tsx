/** Monaco pieces every memory and instruction view shares: the theme that follows the system, and read-only viewers. */
import { useEffect, useMemo, useRef, useState } from 'react'
import Editor from '@monaco-editor/react'
import { loadMonaco } from './monaco-setup'
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

type Monaco = Awaited<ReturnType<typeof loadMonaco>>
type DiffInstance = ReturnType<Monaco['editor']['createDiffEditor']>
/** Called once the diff editor exists, with its models attached. */
export type DiffOnMount = (editor: DiffInstance, monaco: Monaco) => void

/**
 * Two versions, read-only: every diff in the app is this component.
 *
 * Decisions:
 * - It drives Monaco's diff editor itself rather than through `@monaco-editor/react`, to own the
 *   order things go away in. Monaco 0.57's diff widget never disposes a view model it made itself
 *   (its reference count stays above zero), so a diff still computing when the widget went and its
 *   models were disposed threw "no diff result available" from the worker, unhandled (CI, stop 21).
 *   Here the view model is made and disposed by this component: on unmount the widget lets go of
 *   it (`setModel(null)`), the widget goes, the view model goes (cancelling any diff in flight), and
 *   only then the two text models — synchronously, nothing left for a later task.
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
  const host = useRef<HTMLDivElement | null>(null)
  const [live, setLive] = useState<LiveDiff | null>(null)
  const options = useMemo(
    () => ({
      ...VIEWER_OPTIONS,
      fontSize,
      originalEditable: false,
      renderSideBySide: sideBySide,
      renderOverviewRuler: overviewRuler,
      useInlineViewWhenSpaceIsLimited: false,
      hideUnchangedRegions: hideUnchanged
        ? { enabled: true, contextLineCount: 3, minimumLineCount: 5, revealLineCount: 20 }
        : { enabled: false },
    }),
    [fontSize, sideBySide, overviewRuler, hideUnchanged],
  )
  // The latest props, read once when Monaco has loaded (it loads lazily, issue 7).
  const first = useRef({ original, modified, language, options, theme, onMount })
  first.current = { original, modified, language, options, theme, onMount }

  useEffect(() => {
    let gone = false
    let made: LiveDiff | null = null
    void loadMonaco().then((monaco) => {
      if (gone || !host.current) return
      const p = first.current
      monaco.editor.setTheme(p.theme)
      const editor = monaco.editor.createDiffEditor(host.current, p.options)
      const models = {
        original: monaco.editor.createModel(p.original, p.language),
        modified: monaco.editor.createModel(p.modified, p.language),
      }
      const viewModel = editor.createViewModel(models)
      editor.setModel(viewModel)
      made = { monaco, editor, models, viewModel }
      setLive(made)
      p.onMount?.(editor, monaco)
    })
    return () => {
      gone = true
      if (!made) return
      made.editor.setModel(null)
      made.editor.dispose()
      made.viewModel.dispose()
      made.models.original.dispose()
      made.models.modified.dispose()
      rebindHoverFactory(made.monaco)
    }
  }, [])

  useEffect(() => {
    if (live && live.models.original.getValue() !== original)
      live.models.original.setValue(original)
  }, [live, original])
  useEffect(() => {
    if (live && live.models.modified.getValue() !== modified)
      live.models.modified.setValue(modified)
  }, [live, modified])
  useEffect(() => {
    if (!live) return
    live.monaco.editor.setModelLanguage(live.models.original, language)
    live.monaco.editor.setModelLanguage(live.models.modified, language)
  }, [live, language])
  useEffect(() => {
    live?.editor.updateOptions(options)
  }, [live, options])
  useEffect(() => {
    live?.monaco.editor.setTheme(theme)
  }, [live, theme])

  return (
    <section className="text-diff">
      <div ref={host} className="text-diff-host" />
    </section>
  )
}

/**
 * Every code editor Monaco makes points Monaco's one global hover factory at its own services;
 * the diff editor's two inner editors point it at the diff editor's, which its disposal disposes.
 * A widget made later (the memory editor's suggest list) then threw "InstantiationService has
 * been disposed" (CI under load). A top-level editor uses the global services, which live as long
 * as the page: making one (no model, never in the page) points the factory back at them.
 */
function rebindHoverFactory(monaco: Monaco): void {
  try {
    monaco.editor.create(document.createElement('div'), { model: null }).dispose()
  } catch {
    // Best effort: the diff is gone either way, and a failure here must not unmount the window.
  }
}

interface LiveDiff {
  monaco: Monaco
  editor: DiffInstance
  models: { original: TextModel; modified: TextModel }
  viewModel: ReturnType<DiffInstance['createViewModel']>
}
type TextModel = ReturnType<Monaco['editor']['createModel']>
