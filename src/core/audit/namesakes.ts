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

/**
 * Paths that left under a name, those there when the note was written first: it meant the file
 * it could see, not a namesake gone before it (blind set EG mb-t03: `useParticipantController.ts`
 * read as `client/` 's, deleted six weeks before the note, where `client/hooks/` 's left after).
 */
export function thereThenFirst(
  history: HistoryIndex,
  paths: readonly string[],
  writtenMs: number | null,
): string[] {
  if (writtenMs === null) return [...paths]
  const then = (p: string): boolean => {
    const came = history.firstArrivals.get(p) ?? history.arrivals.get(p)
    return (
      (came === undefined || came.time * 1000 <= writtenMs) &&
      (history.leaves.get(p)?.some((l) => l.time * 1000 > writtenMs) ?? false)
    )
  }
  return [...paths.filter(then), ...paths.filter((p) => !then(p))]
}

/** A folder name that says its files are kept for the record, not used: `legacy`, `old-api`, `_archive`. */
const RETIRED_WORD =
  '(?:legacy|archived?|deprecated|obsolete|old|unused|retired|attic|graveyard|backups?)'
const RETIRED_DIR = new RegExp(
  `^_?${RETIRED_WORD}$|[-_.]${RETIRED_WORD}$|^${RETIRED_WORD}[-_.]`,
  'i',
)

/** Whether a path lies in an archive or backup folder (RETIRED_DIR). */
export function inArchive(path: string): boolean {
  return path
    .split('/')
    .slice(0, -1)
    .some((d) => RETIRED_DIR.test(d))
}

/**
 * Whether a bare name's matches now are all copies in archive or backup folders while a namesake
 * outside them has left history since the note was written: the note meant that one, gone since
 * (blind set DZ te-t02: `app_main.py` deleted, two copies kept under `design/backups/`). One that
 * left before the note is not what it meant (the visible set: "moved to `scripts/deprecated/`").
 */
export function onlyArchivedLeft(
  history: HistoryIndex | null | undefined,
  written: string,
  dir: boolean,
  files: readonly string[],
  writtenMs: number | null,
): boolean {
  if (!history || writtenMs === null || files.length === 0 || !files.every(inArchive)) return false
  return historyBySuffix(history, written, dir).some(
    (p) => !inArchive(p) && !!history.leaves.get(p)?.some((l) => l.time * 1000 > writtenMs),
  )
}

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

/**
 * The one path that left history under a written path in another case (`reference/CHEATSHEET.md`
 * for a link to `reference/cheatsheet.md`): the same file where the note's writer works, as macOS
 * and Windows file systems ignore case (blind set DV tm-r05: a page renamed since read as never
 * there). Empty when none, or several.
 */
function historyInAnyCase(history: HistoryIndex, written: string, dir: boolean): string[] {
  const low = written.toLowerCase()
  const out = new Set<string>()
  for (const p of history.leaves.keys()) {
    const l = p.toLowerCase()
    if (!dir && l === low && p !== written) out.add(p)
    if (l.startsWith(`${low}/`) && !p.startsWith(`${written}/`)) out.add(p.slice(0, written.length))
  }
  return out.size === 1 ? [...out] : []
}

/** The fate of the one path history has in another case for any of `candidates`, or null. */
export function fateInAnyCase(
  history: HistoryIndex,
  candidates: readonly string[],
  dir: boolean,
  facts: RepoFacts,
): PathFate | null {
  const cased = candidates.flatMap((c) => historyInAnyCase(history, c, dir))
  return cased.length === 1 ? fateOf(history, cased, dir, facts) : null
}

/**
 * The file a bare name or partial path meant when the note was written, when that is not the
 * file it names now (issue 12 items 1 and 2): the one match now arrived after the note, and a
 * namesake that was there then has left since (deleted, or renamed to another name). That
 * namesake's fate is the reference's. Null when the match now is the file the note saw (or the
 * namesake's rename that made it), or when the note's time is unknown.
 */
export function namesakeThen(
  history: HistoryIndex,
  written: string,
  now: string,
  writtenMs: number | null,
  facts: RepoFacts,
): PathFate | null {
  if (writtenMs === null) return null
  const came = history.arrivals.get(now)
  if (!came || came.time * 1000 <= writtenMs) return null
  for (const then of historyBySuffix(history, written, false)) {
    if (then === now || !history.leaves.get(then)?.some((l) => l.time * 1000 > writtenMs)) continue
    const thenCame = history.arrivals.get(then)
    if (thenCame && thenCame.time * 1000 > writtenMs) continue // not there at the note either
    const fate = fateOf(history, [then], false, facts)
    // The note's file itself, moved: the name still finds it, unless it was retired to an
    // archive folder (`migrations/x.sql` -> `migrations-legacy/x.sql`), which the note's
    // instructions no longer mean (hidden set G: a migration the note cites, squashed away).
    if (fate.kind === 'moved' && fate.current === now) return retired(then, now) ? fate : null
    if (fate.kind !== 'unknown') return fate
  }
  return null
}
