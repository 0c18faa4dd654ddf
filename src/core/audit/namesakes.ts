/**
 * Which of a path's namesakes a note meant, by history (issue 12 items 1 and 2): the files a
 * bare name or partial path matched when the note was written, the paths that left under it,
 * and archive folders. Pure: check-path.ts asks these.
 */
import type { HistoryIndex, PathFate } from '../git/parse'
import type { RepoFacts } from './repo-facts'
import { fateOf } from './path-fates'
import { byDepth } from './repo-paths'
import { isTestFile } from './name-loss'

/**
 * Of several files a bare name matches now, the one there when the note was written, when the
 * others all came later (by history; a file history cannot place, or one that also left after
 * the note, makes it unknown: null).
 */
export function onlyOneThen(
  history: HistoryIndex | null | undefined,
  files: readonly string[],
  writtenMs: number | null,
): string | null {
  if (!history || writtenMs === null) return null
  const then: string[] = []
  for (const f of files) {
    const came = history.arrivals.get(f)
    if (!came) return null
    if (came.time * 1000 <= writtenMs) then.push(f)
    else if (history.leaves.get(f)?.some((l) => l.time * 1000 > writtenMs)) return null
  }
  return then.length === 1 ? then[0] : null
}

/** A folder name that says its files are kept for the record, not used: `legacy`, `old-api`, `_archive`. */
const RETIRED_WORD = '(?:legacy|archived?|deprecated|obsolete|old|unused|retired|attic|graveyard)'
const RETIRED_DIR = new RegExp(
  `^_?${RETIRED_WORD}$|[-_.]${RETIRED_WORD}$|^${RETIRED_WORD}[-_.]`,
  'i',
)

/** Whether `now` lies in an archive folder (RETIRED_DIR) that `then` did not. */
export function retired(then: string, now: string): boolean {
  const dirs = (p: string): string[] => p.split('/').slice(0, -1)
  const before = new Set(dirs(then).map((d) => d.toLowerCase()))
  return dirs(now).some((d) => RETIRED_DIR.test(d) && !before.has(d.toLowerCase()))
}

/**
 * Paths in history ending with a bare name or partial path no tracked path has: files that
 * left under that name, or (for a folder) the folders that held files that left.
 */
export function historyBySuffix(history: HistoryIndex, written: string, dir: boolean): string[] {
  const out = new Set<string>()
  const tail = `/${written}`
  for (const p of history.leaves.keys()) {
    if (p.endsWith(tail)) out.add(p)
    if (!dir && /\.[^/]+$/.test(written)) continue
    // A folder: `src/base/a.ts` left, so `src/base` is a candidate for `base/`.
    const at = p.indexOf(`${tail}/`)
    if (at !== -1) out.add(p.slice(0, at + tail.length))
  }
  return [...out].sort(byDepth)
}

/**
 * The namesake outside the tests a partial path meant when its one match now lies in a tests
 * tree that mirrors the source tree (`Tests/AppTests/Core/Stores` for `Core/Stores/`): one there
 * when the note was written that has left since, all of it (blind set AV: the stores moved out
 * of `Sources/App/Core/Stores/`; the tests' folder of that name stayed). Null otherwise.
 */
export function sourceLeftBesideTests(
  history: HistoryIndex,
  written: string,
  now: string,
  dir: boolean,
  writtenMs: number | null,
  presentNow: (path: string) => boolean,
): string | null {
  const inTests = (p: string): boolean => isTestFile(dir ? `${p}/x` : p)
  if (writtenMs === null || !inTests(now)) return null
  for (const then of historyBySuffix(history, written, dir)) {
    if (then === now || inTests(then) || presentNow(then)) continue
    const inside = (p: string): boolean => p === then || (dir && p.startsWith(`${then}/`))
    const came = [...history.arrivals].some(([p, t]) => inside(p) && t.time * 1000 <= writtenMs)
    const left = [...history.leaves].some(
      ([p, ls]) => inside(p) && ls.some((l) => l.time * 1000 > writtenMs),
    )
    if (came && left) return then
  }
  return null
}

/** The fate of the source namesake a tests tree's mirror stands in for now (sourceLeftBesideTests). */
export function mirroredFate(
  history: HistoryIndex,
  written: string,
  now: string,
  dir: boolean,
  writtenMs: number | null,
  facts: RepoFacts,
): PathFate | null {
  const presentNow = (p: string): boolean => (dir ? facts.isDir(p) : facts.exists(p))
  const then = sourceLeftBesideTests(history, written, now, dir, writtenMs, presentNow)
  if (then === null) return null
  const fate = fateOf(history, [then], dir, facts)
  return fate.kind === 'unknown' ? null : fate
}
