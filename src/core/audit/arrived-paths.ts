/**
 * Paths a note names that the repository did not have when the note was written and gained
 * well after (issue 12: "TODO/plan items that were done since"). absence-claims.ts reads a plan
 * in English words; this reads none: a note that names `internal/handler/portal/auth.go` two
 * weeks before any commit added it described something still to be made (blind set BW: a
 * Chinese to-do list of files, each made since, read as fresh). Pure: judge-notes.ts gives it
 * each note's checked references, its time and the history index.
 *
 * Decisions:
 * - Only a path that holds now, as the note names it (not a `maybe` alternative), whose file, or
 *   every file history knows under its folder, first came after the note: a rename's or a
 *   copy's target, or a path history does not know (a shallow clone), counts as there then. A
 *   build output folder (`web/out/`, repo-paths.ts `isGenerated`) says nothing, nor does a bare
 *   file name: it names a kind of file (a project's `project.yml`) as often as one file.
 * - A note is often written before its session's work is committed, and a branch rebased or
 *   squashed at its merge dates its commits then: only an arrival more than ARRIVAL_LAG_MS
 *   after the note counts.
 */
import type { HistoryIndex, Touch } from '../git/parse'
import type { CheckedReference } from './checked-reference'
import type { WrittenAt } from './written-at'
import { day, short, tick } from './reason-text'
import { isGenerated } from './repo-paths'

/** How long after a note its own work may still be committed (a branch merged a week later). */
export const ARRIVAL_LAG_MS = 7 * 24 * 60 * 60 * 1000

/** A placeholder folder: `[name]`, `<app>`, `{service}`, `:id`, `$NAME`. */
const TEMPLATE_TOP_RE = /(?:^|\/)(?:\[[^\]/]+\]|<[^>/]+>|\{[^}/]+\}|:[A-Za-z]\w*|\$\w+)(?:\/|$)/

/** The reasons a note is suspect for paths it names that came well after it. */
export function arrivedPaths(
  checked: readonly CheckedReference[],
  writtenAt: WrittenAt | null,
  history: HistoryIndex | null,
): string[] {
  if (!writtenAt || !history) return []
  const out: string[] = []
  const seen = new Set<string>()
  for (const c of checked) {
    const rel = c.restsOn
    if (c.ref.kind !== 'path' || c.ref.maybe || c.audit.status !== 'ok' || rel === null) continue
    // A build's output (`web/out/`) committed later is not what the note planned (blind set BS);
    // a bare file name (`project.yml`) names a kind of file as often as one (blind set BP).
    if (seen.has(rel) || isGenerated(rel) || !c.ref.path.includes('/')) continue
    // An entry of a tree drawn under a placeholder (`products/[name]/`) is a layout to follow: a
    // product made to it since is the template at work (blind set EL tc-r01: `docs/ADRs/`).
    if (c.ref.under !== undefined && TEMPLATE_TOP_RE.test(c.ref.under)) continue
    seen.add(rel)
    const came = cameAfter(history, rel, c.ref.dir, writtenAt.ms)
    if (!came) continue
    const days = Math.round((came.time * 1000 - writtenAt.ms) / (24 * 60 * 60 * 1000))
    out.push(
      `${tick(c.ref.text)} was not in the repository when the note was written: it came in ${short(came.sha)} on ${day(came.date)}, ${days} days later (a plan carried out since, or work committed long after the note)`,
    )
  }
  return out
}

/**
 * The first arrival of `rel` (a file, or the files under a folder), when every one came first
 * after `ms` and the lag, none as a rename's or a copy's target (there under another name).
 */
function cameAfter(h: HistoryIndex, rel: string, dir: boolean, ms: number): Touch | null {
  const paths = dir || !h.firstArrivals.has(rel) ? under(h, rel) : [rel]
  if (paths.length === 0) return null
  let first: Touch | null = null
  for (const p of paths) {
    const a = h.firstArrivals.get(p)
    // Unknown (before a shallow clone's edge), moved in, or there then: held.
    if (!a || a.moved || a.time * 1000 <= ms + ARRIVAL_LAG_MS) return null
    if (!first || a.time < first.time) first = a
  }
  return first
}

/** Every path history knows under a folder. */
function under(h: HistoryIndex, rel: string): string[] {
  const prefix = `${rel.replace(/\/+$/, '')}/`
  const out = new Set<string>()
  for (const p of h.firstArrivals.keys()) if (p.startsWith(prefix)) out.add(p)
  for (const p of h.leaves.keys()) if (p.startsWith(prefix)) out.add(p)
  return [...out]
}
