/**
 * Finding the transcripts and memory files of a Claude home by listing its folders, with the
 * listings kept between runs (issue 7: a warm run lists ~800 folders again, a fifth of its time).
 *
 * Decisions:
 * - A folder listed before is only stat'ed: adding, removing or renaming an entry changes its
 *   identity (cache/file-identity.ts). A listing is kept only when the folder's mtime was
 *   already `RACY_MS` old when it was taken, so a change in the same clock tick is never missed.
 * - What is derived from a kept listing (its transcripts, its memory files) is kept with it and
 *   goes when it goes.
 * - Listing is synchronous, a slice at a time (issue 7).
 */
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { join } from 'node:path'
import type { Problem } from '../../shared/model'
import { BoundedCache } from '../cache/bounded-cache'
import { statsIdentity } from '../cache/file-identity'
import { mapLimited } from '../jobs/concurrency'
import { yieldIfSliceUsed } from './stream'

/** Folders listed at once when finding transcripts and memory files. */
export const LIST_CONCURRENCY = 16
/** How old a folder's mtime must be for its listing to be trusted later (coarse clocks, skew). */
const RACY_MS = 3000

/** A folder's entries, and what was derived from them (the same object while the folder is unchanged). */
interface Listing {
  readonly entries: Dirent[]
  /** Top-level `*.md` files, when a memory folder. */
  files?: string[]
  /** Transcripts of a project folder, with the sub-agent listings they came from. */
  transcripts?: { readonly subs: readonly (Listing | null)[]; readonly paths: string[] }
}

/** Listings by folder, kept while the folder keeps its identity. */
const listings = new BoundedCache<string, Listing>(50_000)

/** A folder's entries, or null when it can't be listed. */
async function listDir(path: string): Promise<Listing | null> {
  await yieldIfSliceUsed()
  try {
    const before = statSync(path)
    const id = before.isDirectory() ? statsIdentity(before) : null
    const known = listings.get(path, id)
    if (known) return known
    const listing: Listing = { entries: readdirSync(path, { withFileTypes: true }) }
    listings.set(path, listing, Date.now() - before.mtimeMs > RACY_MS ? id : null)
    return listing
  } catch {
    listings.delete(path)
    return null
  }
}

/** Every transcript of the Claude home: `<p>/*.jsonl` (sessions and legacy `agent-*`) and `<p>/<s>/subagents/*.jsonl`. */
export async function listTranscripts(
  projectsDir: string,
  problems: Problem[],
): Promise<{ transcripts: string[]; memoryDirs: string[] }> {
  const projects = await listDir(projectsDir)
  if (projects === null) {
    problems.push({ path: projectsDir, reason: 'no readable projects folder' })
    return { transcripts: [], memoryDirs: [] }
  }
  // Symlinked folders are not followed: nothing Claude writes is one, and they could loop.
  const dirs = projects.entries.filter((p) => p.isDirectory()).map((p) => join(projectsDir, p.name))
  // Folders are listed concurrently; problems keep the folder order.
  const listed = await mapLimited(dirs, LIST_CONCURRENCY, async (dir) => {
    const listing = await listDir(dir)
    // An unlistable folder may still let its memory folder be listed: try it.
    if (listing === null)
      return {
        paths: [],
        memory: true,
        problem: { path: dir, reason: 'unreadable project folder' },
      }
    const items = listing.entries
    const memory = items.some((it) => it.name === 'memory')
    const sessions = items.filter((it) => it.isDirectory() && it.name !== 'memory')
    const subs: (Listing | null)[] = []
    for (const it of sessions) subs.push(await listDir(join(dir, it.name, 'subagents')))
    // The same listings as last time (same objects): the same transcripts.
    const known = listing.transcripts
    if (known?.subs.length === subs.length && known.subs.every((x, i) => x === subs[i]))
      return { paths: known.paths, memory, problem: null }
    const paths: string[] = []
    let next = 0
    for (const it of items) {
      if (it.isFile() && it.name.endsWith('.jsonl')) paths.push(join(dir, it.name))
      else if (it.isDirectory() && it.name !== 'memory') {
        for (const s of subs[next++]?.entries ?? []) {
          if (s.isFile() && s.name.endsWith('.jsonl'))
            paths.push(join(dir, it.name, 'subagents', s.name))
        }
      }
    }
    listing.transcripts = { subs, paths }
    return { paths, memory, problem: null }
  })
  const out: string[] = []
  const memoryDirs: string[] = []
  listed.forEach((l, i) => {
    if (l.problem) problems.push(l.problem)
    out.push(...l.paths)
    // Listed once here instead of listing every project folder again (issue 7).
    if (l.memory) memoryDirs.push(join(dirs[i], 'memory'))
  })
  return { transcripts: out.sort(), memoryDirs }
}

/** Top-level `*.md` files of a memory folder (the index and topic files, docs/memory-rules.md §1.5). */
export async function memoryFiles(dir: string): Promise<string[]> {
  const listing = await listDir(dir)
  if (listing === null) return []
  listing.files ??= listing.entries
    .filter((i) => i.isFile() && i.name.endsWith('.md'))
    .map((i) => join(dir, i.name))
  return listing.files
}
