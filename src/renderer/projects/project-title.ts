/**
 * What a project is called and how recently it was used (issue 15 item 16). Its title is its
 * launch directory's name; when no transcript names one, the first heading of its MEMORY.md;
 * never the encoded folder name (`-root--cache-…-old-prototype`), which cannot be decoded
 * (docs/memory-rules.md §1.3) and only appears in a tooltip.
 */
import type { ProjectInfo } from '../../shared/model'

const lastSegment = (p: string): string =>
  p
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop() || p

/** Where the title came from: the launch directory, the index's heading, or neither. */
export type TitleSource = 'launch-dir' | 'memory-heading' | 'unknown'

/** The index's own heading, when it reads like a name (not "Memory" or "MEMORY.md"). */
function indexHeading(p: ProjectInfo): string | null {
  const index = p.memoryFiles.find((f) => f.role === 'index')
  const heading = index?.heading?.trim()
  if (!heading || /^(auto[ -])?memory(\.md)?$/i.test(heading)) return null
  return heading
}

/** The project's title and where it came from. */
export function projectTitle(p: ProjectInfo): {
  readonly title: string
  readonly source: TitleSource
} {
  if (p.cwds.length > 0) return { title: lastSegment(p.cwds[0]), source: 'launch-dir' }
  const heading = indexHeading(p)
  if (heading) return { title: heading, source: 'memory-heading' }
  return { title: 'Launch directory unknown', source: 'unknown' }
}

/** The title alone. */
export const titleOf = (p: ProjectInfo): string => projectTitle(p).title

/** Milliseconds of the project's last activity, or null without transcripts. */
export function activityOf(p: ProjectInfo): number | null {
  if (!p.lastActivity) return null
  const t = Date.parse(p.lastActivity)
  return Number.isNaN(t) ? null : t
}

/**
 * Most recently active first; projects without transcripts last, by title. Ties by title, then
 * by folder id, so the order is stable.
 */
export function byActivity(a: ProjectInfo, b: ProjectInfo): number {
  const ta = activityOf(a)
  const tb = activityOf(b)
  if (ta !== tb) {
    if (ta === null) return 1
    if (tb === null) return -1
    return tb - ta
  }
  return titleOf(a).localeCompare(titleOf(b)) || a.id.localeCompare(b.id)
}

/**
 * The project the window opens on: the most recently active one with a memory folder (a
 * worktree shares its main checkout's folder, so it has none of its own), else the most
 * recently active one.
 */
export function initialProject(projects: readonly ProjectInfo[]): ProjectInfo | null {
  const sorted = [...projects].sort(byActivity)
  return sorted.find((p) => p.memoryDir !== null) ?? sorted[0] ?? null
}
