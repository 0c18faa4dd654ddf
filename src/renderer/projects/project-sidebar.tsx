/**
 * The projects found under the Claude home: worktrees grouped under their main repository,
 * each memory folder's stale / suspect counts (audited in the background, a few at a time)
 * and an "overflows" marker when its MEMORY.md runs past the load cutoff (docs/memory-rules.md §2.1).
 * The search box filters; ↑/↓, Home and End move the selection.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { ProjectInfo } from '../../shared/model'
import { getApi } from '../api/api-client'
import { appStore } from '../state/app-state'
import { auditEntry, ensureAudit, useAuditView } from '../state/audit-store'
import { useStore } from '../state/store'
import {
  backgroundDelay,
  groupProjects,
  healthJobs,
  invalidate,
  moveSelection,
  navigationOrder,
  nextJobs,
  projectRole,
  type FolderHealth,
  visibleJobs,
  type HealthJob,
} from './sidebar-state'
import { projectTitle } from './project-title'
import { countOf, formatDateTime, formatRelative } from '../common/format'
import './project-sidebar.css'

/**
 * Background audits at once. One: they share the back end's single thread with the user's own
 * requests (issue 7), and they run git while the machine may have two cores.
 */
const MAX_RUNNING_CHECKS = 1
/** Background checks start this long after the list first draws... */
const SETTLE_AFTER_LIST_MS = 1500
/** ...and this long after the user's last click or key. */
const QUIET_AFTER_INPUT_MS = 1000

async function checkFolder(job: HealthJob): Promise<FolderHealth> {
  const api = getApi()
  try {
    // The audit the Notes and Review queue tabs show (state/audit-store.ts): one run, one summary.
    const [view, cut] = await Promise.all([
      ensureAudit(job.memoryDir, job.repo),
      job.indexPath ? api.cutoff(job.indexPath) : Promise.resolve(null),
    ])
    if (!view) throw new Error(auditEntry(job.memoryDir, job.repo).error ?? 'audit cancelled')
    return {
      state: 'done',
      stale: view.summary.counts.stale,
      suspect: view.summary.counts.suspect,
      overflows: cut !== null && cut.firstUnloadedLine !== null,
    }
  } catch (err) {
    return { state: 'error', message: `${job.memoryDir}: ${(err as Error).message}` }
  }
}

/** The last time the user clicked or pressed a key anywhere in the window. */
function useLastInput(): { readonly current: number } {
  const last = useRef(0)
  useEffect(() => {
    const mark = (): void => {
      last.current = performance.now()
    }
    const events = ['pointerdown', 'click', 'keydown'] as const
    for (const e of events) window.addEventListener(e, mark, true)
    return () => {
      for (const e of events) window.removeEventListener(e, mark, true)
    }
  }, [])
  return last
}

/** The memory folders whose rows are on screen in the list (null until the first report). */
function useVisibleFolders(
  list: { readonly current: HTMLElement | null },
  rowsKey: unknown,
): ReadonlySet<string> | null {
  const [visible, setVisible] = useState<ReadonlySet<string> | null>(null)
  useEffect(() => {
    const root = list.current
    if (!root || typeof IntersectionObserver === 'undefined') return
    const shown = new Map<Element, string>()
    const observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const dir = (e.target as HTMLElement).dataset.memoryDir
          if (!dir) continue
          if (e.isIntersecting) shown.set(e.target, dir)
          else shown.delete(e.target)
        }
        setVisible(new Set(shown.values()))
      },
      { root, rootMargin: '200px 0px' },
    )
    for (const el of root.querySelectorAll('[data-memory-dir]')) observer.observe(el)
    return () => observer.disconnect()
  }, [list, rowsKey])
  return visible
}

/**
 * Watches `jobs` and keeps a cache of each folder's health, re-checking folders that change on
 * disk. Checks run one at a time, for rows on screen, once the list has settled and the user is
 * not waiting on a request of their own (issue 7).
 */
function useFolderHealth(
  allJobs: readonly HealthJob[],
  visible: ReadonlySet<string> | null,
  listedAt: number | null,
): ReadonlyMap<string, FolderHealth> {
  const [health, setHealth] = useState<ReadonlyMap<string, FolderHealth>>(new Map())
  const running = useRef(new Set<string>())
  const generation = useRef(0)
  const [tick, setTick] = useState(0)
  const lastInput = useLastInput()
  const jobs = useMemo(() => visibleJobs(allJobs, visible), [allJobs, visible])

  useEffect(
    () =>
      getApi().onDidChange((e) => {
        generation.current++
        setHealth((known) => invalidate(known, e.paths))
      }),
    [],
  )

  useEffect(() => {
    const wait = backgroundDelay(
      performance.now(),
      listedAt,
      lastInput.current,
      SETTLE_AFTER_LIST_MS,
      QUIET_AFTER_INPUT_MS,
    )
    if (wait > 0) {
      if (nextJobs(jobs, health, running.current, MAX_RUNNING_CHECKS).length === 0) return
      const t = setTimeout(() => setTick((n) => n + 1), wait)
      return () => clearTimeout(t)
    }
    for (const job of nextJobs(jobs, health, running.current, MAX_RUNNING_CHECKS)) {
      const started = generation.current
      running.current.add(job.memoryDir)
      void checkFolder(job).then((result) => {
        running.current.delete(job.memoryDir)
        // A change arrived while checking: this result may be out of date, so check again.
        if (started !== generation.current) setTick((t) => t + 1)
        else setHealth((known) => new Map(known).set(job.memoryDir, result))
      })
    }
    return undefined
  }, [jobs, health, listedAt, lastInput, tick])

  return health
}

function HealthBadges({
  project,
  health,
}: {
  project: ProjectInfo
  health: ReadonlyMap<string, FolderHealth>
}) {
  const view = useAuditView(project.memoryDir, project.repoRoot)
  if (project.memoryDir === null) {
    return projectRole(project) === 'main' || projectRole(project) === 'standalone' ? null : (
      <span className="badge muted">memory shared with the main checkout</span>
    )
  }
  const known = health.get(project.memoryDir)
  // The counts of the project's latest audit, wherever it ran (the Notes tab's too): issue 15 item 4.
  const h: FolderHealth | undefined =
    view && known?.state === 'done'
      ? { ...known, stale: view.summary.counts.stale, suspect: view.summary.counts.suspect }
      : view && !known
        ? {
            state: 'done',
            stale: view.summary.counts.stale,
            suspect: view.summary.counts.suspect,
            overflows: false,
          }
        : known
  if (!h || h.state === 'pending') {
    return (
      <span
        className="badge muted"
        title="Checking the notes against the code…"
        data-testid="project-health"
      >
        …
      </span>
    )
  }
  if (h.state === 'error') {
    return (
      <span className="badge warn" title={h.message} data-testid="project-health">
        audit failed
      </span>
    )
  }
  return (
    <span data-testid="project-health" className="health">
      <span
        className={h.stale ? 'badge danger' : 'badge muted'}
        title="Notes whose references no longer hold"
      >
        {h.stale.toLocaleString()} stale
      </span>
      <span
        className={h.suspect ? 'badge warn' : 'badge muted'}
        title="Notes whose referenced files changed since they were written"
      >
        {h.suspect.toLocaleString()} suspect
      </span>
      {h.overflows && (
        <span
          className="badge danger"
          title="MEMORY.md runs past the load cutoff: its end does not load at session start"
          data-testid="overflows"
        >
          overflows
        </span>
      )}
    </span>
  )
}

/** When the list first had projects to show (performance.now()), or null before. */
function useListedAt(listed: boolean): number | null {
  const [at, setAt] = useState<number | null>(null)
  useEffect(() => {
    if (listed && at === null) setAt(performance.now())
  }, [listed, at])
  return at
}

export function ProjectSidebar({
  selectedId,
}: {
  projects?: readonly ProjectInfo[]
  selectedId: string | null
}) {
  const filter = useStore(appStore, (s) => s.filter)
  const scan = useStore(appStore, (s) => s.scan)
  const groups = useMemo(() => groupProjects(scan?.projects ?? [], filter), [scan, filter])
  const order = useMemo(() => navigationOrder(groups), [groups])
  const jobs = useMemo(() => healthJobs(order), [order])
  const listRef = useRef<HTMLDivElement | null>(null)
  const visible = useVisibleFolders(listRef, order)
  const listedAt = useListedAt(scan !== null)
  const health = useFolderHealth(jobs, visible, listedAt)

  const select = (id: string, focus: boolean) => {
    appStore.dispatch({ type: 'select', id })
    if (focus) document.getElementById(`project-${id}`)?.focus()
  }
  const onKey = (e: KeyboardEvent<HTMLElement>) => {
    const next = moveSelection(order, selectedId, e.key)
    if (next) {
      e.preventDefault()
      select(next, true)
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
    }
  }
  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'ArrowDown') return
    e.preventDefault()
    const target = order.find((p) => p.id === selectedId) ?? order[0]
    if (target) select(target.id, true)
  }

  const row = (p: ProjectInfo, nested: boolean) => {
    const role = projectRole(p)
    const { title, source } = projectTitle(p)
    const where =
      source === 'launch-dir'
        ? p.cwds.join('\n')
        : `Launch directory unknown: no transcript is left to name it.\nFolder: ${p.dir}`
    return (
      <div
        key={p.id}
        id={`project-${p.id}`}
        role="option"
        tabIndex={p.id === selectedId || (selectedId === null && p === order[0]) ? 0 : -1}
        aria-selected={p.id === selectedId}
        className={`project${p.id === selectedId ? ' selected' : ''}${nested ? ' nested' : ''}`}
        onClick={() => select(p.id, false)}
        title={where}
        data-memory-dir={p.memoryDir ?? undefined}
        data-testid="project-row"
      >
        <span className="project-name">
          {nested && (
            <span className="tree-mark" aria-hidden="true">
              └{' '}
            </span>
          )}
          <span className="project-title" data-testid="project-title">
            {title}
          </span>
          {(role === 'worktree' || role === 'subfolder') && (
            <span className="badge muted">{role}</span>
          )}
        </span>
        <span className="project-meta">
          {p.cwds[0] ?? 'launch directory unknown (no transcripts left)'}
        </span>
        <span className="project-counts">
          {countOf(p.sessions, 'session')} · {countOf(p.memoryFiles.length, 'memory file')}
          {p.lastActivity && (
            <>
              {' · '}
              <time
                dateTime={p.lastActivity}
                title={`Last session activity: ${formatDateTime(p.lastActivity)}`}
                data-testid="project-activity"
              >
                active {formatRelative(p.lastActivity)}
              </time>
            </>
          )}
          {p.problems.length > 0 && (
            <span className="warn"> · {countOf(p.problems.length, 'problem')}</span>
          )}
        </span>
        <span className="project-health">
          <HealthBadges project={p} health={health} />
        </span>
      </div>
    )
  }

  return (
    <nav className="sidebar" aria-label="Projects">
      <input
        className="search"
        type="search"
        placeholder="Search projects (↓ to the list)"
        aria-label="Search projects"
        value={filter}
        onChange={(e) => appStore.dispatch({ type: 'filter', text: e.target.value })}
        onKeyDown={onSearchKey}
        data-testid="project-search"
      />
      <div
        className="project-list"
        role="listbox"
        aria-label="Projects"
        onKeyDown={onKey}
        data-testid="project-list"
        ref={listRef}
      >
        {groups.map((g) => (
          <div key={g.key} role="group" aria-label={g.label} className="project-group">
            {g.main === null && (
              <div className="group-head" title={g.repoRoot ?? undefined}>
                {g.label} <span className="muted">(repository root never opened)</span>
              </div>
            )}
            {g.main && row(g.main, false)}
            {g.members.map((p) => row(p, true))}
          </div>
        ))}
      </div>
      {scan && groups.length === 0 && (
        <p className="empty">
          {filter.trim() ? `No projects match “${filter}”.` : 'No projects yet.'}
        </p>
      )}
    </nav>
  )
}
