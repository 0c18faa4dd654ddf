/**
 * Everything a `provenance` report of one memory folder is computed from, for the run cache
 * (cache/run-cache.ts): a warm run checks these and prints the saved report (issue 16).
 * Deliberately a superset, listed with plain synchronous calls and no module of the provenance
 * code, so a warm run loads nothing else:
 * - the transcripts as transcript-listing.ts finds them: `<home>/projects`, every project
 *   folder, every session folder and its `subagents` folder (present or not), each by its
 *   identity (a folder's changes when an entry comes or goes), and every `*.jsonl` in them;
 * - the memory folder, every entry at any depth (symlinks followed, each real folder once);
 * - our evidence archive (transcripts/evidence-archive.ts), by the names in its folders.
 * Null when the home has more than the run cache takes (then nothing is cached).
 */
import { readdirSync, statSync, type Dirent } from 'node:fs'
import { join } from 'node:path'
import { MAX_INPUTS, type RunInputs } from '../cache/run-cache'

/** Deepest folder of a memory folder followed here (deeper than any listing goes). */
const MEMORY_WALK_DEPTH = 16

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    // Missing or unlistable: its identity (recorded by the caller) says so.
    return []
  }
}

/** The inputs of a provenance report of `memoryDir` over the transcripts of `claudeHome`. */
export function provenanceInputs(
  claudeHome: string,
  memoryDir: string,
  stateDir: string,
): RunInputs | null {
  const paths: string[] = []
  const listings: string[] = []
  const projects = join(claudeHome, 'projects')
  paths.push(projects)
  for (const p of list(projects)) {
    if (!p.isDirectory()) continue
    const dir = join(projects, p.name)
    paths.push(dir)
    for (const e of list(dir)) {
      if (e.isFile() && e.name.endsWith('.jsonl')) paths.push(join(dir, e.name))
      else if (e.isDirectory() && e.name !== 'memory') {
        const subagents = join(dir, e.name, 'subagents')
        paths.push(join(dir, e.name), subagents)
        for (const s of list(subagents))
          if (s.isFile() && s.name.endsWith('.jsonl')) paths.push(join(subagents, s.name))
      }
    }
    if (paths.length > MAX_INPUTS) return null
  }
  if (!walkMemory(memoryDir, paths)) return null
  const evidence = join(stateDir, 'evidence')
  listings.push(evidence)
  for (const layout of list(evidence)) {
    if (!layout.isDirectory()) continue
    const dir = join(evidence, layout.name)
    listings.push(dir)
    for (const f of list(dir)) if (f.isDirectory()) listings.push(join(dir, f.name))
    if (listings.length > MAX_INPUTS) return null
  }
  return { paths, listings }
}

/** Every entry under `root` (itself included), folders entered once each; false when too many. */
function walkMemory(root: string, paths: string[]): boolean {
  const seen = new Set<string>()
  const walk = (dir: string, depth: number): boolean => {
    paths.push(dir)
    let id: string
    try {
      const st = statSync(dir)
      if (!st.isDirectory()) return true
      id = `${st.dev}:${st.ino}`
    } catch {
      return true
    }
    if (seen.has(id) || depth > MEMORY_WALK_DEPTH) return true
    seen.add(id)
    for (const e of list(dir)) {
      const path = join(dir, e.name)
      if (e.isDirectory() || e.isSymbolicLink()) {
        if (!walk(path, depth + 1)) return false
      } else paths.push(path)
      if (paths.length > MAX_INPUTS) return false
    }
    return true
  }
  return walk(root, 0)
}
