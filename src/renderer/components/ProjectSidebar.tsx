/**
 * The projects found under the Claude home: worktrees grouped under their main repository,
 * each memory folder's stale / suspect counts (audited in the background, a few at a time)
 * and an "overflows" marker when its MEMORY.md runs past the load cutoff (memory-facts §2).
 * The search box filters; ↑/↓, Home and End move the selection.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { ProjectInfo } from '../../shared/limits'
import { getApi } from '../api-client'
import { appStore } from '../state/app-state'
import { useStore } from '../state/store'
import {
  groupProjects,
  healthJobs,
  invalidate,
  moveSelection,
  navigationOrder,
  nextJobs,
  projectRole,
  type FolderHealth,
  type HealthJob,
} from '../state/sidebar-state'
import './workspace.css'

/** Background audits at once: they run git, and the machine may have two cores. */
const MAX_RUNNING_CHECKS = 2

async function checkFolder(job: HealthJob): Promise<FolderHealth> {
  const api = getApi()
  try {
    const [audit, cut] = await Promise.all([
      api.audit(job.memoryDir, job.repo),
      job.indexPath ? api.cutoff(job.indexPath) : Promise.resolve(null),
    ])
    return { state: 'done', stale: audit.summary.stale, suspect: audit.summary.suspect, overflows: cut !== null && cut.firstUnloadedLine !== null }
  } catch (err) {
    return { state: 'error', message: `${job.memoryDir}: ${(err as Error).message}` }
  }
}

/** Watches `jobs` and keeps a cache of each folder's health, re-checking folders that change on disk. */
function useFolderHealth(jobs: readonly HealthJob[]): ReadonlyMap<string, FolderHealth> {
  const [health, setHealth] = useState<ReadonlyMap<string, FolderHealth>>(new Map())
  const running = useRef(new Set<string>())
  const generation = useRef(0)
  const [, setTick] = useState(0)

  useEffect(
    () =>
      getApi().onDidChange((e) => {
        generation.current++
        setHealth((known) => invalidate(known, e.paths))
      }),
    [],
  )

  useEffect(() => {
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
  })

  return health
}

function HealthBadges({ project, health }: { project: ProjectInfo; health: ReadonlyMap<string, FolderHealth> }) {
  if (project.memoryDir === null) {
    return projectRole(project) === 'main' || projectRole(project) === 'standalone' ? null : <span className="badge muted">memory shared with the main checkout</span>
  }
  const h = health.get(project.memoryDir)
  if (!h || h.state === 'pending') {
    return (
      <span className="badge muted" title="Checking the notes against the code…" data-testid="project-health">
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
      <span className={h.stale ? 'badge danger' : 'badge muted'} title="Notes whose references no longer hold">
        {h.stale} stale
      </span>
      <span className={h.suspect ? 'badge warn' : 'badge muted'} title="Notes whose referenced files changed since they were written">
        {h.suspect} suspect
      </span>
      {h.overflows && (
        <span className="badge danger" title="MEMORY.md runs past the load cutoff: its end does not load at session start" data-testid="overflows">
          overflows
        </span>
      )}
    </span>
  )
}

export function ProjectSidebar({ selectedId }: { projects?: readonly ProjectInfo[]; selectedId: string | null }) {
  const filter = useStore(appStore, (s) => s.filter)
  const scan = useStore(appStore, (s) => s.scan)
  const groups = useMemo(() => groupProjects(scan?.projects ?? [], filter), [scan, filter])
  const order = useMemo(() => navigationOrder(groups), [groups])
  const jobs = useMemo(() => healthJobs(order), [order])
  const health = useFolderHealth(jobs)

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
    return (
      <div
        key={p.id}
        id={`project-${p.id}`}
        role="option"
        tabIndex={p.id === selectedId || (selectedId === null && p === order[0]) ? 0 : -1}
        aria-selected={p.id === selectedId}
        className={`project${p.id === selectedId ? ' selected' : ''}${nested ? ' nested' : ''}`}
        onClick={() => select(p.id, false)}
        title={p.cwds.join('\n') || p.dir}
      >
        <span className="project-name">
          {nested && <span className="tree-mark" aria-hidden="true">└ </span>}
          {p.name}
          {(role === 'worktree' || role === 'subfolder') && <span className="badge muted">{role}</span>}
        </span>
        <span className="project-meta">{p.cwds[0] ?? 'launch directory unknown (no transcripts left)'}</span>
        <span className="project-counts">
          {p.sessions} session{p.sessions === 1 ? '' : 's'} · {p.memoryFiles.length} memory file{p.memoryFiles.length === 1 ? '' : 's'}
          {p.problems.length > 0 && (
            <span className="warn">
              {' '}
              · {p.problems.length} problem{p.problems.length === 1 ? '' : 's'}
            </span>
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
      <div className="project-list" role="listbox" aria-label="Projects" onKeyDown={onKey} data-testid="project-list">
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
      {scan && groups.length === 0 && <p className="empty">No projects match “{filter}”.</p>}
    </nav>
  )
}
