/** The window: demo banner, project sidebar, and the selected project's memory. */
import { useCallback, useEffect } from 'react'
import { getApi } from './api-client'
import { appStore, visibleProjects } from './state/app-state'
import { useStore } from './state/store'
import { ProjectSidebar } from './components/ProjectSidebar'
import { ProjectView } from './components/ProjectView'
import { UndoHistoryButton } from './components/undo-history'

export function App() {
  const context = useStore(appStore, (s) => s.context)
  const error = useStore(appStore, (s) => s.error)
  const scan = useStore(appStore, (s) => s.scan)
  const selectedId = useStore(appStore, (s) => s.selectedId)
  const selected = scan?.projects.find((p) => p.id === selectedId) ?? null

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
    return api.onDidChange(() => void rescan())
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
          <UndoHistoryButton onChanged={() => void rescan()} />
        </span>
        <button className="rescan" onClick={() => void rescan()} title="Rescan (Ctrl+Shift+R)">
          Rescan
        </button>
      </header>
      {error && (
        <div className="error-bar" role="alert">
          {error}
        </div>
      )}
      {scan && scan.problems.length > 0 && (
        <div className="error-bar" role="alert" data-testid="home-problems">
          {scan.problems.map((p) => (
            <div key={p.path + p.reason}>
              {p.path}: {p.reason}
            </div>
          ))}
        </div>
      )}
      <div className="body">
        <ProjectSidebar projects={visibleProjects(appStore.getState())} selectedId={selectedId} />
        <main className="main">
          {selected ? <ProjectView key={selected.id} project={selected} /> : <div className="empty">{scan ? 'No project selected.' : 'Scanning…'}</div>}
        </main>
      </div>
    </div>
  )
}
