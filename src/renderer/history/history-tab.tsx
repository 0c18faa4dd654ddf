/**
 * Who wrote each memory file (from the transcripts of every worktree, docs/memory-rules.md §1 and §5),
 * the lines parallel sessions lost, and what changed since a person last reviewed the file.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import type { ProjectInfo } from '../../shared/model'
import { getApi } from '../api/api-client'
import { sessionPlaces, type FileRow } from './history-format'
import { HistoryFiles } from './history-files'
import { HistoryLost } from './history-lost'
import { HistoryReview } from './history-review'
import { HistoryTimeline } from './history-timeline'
import './history.css'
import { ProblemList } from '../common/problem-list'
import { countOf } from '../common/format'

/** Report problems the back end may pass along beside the files (path + reason). */
interface Report {
  readonly files: readonly FileRow[]
  readonly problems?: readonly { readonly path: string; readonly reason: string }[]
}

type Load =
  | { readonly kind: 'loading'; readonly since: number }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'ready'; readonly report: Report }

export function HistoryTab({ project }: { project: ProjectInfo }) {
  if (!project.memoryDir) {
    return (
      <p className="empty">This project has no memory folder, so there is no history to show.</p>
    )
  }
  return <HistoryView memoryDir={project.memoryDir} />
}

function HistoryView({ memoryDir }: { memoryDir: string }) {
  const [load, setLoad] = useState<Load>({ kind: 'loading', since: Date.now() })
  const [refreshing, setRefreshing] = useState(false)
  const [refreshKey, setRefreshKey] = useState(0)
  const [selected, setSelected] = useState<string | null>(null)
  const [now, setNow] = useState(Date.now())
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const reload = useRef<() => void>(() => {})

  useEffect(() => {
    let live = true
    let running = false
    let again = false
    const api = getApi()
    const fetchReport = () => {
      if (running) {
        again = true
        return
      }
      running = true
      setRefreshing(true)
      api
        .provenance(memoryDir)
        .then(
          (r) => {
            if (!live) return
            setLoad({ kind: 'ready', report: r as Report })
            setRefreshKey((k) => k + 1)
          },
          (e: Error) => live && setLoad({ kind: 'error', message: `${memoryDir}: ${e.message}` }),
        )
        .finally(() => {
          running = false
          if (!live) return
          setRefreshing(false)
          if (again) {
            again = false
            fetchReport()
          }
        })
    }
    reload.current = fetchReport
    fetchReport()
    const off = api.onDidChange((e) => {
      const relevant =
        e.paths.length === 0 || e.paths.some((p) => p.startsWith(memoryDir) || p.endsWith('.jsonl'))
      if (!relevant) return
      // Writes arrive in bursts (a session appends line after line): read once they settle.
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(fetchReport, 300)
    })
    return () => {
      live = false
      off()
      if (timer.current) clearTimeout(timer.current)
    }
  }, [memoryDir])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyR') {
        e.preventDefault()
        reload.current()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  // Seconds elapsed while the transcripts are read the first time (it can take a while).
  useEffect(() => {
    if (load.kind !== 'loading') return
    const t = setInterval(() => setNow(Date.now()), 500)
    return () => clearInterval(t)
  }, [load.kind])

  const files = useMemo(() => (load.kind === 'ready' ? load.report.files : []), [load])
  const current =
    files.find((f) => f.path === selected) ??
    files.find((f) => f.path.endsWith('/MEMORY.md') || f.path.endsWith('\\MEMORY.md')) ??
    files[0] ??
    null
  const places = useMemo(() => sessionPlaces(current?.writes ?? []), [current])

  if (load.kind === 'loading') {
    return (
      <div className="history-progress" role="status" data-testid="history-progress">
        <span className="history-spinner" aria-hidden /> Reading transcripts for {memoryDir}…{' '}
        {Math.max(0, Math.round((now - load.since) / 1000))} s
      </div>
    )
  }
  if (load.kind === 'error') {
    return (
      <div className="error-bar" role="alert" data-testid="history-error">
        Could not read the history: {load.message}
      </div>
    )
  }
  const problems = load.report.problems ?? []
  const rel = (p: string) => (p.startsWith(memoryDir) ? p.slice(memoryDir.length + 1) : p)
  return (
    <div className="history-tab" data-testid="history-tab">
      <HistoryFiles files={files} current={current} onSelect={setSelected} rel={rel}>
        <span className="history-refreshing muted" role="status">
          {refreshing && (
            <>
              <span className="history-spinner" aria-hidden /> reading transcripts…
            </>
          )}
        </span>
        <button
          className="history-button"
          data-testid="history-reload"
          onClick={() => reload.current()}
          disabled={refreshing}
          title="Read the transcripts and the files again (Alt+Shift+R)"
        >
          Reload
        </button>
      </HistoryFiles>
      {problems.length > 0 && (
        <details className="history-problems" data-testid="history-problems">
          <summary>{countOf(problems.length, 'problem')} while reading transcripts</summary>
          <ProblemList problems={problems} />
        </details>
      )}
      {current && (
        <div className="history-body">
          <div className="history-top">
            <section className="history-section history-writes" aria-labelledby="history-writes-h">
              <h3 id="history-writes-h">
                Writes to {rel(current.path)}
                {current.exists === false && (
                  <span className="history-warn"> (the file no longer exists)</span>
                )}
              </h3>
              <HistoryTimeline writes={current.writes} />
              {(current.drifts ?? 0) > 0 && (
                <p className="history-warn history-note">
                  {current.drifts} time{current.drifts === 1 ? '' : 's'} the file held text no
                  recorded write explains: something outside these transcripts changed it.
                </p>
              )}
            </section>
            <section
              className="history-section history-lost-section"
              aria-labelledby="history-lost-h"
            >
              <h3 id="history-lost-h">Lost lines</h3>
              <HistoryLost
                key={current.path}
                memoryDir={memoryDir}
                file={current.path}
                lost={current.lost}
                places={places}
              />
            </section>
          </div>
          <section
            className="history-section history-review-section"
            aria-labelledby="history-review-h"
          >
            <h3 id="history-review-h">Changes since last review</h3>
            {current.exists === false ? (
              <p className="history-none">The file does not exist on disk any more.</p>
            ) : (
              <HistoryReview
                key={current.path}
                memoryDir={memoryDir}
                file={current.path}
                refreshKey={refreshKey}
              />
            )}
          </section>
        </div>
      )}
    </div>
  )
}
