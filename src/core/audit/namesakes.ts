/**
 * Which of a path's namesakes a note meant, by history (issue 12 items 1 and 2): the files a
 * bare name or partial path matched when the note was written, the paths that left under it,
 * and archive folders. Pure: check-path.ts asks these.
 */
import type { HistoryIndex } from '../git/parse'
import { byDepth } from './repo-paths'

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
