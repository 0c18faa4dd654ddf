/**
 * The tracked files and folders a note's partial paths and bare names end with (issue 12 item
 * 2), read in one pass over the tracked paths for all of an audit's notes (prepare-notes.ts).
 */
import type { Note } from '../../core/memory/notes'
import type { Reference } from '../../core/audit/reference'
import { candidatePaths, isNameSuffix, webRootPath } from '../../core/audit/repo-paths'
import type { RepoState } from '../git/history'
import { dirname } from 'node:path'

/** Files kept per file-name suffix (RepoFacts.withSuffix): enough to show and to count. */
const SUFFIXED_MAX = 50

/**
 * For each path a note writes that is absent at every candidate place, the tracked files and
 * folders whose path ends with `/<path>`: one pass over the tracked paths' suffixes.
 */
export function bySuffix(
  state: RepoState,
  notes: readonly Note[],
  refs: ReadonlyMap<Note, readonly Reference[]>,
  root: string,
  existsCache: ReadonlyMap<string, { exists: boolean }>,
): {
  out: Map<string, string[]>
  caseless: Map<string, string[]>
  suffixed: Map<string, string[]>
} {
  const written = new Set<string>()
  for (const n of notes) {
    for (const r of refs.get(n) ?? []) {
      const p =
        r.kind === 'path' ? r.path : r.kind === 'command' && r.runner === 'file' ? r.target : null
      if (p === null) continue
      // A rooted path outside the repository may be a web root's (check-path.ts webRootFile).
      const served = webRootPath(p)
      if (served !== null && candidatePaths(p, root, null) === null) written.add(served)
      if (p.startsWith('../') || p.startsWith('/') || p.startsWith('~')) continue
      const cands = candidatePaths(p, root, dirname(n.file)) ?? []
      if (cands.length > 0 && cands.every((c) => existsCache.get(c)?.exists === false))
        written.add(p)
    }
  }
  const out = new Map<string, string[]>()
  const caseless = new Map<string, string[]>()
  const suffixed = new Map<string, string[]>()
  if (written.size === 0) return { out, caseless, suffixed }
  // File-name suffixes (`.meta.json`): matched against the end of every tracked file's name.
  const suffixes = [...written].filter(isNameSuffix)
  const push = (tail: string, path: string, into = out): void => {
    const list = into.get(tail)
    if (!list) into.set(tail, [path])
    else if (!list.includes(path)) list.push(path)
  }
  // The written paths by their lower case: a tracked path equal to one, or ending with one, in
  // another case only (`design.md` for `DESIGN.md`).
  const lower = new Map<string, string[]>()
  for (const w of written) push(w.toLowerCase(), w, lower)
  const addCaseless = (path: string): void => {
    const l = path.toLowerCase()
    // A letter whose lower case is longer (`İ`) would shift the tails: such a path is skipped.
    if (l.length !== path.length) return
    for (let i = -1; ;) {
      const tail = path.slice(i + 1)
      for (const w of lower.get(l.slice(i + 1)) ?? []) if (w !== tail) push(w, path, caseless)
      i = l.indexOf('/', i + 1)
      if (i === -1) break
    }
  }
  const add = (path: string, key = path): void => {
    if (key === path) addCaseless(path)

    for (let i = key.indexOf('/'); i !== -1; i = key.indexOf('/', i + 1)) {
      const tail = key.slice(i + 1)
      if (written.has(tail)) push(tail, path)
    }
  }
  for (const f of state.tracked) {
    add(f)
    const name = f.slice(f.lastIndexOf('/') + 1)
    for (const x of suffixes)
      if (
        name.length > x.length &&
        name.endsWith(x) &&
        (suffixed.get(x)?.length ?? 0) < SUFFIXED_MAX
      )
        push(x, f, suffixed)
    // A module path without its extension (`connections/types` for `src/connections/types.ts`).
    const bare = f.replace(/\.[^/.]+$/, '')
    if (bare === f) continue
    if (written.has(bare)) push(bare, f)
    add(f, bare)
  }
  for (const d of state.trackedDirs) add(d)
  return { out, caseless, suffixed }
}
