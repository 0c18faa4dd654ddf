/**
 * A path's lives in history, as the path checks read them (check-path.ts): its first known fate
 * (renames followed, else a folder's), when it left the name it was written with, and when the
 * name last came to be.
 */
import type { HistoryIndex, PathFate } from '../git/parse'
import { followDir, followPath } from '../git/parse'
import type { RepoFacts } from './repo-facts'
import type { CheckedReference } from './checked-reference'

/**
 * When a path's name last came to be, as CheckedReference.cameIn; nothing when an earlier life
 * of the name left after the note was written (blind set AS: a `tailwind.config.js` moved away
 * four days after the note, a new one added, then deleted: there when the note was written). One
 * that left at the note's own time left before it, as the tree then (commitAtOrBefore) has it:
 * blind set DI fu-r07, `middleware.ts` renamed in the note's commit, added again and deleted.
 */
export function cameOf(
  history: HistoryIndex,
  path: string,
  writtenMs: number | null,
): Pick<CheckedReference, 'cameIn'> {
  let came = history.arrivals.get(path)
  const last = came
  if (
    last &&
    writtenMs !== null &&
    (history.leaves.get(path) ?? []).some(
      (l) => l.order > last.order && Date.parse(l.date) > writtenMs,
    )
  )
    return {}
  // A folder came with its first file (blind set Z: a folder of examples added after the note).
  if (!came)
    for (const [p, t] of history.arrivals)
      if (p.startsWith(`${path}/`) && (!came || t.time < came.time)) came = t
  return came ? { cameIn: { sha: came.sha, date: came.date } } : {}
}

/** The first known fate of these paths in history (a file's renames, else a folder's). */
export function fateOf(
  history: HistoryIndex,
  paths: readonly string[],
  dir: boolean,
  facts: RepoFacts,
): PathFate {
  for (const c of paths) {
    let fate = followPath(history, c, facts.exists)
    if (fate.kind === 'unknown' && (dir || !/\.[^/]+$/.test(c)))
      fate = followDir(history, c, facts.exists)
    if (fate.kind !== 'unknown') return fate
  }
  return { kind: 'unknown' }
}

/** When a path left the name it was written with (renamed or deleted); null when it never did. */
export function leftTime(fate: PathFate): number | null {
  if (fate.kind === 'unknown') return null
  const date = fate.steps[0]?.date ?? (fate.kind === 'deleted' ? fate.date : null)
  return date === null ? null : Date.parse(date)
}
