/**
 * What a Claude home's startup scan depends on, as one string: its project folders, when each
 * last gained or lost a file (a new project or session), and every file and folder in each
 * project's memory folder with its size and time. The back end reuses its startup scan only
 * while this is unchanged: the watcher cannot vouch for it, since files written while the watcher
 * was still making its first listing raise no event (an e2e test writing 400 topic files right
 * after start saw a window that kept a listing from before, under load).
 */
import { lstatSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { TOPIC_SCAN_MAX_DEPTH } from '../../core/limits'
import { syncSliceUsed, yieldToLoop } from '../fs/sync-slice'

/** Past this many entries the stamp is not worth its cost: the scan is simply run again. */
const STAMP_MAX_ENTRIES = 20_000

/**
 * One line per project folder (`<p>␁<mtime>`) and per entry below its memory folder, the folder
 * included (`<p>/memory/<rel>␁<mtime>:<size>`), in name order.
 *
 * Read synchronously (thousands of small calls through the thread pool took ~8× longer: 170–220 ms
 * for 8,500 entries against ~25 ms), a slice at a time (fs/sync-slice.ts): the walk of every
 * memory folder held the one thread ~150–200 ms in a new process at start, while the window's
 * page and its first requests waited (issue 16).
 */
export async function projectsStamp(claudeHome: string): Promise<string> {
  const root = join(claudeHome, 'projects')
  let names: string[]
  try {
    names = (await readdir(root)).sort()
  } catch {
    return ''
  }
  const budget = { left: STAMP_MAX_ENTRIES }
  const parts: string[] = []
  for (const n of names) {
    if (syncSliceUsed()) await yieldToLoop()
    const lines = [`${n}${SEP}${mtimeOf(join(root, n))}`]
    const memory = join(root, n, 'memory')
    const top = lstatOrNull(memory)
    if (top?.isDirectory()) {
      lines.push(`${n}/memory${SEP}${top.mtimeMs}:${top.size}`)
      await treeStamp(memory, `${n}/memory`, 0, budget, lines)
    }
    parts.push(lines.join('\n'))
    // Too big to stamp: a stamp that never matches, so the scan is not reused.
    if (budget.left < 0) return `unstamped ${process.hrtime.bigint()}`
  }
  return parts.join('\n')
}

const SEP = '\u0001'

/** The modification time of what `path` names (symlinks followed), -1 when it cannot be read. */
function mtimeOf(path: string): number {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? -1
  } catch {
    return -1
  }
}

/** `path` itself (a symlink not followed), or null when it cannot be read (gone, ENOTDIR, EACCES). */
function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null
  } catch {
    return null
  }
}

/** Each entry below `dir` (symlinks not followed) with its size and time, added to `out`. */
async function treeStamp(
  dir: string,
  rel: string,
  depth: number,
  budget: { left: number },
  out: string[],
): Promise<void> {
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    out.push(`${rel}${SEP}unreadable`)
    return
  }
  budget.left -= entries.length
  if (budget.left < 0) return
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const e of entries) {
    // Checked without an await: a promise per entry cost more than the walk's own calls.
    if (syncSliceUsed()) await yieldToLoop()
    const st = lstatOrNull(join(dir, e.name))
    out.push(`${rel}/${e.name}${SEP}${st ? `${st.mtimeMs}:${st.size}` : '?'}`)
    if (e.isDirectory() && depth < TOPIC_SCAN_MAX_DEPTH)
      await treeStamp(join(dir, e.name), `${rel}/${e.name}`, depth + 1, budget, out)
  }
}

/**
 * What differs between two stamps of `claudeHome`: each project folder, memory folder and file
 * in it that was added, removed or changed; the projects folder itself when either stamp is not
 * a full one.
 */
export function changedPaths(claudeHome: string, before: string, after: string): string[] {
  if (before === after) return []
  const root = join(claudeHome, 'projects')
  if (before.startsWith('unstamped ') || after.startsWith('unstamped ')) return [root]
  const old = new Set(before.split('\n'))
  const now = new Set(after.split('\n'))
  const paths = new Set<string>()
  for (const l of now) if (!old.has(l)) paths.add(l.split(SEP)[0])
  for (const l of old) if (!now.has(l)) paths.add(l.split(SEP)[0])
  paths.delete('')
  return paths.size === 0 ? [root] : [...paths].sort().map((p) => join(root, ...p.split('/')))
}
