/**
 * What a Claude home's startup scan depends on, as one string: its project folders, when each
 * last gained or lost a file (a new project or session), and every file and folder in each
 * project's memory folder with its size and time. The back end reuses its startup scan only
 * while this is unchanged: the watcher cannot vouch for it, since files written while the watcher
 * was still making its first listing raise no event (an e2e test writing 400 topic files right
 * after start saw a window that kept a listing from before, under load).
 */
import type { Dirent } from 'node:fs'
import { lstat, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { TOPIC_SCAN_MAX_DEPTH } from '../../core/limits'

/** Past this many entries the stamp is not worth its cost: the scan is simply run again. */
const STAMP_MAX_ENTRIES = 20_000

export async function projectsStamp(claudeHome: string): Promise<string> {
  const root = join(claudeHome, 'projects')
  let names: string[]
  try {
    names = (await readdir(root)).sort()
  } catch {
    return ''
  }
  const budget = { left: STAMP_MAX_ENTRIES }
  const parts = await Promise.all(
    names.map(async (n) => {
      const time = await stat(join(root, n)).then(
        (st) => st.mtimeMs,
        () => -1,
      )
      const memory = await treeStamp(join(root, n, 'memory'), 0, budget)
      return `${n}\u0000${time}\u0000${memory}`
    }),
  )
  // Too big to stamp: a stamp that never matches, so the scan is not reused.
  if (budget.left < 0) return `unstamped ${process.hrtime.bigint()}`
  return parts.join('\n')
}

/** Each entry below `dir` (symlinks not followed) with its kind, size and time, in name order. */
async function treeStamp(dir: string, depth: number, budget: { left: number }): Promise<string> {
  let entries: Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return depth === 0 ? 'none' : 'unreadable'
  }
  budget.left -= entries.length
  if (budget.left < 0) return ''
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const lines = await Promise.all(
    entries.map(async (e) => {
      const p = join(dir, e.name)
      const st = await lstat(p).catch(() => null)
      const head = `${e.name}\u0001${st ? `${st.mtimeMs}:${st.size}` : '?'}`
      if (e.isDirectory() && depth < TOPIC_SCAN_MAX_DEPTH)
        return `${head}\u0002${await treeStamp(p, depth + 1, budget)}\u0003`
      return head
    }),
  )
  return lines.join('\u0004')
}

/**
 * The memory folders whose lines differ between two stamps of `claudeHome` (a project added,
 * removed or changed); the projects folder itself when either stamp is not a full one.
 */
export function changedMemoryDirs(claudeHome: string, before: string, after: string): string[] {
  if (before === after) return []
  const root = join(claudeHome, 'projects')
  if (before.startsWith('unstamped ') || after.startsWith('unstamped ')) return [root]
  const old = new Set(before.split('\n'))
  const now = new Set(after.split('\n'))
  const names = new Set<string>()
  for (const l of now) if (!old.has(l)) names.add(l.split('\u0000')[0])
  for (const l of old) if (!now.has(l)) names.add(l.split('\u0000')[0])
  names.delete('')
  return names.size === 0 ? [root] : [...names].sort().map((n) => join(root, n, 'memory'))
}
