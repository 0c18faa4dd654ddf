/**
 * The projects sidebar as pure functions: grouping worktrees under their main repository,
 * filtering, keyboard movement, and which background audits to start next.
 * Worktrees share the main worktree's memory folder (docs/memory-rules.md §1.5), which is why they
 * are shown under it.
 */
import type { ProjectInfo } from '../../shared/model'
import { activityOf, byActivity, titleOf } from './project-title'

/** How a project relates to the repository it belongs to. */
export type ProjectRole = 'main' | 'worktree' | 'subfolder' | 'standalone'

/** One repository (or a project outside git) and the projects launched in it. */
export interface ProjectGroup {
  /** `repo:<root>` for a repository, `id:<folder>` for a project outside git. */
  readonly key: string
  readonly repoRoot: string | null
  /** Shown as the group's heading when there is no main project to show. */
  readonly label: string
  /** The project launched in the repository root itself, when there is one. */
  readonly main: ProjectInfo | null
  /** Projects launched in linked worktrees or subfolders of the repository. */
  readonly members: readonly ProjectInfo[]
}

const lastSegment = (p: string): string =>
  p
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop() || p

function isUnder(child: string, parent: string): boolean {
  const base = parent.replace(/[\\/]+$/, '')
  return child.startsWith(base + '/') || child.startsWith(base + '\\')
}

/** Whether `p` was launched in its repository root, a linked worktree, a subfolder, or outside git. */
export function projectRole(p: ProjectInfo): ProjectRole {
  if (p.repoRoot === null) return 'standalone'
  if (p.cwds.length === 0 || p.cwds.includes(p.repoRoot)) return 'main'
  return p.cwds.every((c) => isUnder(c, p.repoRoot as string)) ? 'subfolder' : 'worktree'
}

/** Case-insensitive match on the name, folder id, launch directories and repository root. */
export function matchesFilter(p: ProjectInfo, filter: string): boolean {
  const f = filter.trim().toLowerCase()
  if (!f) return true
  const fields = [titleOf(p), p.name, p.id, ...p.cwds, p.repoRoot ?? '']
  return fields.some((s) => s.toLowerCase().includes(f))
}

const byName = (a: ProjectInfo, b: ProjectInfo): number =>
  titleOf(a).localeCompare(titleOf(b)) || a.id.localeCompare(b.id)

/** A group's last activity: its most recently active project's (null: no transcripts at all). */
function groupActivity(list: readonly ProjectInfo[]): number | null {
  let newest: number | null = null
  for (const p of list) {
    const t = activityOf(p)
    if (t !== null && (newest === null || t > newest)) newest = t
  }
  return newest
}

/**
 * Group projects by repository root. A group is kept when any of its projects matches the
 * filter; its main project stays visible as the parent of a matching worktree.
 * Most recently active groups first (issue 15 item 16), those without transcripts last, by label.
 */
export function groupProjects(projects: readonly ProjectInfo[], filter = ''): ProjectGroup[] {
  const buckets = new Map<string, ProjectInfo[]>()
  for (const p of projects) {
    const key = p.repoRoot !== null ? `repo:${p.repoRoot}` : `id:${p.id}`
    const list = buckets.get(key)
    if (list) list.push(p)
    else buckets.set(key, [p])
  }
  const groups: (ProjectGroup & { readonly activity: number | null })[] = []
  for (const [key, list] of buckets) {
    const matching = list.filter((p) => matchesFilter(p, filter))
    if (matching.length === 0) continue
    const repoRoot = list[0].repoRoot
    const main =
      [...list]
        .sort(byName)
        .find((p) => projectRole(p) === 'main' || projectRole(p) === 'standalone') ?? null
    const members = matching.filter((p) => p !== main).sort(byActivity)
    groups.push({
      key,
      repoRoot,
      label: main ? titleOf(main) : repoRoot ? lastSegment(repoRoot) : titleOf(list[0]),
      main,
      members,
      activity: groupActivity(list),
    })
  }
  groups.sort(
    (a, b) =>
      (a.activity === b.activity
        ? 0
        : a.activity === null
          ? 1
          : b.activity === null
            ? -1
            : b.activity - a.activity) ||
      a.label.localeCompare(b.label) ||
      a.key.localeCompare(b.key),
  )
  return groups.map(({ activity: _activity, ...g }) => g)
}

/** Projects in the order the sidebar shows them (what ↑/↓ walks through). */
export function navigationOrder(groups: readonly ProjectGroup[]): ProjectInfo[] {
  return groups.flatMap((g) => (g.main ? [g.main, ...g.members] : [...g.members]))
}

/** The project a navigation key moves to, or null when the key does not move. */
export function moveSelection(
  order: readonly ProjectInfo[],
  selectedId: string | null,
  key: string,
): string | null {
  if (order.length === 0) return null
  const i = order.findIndex((p) => p.id === selectedId)
  let next: ProjectInfo | undefined
  if (key === 'ArrowDown') next = i < 0 ? order[0] : order[i + 1]
  else if (key === 'ArrowUp') next = i < 0 ? order[order.length - 1] : order[i - 1]
  else if (key === 'Home') next = order[0]
  else if (key === 'End') next = order[order.length - 1]
  return next && next.id !== selectedId ? next.id : null
}

/** What the sidebar knows about a memory folder's health. */
export type FolderHealth =
  | { readonly state: 'pending' }
  | {
      readonly state: 'done'
      readonly stale: number
      readonly suspect: number
      readonly overflows: boolean
    }
  | { readonly state: 'error'; readonly message: string }

/** A background check of one memory folder: its audit and the cutoff of its index. */
export interface HealthJob {
  readonly memoryDir: string
  readonly repo: string | null
  readonly indexPath: string | null
}

/** The memory folders worth checking, in display order, once each. */
export function healthJobs(order: readonly ProjectInfo[]): HealthJob[] {
  const seen = new Set<string>()
  const jobs: HealthJob[] = []
  for (const p of order) {
    if (p.memoryDir === null || seen.has(p.memoryDir)) continue
    seen.add(p.memoryDir)
    const index = p.memoryFiles.find((f) => f.role === 'index')
    jobs.push({ memoryDir: p.memoryDir, repo: p.repoRoot, indexPath: index?.path ?? null })
  }
  return jobs
}

/** The jobs to start now: not known, not running, at most `max` running in all. */
export function nextJobs(
  jobs: readonly HealthJob[],
  known: ReadonlyMap<string, FolderHealth>,
  running: ReadonlySet<string>,
  max: number,
): HealthJob[] {
  const free = max - running.size
  if (free <= 0) return []
  return jobs.filter((j) => !known.has(j.memoryDir) && !running.has(j.memoryDir)).slice(0, free)
}

/** Forget what is known about folders a change touched, so they are checked again. */
export function invalidate(
  known: ReadonlyMap<string, FolderHealth>,
  changedPaths: readonly string[],
): Map<string, FolderHealth> {
  const next = new Map(known)
  if (changedPaths.length === 0) return new Map()
  for (const dir of known.keys()) {
    if (changedPaths.some((p) => p === dir || isUnder(p, dir))) next.delete(dir)
  }
  return next
}

/**
 * The jobs worth running now (issue 7): only folders whose rows are on screen, in display order.
 * `visible` null means "not known yet" (no layout information): every job counts.
 */
export function visibleJobs(
  jobs: readonly HealthJob[],
  visible: ReadonlySet<string> | null,
): HealthJob[] {
  return visible === null ? [...jobs] : jobs.filter((j) => visible.has(j.memoryDir))
}

/**
 * How long a background check must still wait (ms), or 0 to start it now: never before the
 * window has drawn its first view (`readyAt`) plus `settleMs`, and never within `quietMs` of the
 * user's last click or key, so a user's request does not queue behind a background audit.
 */
export function backgroundDelay(
  now: number,
  readyAt: number | null,
  lastInputAt: number,
  settleMs: number,
  quietMs: number,
): number {
  if (readyAt === null) return settleMs
  return Math.max(0, readyAt + settleMs - now, lastInputAt + quietMs - now)
}
