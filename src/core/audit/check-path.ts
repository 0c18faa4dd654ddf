/**
 * Whether a path a note names (or a script file it runs) still holds: present now, moved
 * (renames followed through history), deleted, or a bare file name some tracked file has.
 *
 * Decisions:
 * - A path ignored by git, or inside a build-output folder (`dist/`), is local to a
 *   machine: it is skipped with a reason, never counted missing.
 * - A bare file name (`money.ts`) holds when some tracked file has that name; when several
 *   have it, none of them can make the note suspect.
 */
import type { HistoryIndex, PathFate } from '../git/parse'
import { followDir, followPath } from '../git/parse'
import type { Reference } from './reference'
import type { RepoFacts } from './repo-facts'
import { checked, type CheckedReference } from './checked-reference'
import { absolute, byDepth, candidatePaths, overlongPath } from './repo-paths'
import { day, describeSteps, short, tick } from './reason-text'

export function checkPath(
  ref: Reference,
  path: string,
  dir: boolean,
  facts: RepoFacts,
  noteDir: string | null,
): CheckedReference | { readonly skipped: string } {
  const overlong = overlongPath(path)
  if (overlong !== null) {
    const shown = path.length > 60 ? `${path.slice(0, 60)}…` : path
    return { skipped: `${tick(shown)} ${overlong}; not checked` }
  }
  const candidates = candidatePaths(path, facts.root, noteDir)
  if (candidates === null)
    return { skipped: `${tick(ref.text)} is outside the repository; not checked` }
  const found = candidates.find((c) => facts.exists(c))
  if (found !== undefined) {
    return checked(ref, 'ok', absolute(facts.root, found), { restsOn: found, namedPath: found })
  }
  // Ignored or generated files are local to a machine: their absence says nothing.
  const generated = candidates.some(isGenerated)
  if (candidates.some((c) => facts.ignored(c))) {
    return {
      skipped: `${tick(ref.text)} is ignored by git${generated ? ' (build output)' : ''}; not checked`,
    }
  }
  if (!dir && !path.includes('/') && facts.git) {
    const bare = checkBareName(ref, path, facts)
    if (bare) return bare
  }
  const named = candidates[0]
  const missing = (reason: string): CheckedReference =>
    checked(ref, 'missing', null, { namedPath: named, reason })
  const notInGit = { skipped: `${tick(ref.text)} is a build output folder; not checked` }
  if (!facts.history) {
    if (generated) return notInGit
    return missing(
      `${tick(ref.text)} does not exist${facts.git ? '' : ' (no git history to tell where it went)'}`,
    )
  }
  let fate: PathFate = { kind: 'unknown' }
  const bareHistory = !dir && !path.includes('/') ? historyByBasename(facts.history, path) : []
  for (const c of [...candidates, ...bareHistory.filter((h) => !candidates.includes(h))]) {
    fate = followPath(facts.history, c, facts.exists)
    if (fate.kind === 'unknown' && (dir || !/\.[^/]+$/.test(c)))
      fate = followDir(facts.history, c, facts.exists)
    if (fate.kind !== 'unknown') break
  }
  if (fate.kind === 'moved') {
    const to = absolute(facts.root, fate.current)
    return {
      ...checked(ref, 'moved', to, {
        movedTo: to,
        restsOn: fate.current,
        namedPath: fate.steps[0]?.from ?? named,
        reason: `${tick(fate.steps[0]?.from ?? named)} ${describeSteps(fate.steps)}`,
      }),
      renames: fate.steps,
      ...(fate.steps[0]
        ? { goneIn: { sha: fate.steps[0].sha, date: fate.steps[0].date, how: 'renamed' } }
        : {}),
    }
  }
  if (fate.kind === 'deleted') {
    const via = fate.steps.length > 0 ? `${describeSteps(fate.steps)}, and ` : ''
    return {
      ...missing(
        `${tick(fate.steps[0]?.from ?? fate.path)} ${via}was deleted in ${short(fate.sha)} on ${day(fate.date)}`,
      ),
      namedPath: fate.steps[0]?.from ?? fate.path,
      renames: fate.steps,
      deletedIn: fate.sha,
      goneIn: { sha: fate.sha, date: fate.date, how: 'deleted' },
    }
  }
  if (generated) return notInGit
  const shallow = facts.shallow ? ' (shallow clone: older history is not available here)' : ''
  const never = missing(
    `${tick(ref.text)} does not exist and git history has no record of it${shallow}`,
  )
  // Beyond a shallow clone's edge it may have existed: not known, never "never".
  return facts.shallow ? never : { ...never, goneIn: null }
}

/** Folder names build tools and package managers create; never part of the source. */
const GENERATED_DIRS = new Set(
  (
    'dist build out target coverage node_modules .next .nuxt .svelte-kit .turbo .cache .parcel-cache ' +
    '.output .vercel .terraform __pycache__ .pytest_cache .mypy_cache .venv venv storybook-static'
  ).split(' '),
)

function isGenerated(rel: string): boolean {
  return rel.split('/').some((seg) => GENERATED_DIRS.has(seg))
}

/**
 * A bare file name (`money.ts`) names a file somewhere in the repository: it holds
 * when a tracked file has that name. Null when no tracked file has it (the caller
 * then asks history, by basename too).
 */
function checkBareName(ref: Reference, name: string, facts: RepoFacts): CheckedReference | null {
  const files = [...facts.byBasename(name)].sort(byDepth)
  if (files.length === 1) {
    return checked(ref, 'ok', absolute(facts.root, files[0]), {
      restsOn: files[0],
      namedPath: files[0],
      reason: `${tick(ref.text)} resolved to ${tick(files[0])}`,
    })
  }
  if (files.length > 1) {
    const shown = files.slice(0, 3).map(tick).join(', ')
    const more = files.length > 3 ? `, and ${files.length - 3} more` : ''
    // Which one the note means is unknown, so none of them can make it suspect.
    return checked(ref, 'ok', null, {
      reason: `${tick(ref.text)} matches ${files.length} tracked files (${shown}${more})`,
    })
  }
  return null
}

/** Paths in history with this last segment, for a bare file name no tracked file has. */
function historyByBasename(history: HistoryIndex, name: string): string[] {
  const out: string[] = []
  for (const p of history.leaves.keys()) if (p === name || p.endsWith(`/${name}`)) out.push(p)
  return out.sort()
}
