/** The window: demo banner, project sidebar, and the selected project's memory. */
import { useCallback, useEffect, useState } from 'react'
import { getApi } from './api/api-client'
import { loadMonaco } from './monaco/monaco-setup'
import { MonacoReady } from './monaco/monaco-ready'
import { appStore, visibleProjects } from './state/app-state'
import { useStore } from './state/store'
import { ProjectSidebar } from './projects/project-sidebar'
import { ProjectView } from './projects/project-view'
import { UndoHistoryButton } from './common/undo-history'
import { EmptyHome } from './projects/empty-home'
import { ErrorBar } from './common/error-bar'
import { MemoryNotices } from './common/memory-notices'
import { problemText } from './common/wording'
import { ShortcutsDialog, useGlobalKeys, type GlobalCommand } from './common/shortcuts'
import { SettingsPanel } from './settings/settings-panel'
import { HooksSettings } from './settings/hooks-settings'
import { SearchPalette } from './search/search-palette'

/**
 * True from the frame after the one that painted the project list (`listed`): the project view
 * and the Monaco load wait for it, so neither delays the list's first paint (issue 16).
 */
function useListPainted(listed: boolean): boolean {
  const [painted, setPainted] = useState(false)
  useEffect(() => {
    if (!listed || painted) return
    // The frame after the next: the list's frame has been painted by then.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        frame = 0
        setPainted(true)
      })
    })
    return () => {
      if (frame) cancelAnimationFrame(frame)
    }
  }, [listed, painted])
  return painted
}

/**
 * True once the Monaco chunk is loaded (issue 7: it is split from the first bundle, so the
 * project list draws without it); its load starts once the list has painted (evaluating it is
 * one long task, hundreds of ms on a loaded machine). The project view draws before it; its
 * editors wait for it (monaco/monaco-ready.ts).
 */
function useMonacoLoaded(painted: boolean): boolean {
  const [loaded, setLoaded] = useState(false)
  useEffect(() => {
    if (!painted) return
    let live = true
    void loadMonaco().then(
      () => live && setLoaded(true),
      (err: Error) =>
        live &&
        appStore.dispatch({
          type: 'error',
          message: `The editor (Monaco) failed to load: ${err.message}`,
        }),
    )
    return () => {
      live = false
    }
  }, [painted])
  return loaded
}

/** Quiet time after the last change event before the home is rescanned. */
const RESCAN_SETTLE_MS = 300

export function App() {
  const context = useStore(appStore, (s) => s.context)
  const error = useStore(appStore, (s) => s.error)
  const scan = useStore(appStore, (s) => s.scan)
  const selectedId = useStore(appStore, (s) => s.selectedId)
  const selected = scan?.projects.find((p) => p.id === selectedId) ?? null
  const listPainted = useListPainted(scan !== null)
  const monacoLoaded = useMonacoLoaded(listPainted)
  const [layer, setLayer] = useState<GlobalCommand | null>(null)
  const closeLayer = useCallback(() => setLayer(null), [])
  useGlobalKeys(setLayer)

  const rescan = useCallback(async () => {
    appStore.dispatch({ type: 'scan-start' })
    try {
      appStore.dispatch({ type: 'scan-done', scan: await getApi().scan() })
    } catch (err) {
      appStore.dispatch({ type: 'error', message: (err as Error).message })
    }
  }, [])

  useEffect(() => {
    const api = getApi()
    api.getContext().then(
      (c) => appStore.dispatch({ type: 'context', context: c }),
      (err: Error) => appStore.dispatch({ type: 'error', message: err.message }),
    )
    void rescan()
    // Changes come in bursts while a session writes: one rescan after they settle, never two at
    // once (issue 7). The open views reload their own files on the same event.
    let timer: ReturnType<typeof setTimeout> | null = null
    let busy = false
    let again = false
    const settled = async (): Promise<void> => {
      timer = null
      if (busy) {
        again = true
        return
      }
      busy = true
      try {
        await rescan()
      } finally {
        busy = false
        if (again) {
          again = false
          timer = setTimeout(() => void settled(), RESCAN_SETTLE_MS)
        }
      }
    }
    const stop = api.onDidChange(() => {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => void settled(), RESCAN_SETTLE_MS)
    })
    return () => {
      stop()
      if (timer) clearTimeout(timer)
    }
  }, [rescan])

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">Memory Curator</span>
        {context && (
          <span className="home" title={context.claudeHome}>
            {context.claudeHome}
          </span>
        )}
        {context?.demo && (
          <span className="demo-badge" role="status" data-testid="demo-banner">
            Demo — {context.demoReason}. You are looking at a built-in example home, not your own.
          </span>
        )}
        <span className="topbar-actions">
          <button
            className="toolbar-button search-button"
            onClick={() => setLayer('search')}
            title="Search all notes and memory files (/ or Ctrl+K)"
            data-testid="open-search"
          >
            Search <kbd>/</kbd>
          </button>
          <UndoHistoryButton onChanged={() => void rescan()} />
        </span>
        <button className="rescan" onClick={() => void rescan()} title="Rescan (Ctrl+Shift+R)">
          Rescan
        </button>
        <button
          className="icon-button"
          onClick={() => setLayer('shortcuts')}
          title="Keyboard shortcuts (?)"
          aria-label="Keyboard shortcuts"
          data-testid="open-shortcuts"
        >
          ?
        </button>
        <button
          className="icon-button gear"
          onClick={() => setLayer('settings')}
          title="Settings (Ctrl+,)"
          aria-label="Settings"
          data-testid="open-settings"
        >
          ⚙
        </button>
      </header>
      {layer === 'search' && <SearchPalette onClose={closeLayer} />}
      {layer === 'settings' && (
        <SettingsPanel onClose={closeLayer}>
          <fieldset className="theme-choice">
            <legend>Claude Code hooks</legend>
            <HooksSettings cwd={selected?.cwds[0] ?? null} />
          </fieldset>
        </SettingsPanel>
      )}
      {layer === 'shortcuts' && <ShortcutsDialog onClose={closeLayer} />}
      <ErrorBar message={error} />
      <MemoryNotices />
      {scan && scan.problems.length > 0 && (
        <div className="error-bar" role="alert" data-testid="home-problems">
          {scan.problems.map((p) => (
            <div key={p.path + p.reason}>
              {p.path}: {problemText(p.reason)}
            </div>
          ))}
        </div>
      )}
      <div className="body">
        <ProjectSidebar projects={visibleProjects(appStore.getState())} selectedId={selectedId} />
        <main className="main">
          {selected && listPainted ? (
            <MonacoReady.Provider value={monacoLoaded}>
              <ProjectView key={selected.id} project={selected} />
            </MonacoReady.Provider>
          ) : scan && !selected && scan.projects.every((p) => p.memoryDir === null) ? (
            <EmptyHome claudeHome={context?.claudeHome ?? null} scan={scan} />
          ) : (
            // A selected project opens the frame after the list painted: nothing to say meanwhile.
            <div className="empty">
              {!scan ? 'Scanning…' : selected ? null : 'No project selected.'}
            </div>
          )}
        </main>
      </div>
    </div>
  )
}
