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
import type { PathFate } from '../git/parse'
import { isCodePathspecFile } from '../git/code-pathspecs'
import { cameOf, fateOf, leftTime } from './path-fates'
import type { Reference } from './reference'
import type { RepoFacts } from './repo-facts'
import { checked, type CheckedReference } from './checked-reference'
import {
  absolute,
  byDepth,
  candidatePaths,
  isGenerated,
  isNameSuffix,
  overlongPath,
  builtFrom,
  runtimeFolderName,
  webRootPath,
  hadFolder,
  rootedFile,
  repositoryName,
  fixedFolder,
} from './repo-paths'
import { day, describeSteps, short, tick } from './reason-text'
import {
  historyBySuffix,
  fateInAnyCase,
  mirroredFate,
  onlyArchivedLeft,
  namesakeThen,
  thereThenFirst,
  onlyOneThen,
} from './namesakes'

export function checkPath(
  ref: Reference,
  path: string,
  dir: boolean,
  facts: RepoFacts,
  noteDir: string | null,
  /** When the note was written (ms), when known: which of a path's namesakes it meant. */
  writtenMs: number | null = null,
  /** The path is from the repository's root as written: no other folder's file by its suffix. */
  rooted = false,
): CheckedReference | { readonly skipped: string } {
  const overlong = overlongPath(path)
  if (overlong !== null) {
    const shown = path.length > 60 ? `${path.slice(0, 60)}…` : path
    return { skipped: `${tick(shown)} ${overlong}; not checked` }
  }
  // An entry of a tree drawn under a top folder the repository has: a path in that folder.
  if (ref.kind === 'path' && ref.under !== undefined) {
    const { under, ...plain } = ref
    const top = under.replace(/\/+$/, '')
    if (hadFolder(facts, top))
      return checkPath(plain, `${top}/${path}`, dir, facts, noteDir, writtenMs)
    // A tree drawn from `root/` or the repository's own name: its entries are the root's, not
    // any folder's that ends so (blind set ES ed-t04: `plans/`, moved into `docs/`, read as
    // `docs/plans` and three more folders of that name).
    if (rootTop(top, facts.root))
      return checkPath(plain, path, dir, facts, noteDir, writtenMs, true)
  }
  const candidates = candidatePaths(path, facts.root, noteDir)
  // `/images/escudo.jpg`: a path from a web root, not from the machine's, when the repository
  // has a file ending with it (`public/images/escudo.jpg`).
  const served = candidates === null ? webRootFile(ref, path, dir, facts, writtenMs) : null
  if (served !== null) return served
  // Another repository or place on this machine: unverifiable here, never stale (issue 12 item 3).
  if (candidates === null)
    return {
      skipped: `${tick(ref.text)} is outside the audited repository (another project or folder); not checked`,
    }
  // A quoted import's module: a file, or else a package folder; another package's when no top
  // folder of the repository has or had its first part (`from django.db import models`).
  // One word (`from observability import tracer`): the root's file or package, else `src/`'s.
  if (ref.kind === 'path' && ref.module && facts.git && !path.includes('/')) {
    const pkg = path.replace(/\.py$/, '')
    const file = [path, `src/${path}`].find((p) => facts.exists(p) || facts.history?.leaves.has(p))
    const to = file ?? [pkg, `src/${pkg}`].find((p) => hadFolder(facts, p))
    if (to !== undefined)
      return checkPath({ ...ref, module: undefined }, to, to !== file, facts, noteDir, writtenMs)
  }
  if (ref.kind === 'path' && ref.module && facts.git) {
    const top = path.split('/')[0]
    // The `src/` layout (`specify_cli.merge` as `src/specify_cli/merge`; blind set BZ).
    if (!hadFolder(facts, top) && hadFolder(facts, `src/${top}`))
      return checkPath(ref, `src/${path}`, dir, facts, noteDir, writtenMs)
    if (!hadFolder(facts, top))
      return { skipped: `${tick(ref.text)} is another package's module; not checked` }
    const pkg = path.replace(/\.py$/, '')
    if (!facts.exists(path) && hadFolder(facts, pkg))
      return checkPath({ ...ref, module: undefined }, pkg, true, facts, noteDir, writtenMs)
  }
  const found = candidates.find((c) => facts.exists(c))
  if (found !== undefined) {
    return checked(ref, 'ok', absolute(facts.root, found), { restsOn: found, namedPath: found })
  }
  // A compiled file under a build folder stands for its source (`dist/x.test.js`, `x.test.ts`).
  const source = candidates.map((c) => builtFrom(c, facts)).find((c) => c !== null)
  if (source) {
    const c = checkPath(ref, source, false, facts, noteDir, writtenMs)
    const built = `${tick(ref.text)} is built from ${tick(source)}`
    return 'skipped' in c ? c : { ...c, reason: c.reason ? `${built}: ${c.reason}` : built }
  }
  // The path as written, through history: when it left after the note was written, that is
  // what the note meant; a later namesake elsewhere does not make it hold.
  const literal = facts.history ? fateOf(facts.history, candidates, dir, facts) : null
  const leftAt = literal === null ? null : leftTime(literal)
  // A root code file's bare name (`middleware.ts`) moved into a folder under that name still
  // names it, as the bare name of a file in a folder does (checkBySuffix; blind set CF). Not a
  // document's: a root page moved into `docs/` is no longer where the note sends its reader (BQ).
  const kept =
    literal?.kind === 'moved' &&
    !dir &&
    !path.includes('/') &&
    literal.current.endsWith(`/${path}`) &&
    isCodePathspecFile(path)
  const literalFirst = leftAt !== null && (writtenMs === null || leftAt > writtenMs) && !kept
  // Ignored or generated files are local to a machine: their absence says nothing. Not so a
  // source path git deleted after the note and ignores since (blind set AP: `tests/` removed
  // with the suite, then added to .gitignore): no clone has it. Nor is an agent's session state
  // (`.claude/handoff/pm-output.md`), committed by mistake and ignored since; its shared files
  // are (`.claude/docs/erd.md`, blind set AU).
  const generated = candidates.some(isGenerated)
  const agentState = candidates.some((c) => AGENT_STATE_RE.test(c))
  // Tracked when the note was written, not only committed for a while after it (visible set:
  // a `static/` of local assets, ignored then, committed and removed later).
  const trackedThen = (c: string): boolean => {
    const came = facts.history && cameOf(facts.history, c, writtenMs).cameIn
    return !came || writtenMs === null || Date.parse(came.date) <= writtenMs
  }
  const deletedSince =
    literalFirst && writtenMs !== null && !generated && !agentState && candidates.some(trackedThen)
  if (candidates.some((c) => facts.ignored(c)) && !deletedSince) {
    return {
      skipped: `${tick(ref.text)} is ignored by git${generated ? ' (build output)' : ''}; not checked`,
    }
  }
  const partial = facts.git && !rooted && !/^(?:\/|~|\.\.\/)/.test(path)
  let meant: PathFate | null = null
  if (partial && !literalFirst) {
    const bare = checkBySuffix(ref, path, dir, facts, writtenMs)
    meant =
      bare?.restsOn && facts.history
        ? (!dir && namesakeThen(facts.history, path, bare.restsOn, writtenMs, facts)) ||
          mirroredFate(facts.history, path, bare.restsOn, dir, writtenMs, facts)
        : null
    if (bare && meant === null) return bare
  }
  // Its fixed folder (`src/app/(calculators)` of `…/[slug]/page.tsx`) gone since: the pattern is
  // gone with it (blind set CF: the route group moved under `(main)/`).
  const fixed = ref.kind === 'path' && ref.pattern ? fixedFolder(path) : null
  if (ref.kind === 'path' && fixed !== null && leftAt === null && !facts.isDir(fixed)) {
    const { pattern, ...plain } = ref
    if (pattern && hadFolder(facts, fixed))
      return checkPath(plain, fixed, true, facts, noteDir, writtenMs)
  }
  if (ref.kind === 'path' && ref.pattern && leftAt === null)
    return {
      skipped: `${tick(ref.text)} is a pattern with placeholders, not one path; not checked`,
    }
  const named = candidates[0]
  const missing = (reason: string): CheckedReference =>
    checked(ref, 'missing', null, { namedPath: named, reason })
  const notInGit = { skipped: `${tick(ref.text)} is a build or runtime output folder; not checked` }
  if (!facts.history) {
    if (generated) return notInGit
    return missing(
      `${tick(ref.text)} does not exist${facts.git ? '' : ' (no git history to tell where it went)'}`,
    )
  }
  let fate: PathFate = meant ?? literal ?? { kind: 'unknown' }
  if (fate.kind === 'unknown' && partial) {
    const bySuffix = thereThenFirst(
      facts.history,
      historyBySuffix(facts.history, path, dir).filter((h) => !candidates.includes(h)),
      writtenMs,
    )
    fate = fateOf(facts.history, bySuffix, dir, facts)
  }
  if (fate.kind === 'unknown') fate = fateInAnyCase(facts.history, candidates, dir, facts) ?? fate
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
  // Build output the note names (`dist/index.js`) that history has only deeper, committed once and
  // taken out of git since (`server/dist/index.js`): built on each machine, not gone (blind set
  // DJ mp-t06). The path as written, deleted, is still judged below.
  if (
    fate.kind === 'deleted' &&
    generated &&
    isGenerated(fate.path) &&
    !candidates.includes(fate.path)
  )
    return notInGit
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
      ...cameOf(facts.history, fate.steps[0]?.from ?? fate.path, writtenMs),
    }
  }
  if (generated) return notInGit
  if (repositoryName(path, dir, facts))
    return {
      skipped: `${tick(ref.text)} names another repository (\`owner/name\`), not a path in this one; not checked`,
    }
  // `.meta.json` in "a `.tsv` plus a `.meta.json` sidecar": a suffix of file names, not a
  // dotfile (hidden set G: "wrong from the start"). It holds while tracked files end with it.
  const ending = isNameSuffix(path) ? (facts.withSuffix?.(path) ?? []) : []
  if (ending.length > 0) {
    const shown = ending.slice(0, 2).map(tick).join(', ')
    const more = ending.length > 2 ? ` and ${ending.length - 2} more` : ''
    return checked(ref, 'ok', null, {
      reason: `${tick(ref.text)} is a file-name suffix: ${shown}${more} end with it`,
    })
  }
  // `design.md` where the repository has `DESIGN.md`: the same file where the note's writer
  // works (macOS and Windows file systems ignore case). Hidden set G: two rules naming the
  // design document so read as "wrong from the start".
  const other = facts.inAnyCase?.(path).filter((f) => dir === facts.isDir(f)) ?? []
  if (other.length === 1)
    return checked(ref, 'ok', absolute(facts.root, other[0]), {
      restsOn: other[0],
      namedPath: other[0],
      reason: `${tick(ref.text)} is ${tick(other[0])} in another case (one file on a case-insensitive file system, as macOS and Windows have)`,
    })
  // `packs/`, `working/`, `./data`: one folder name that no tracked path ends with and no commit
  // ever held is a folder made at run time or on one machine, not a claim about this
  // repository's files (issue 12 item 2). Found on the evaluation sets (docs/eval-audit.md):
  // 6 of 7 notes such a name made "wrong from the start" were true.
  if (facts.git && runtimeFolderName(ref, path, dir))
    return {
      skipped: `${tick(ref.text)} is a single folder name the repository never had (made at run time or on one machine); not checked`,
    }
  // `queued/running/completed/failed`: three or more plain words joined by slashes, the first no
  // folder the repository ever had, are alternatives (a list of states), not a path (issue 12
  // item 2; blind set AI: two fresh notes read as wrong from the start).
  // `TypeScript/Node.js`, `React/Vue`: names joined by a slash, each capitalised (blind set BK).
  if (
    facts.git &&
    (/^[a-z][a-z0-9_]*(?:\/[a-z][a-z0-9_]*){2,}$/.test(path) ||
      /^[A-Z][\w.+#-]*(?:\/[A-Z][\w.+#-]*)+$/.test(path)) &&
    !hadFolder(facts, path.split('/')[0])
  )
    return {
      skipped: `${tick(ref.text)} reads as alternatives (words joined by slashes), not a path the repository ever had; not checked`,
    }
  // `llama.cpp` in a list of tools: a bare name in prose that no file ever had is another
  // project's name (hidden sets K and L: three notes read as wrong from the start).
  if (facts.git && !facts.shallow && ref.kind === 'path' && ref.prose === true)
    return {
      skipped: `${tick(ref.text)} is a name in prose that no file of the repository ever had (another project's?); not checked`,
    }
  const shallow = facts.shallow ? ' (shallow clone: older history is not available here)' : ''
  const never = missing(
    `${tick(ref.text)} does not exist and git history has no record of it${shallow}`,
  )
  // Beyond a shallow clone's edge it may have existed: not known, never "never".
  return facts.shallow ? never : { ...never, goneIn: null }
}

/** An agent's session state in its folder: handoffs, transcripts, to-dos, logs, local settings. */
const AGENT_STATE_RE =
  /(?:^|\/)\.(?:claude|cursor|codex|gemini)\/(?:handoff|projects|todos|logs?|cache|tmp|sessions|state|settings\.local\.json)(?:\/|$)/

/**
 * A rooted path that is no place on a machine (`/images/escudo.jpg`, `/assets/logo.svg`) but a
 * file the repository serves: it holds when a tracked file ends with it. Null otherwise: the
 * caller keeps calling it outside the repository.
 */
function webRootFile(
  ref: Reference,
  path: string,
  dir: boolean,
  facts: RepoFacts,
  writtenMs: number | null,
): CheckedReference | { readonly skipped: string } | null {
  const rel = webRootPath(path)
  if (rel === null) return null
  // `/guides/setup.md` where the repository has `guides/setup.md`: the root's path, as agents
  // write paths from the repository's root (blind set DF ac-t01, a rooted path into its docs).
  if (facts.exists(rel) || (dir && facts.isDir(rel)))
    return checkPath(ref, rel, dir, facts, null, writtenMs)
  // `/src/app/`, a folder at the repository's root when the note was written and moved since
  // (to `frontend/src/app/`): the root's path, not a web root's (blind set AC ec-t02).
  const fate = facts.history ? fateOf(facts.history, [rel], dir, facts) : null
  const left = fate === null ? null : leftTime(fate)
  // A file moved into a web root (`public/images/x.png`) is still served at the path written.
  const into = fate?.kind === 'moved' ? fate.current : ''
  const served = WEB_ROOTS.some((w) => into === `${w}/${rel}` || into.endsWith(`/${w}/${rel}`))
  if (left !== null && (writtenMs === null || left > writtenMs) && !served)
    return checkPath(ref, rel, dir, facts, null, writtenMs)
  const found = checkBySuffix(ref, rel, dir, facts, writtenMs)
  if (found !== null && found.audit.status === 'ok') return found
  return rootedFile(path, dir, facts) !== null
    ? checkPath(ref, rel, dir, facts, null, writtenMs)
    : null
}

/** Folders a web server serves from their own root. */
const WEB_ROOTS = ['public', 'static', 'www', 'wwwroot', 'web', 'assets']

/**
 * A bare file name (`money.ts`) or a partial path (`game/character/x.ts`, `base/`) names a
 * file or folder somewhere in the repository (issue 12 item 2): it holds when a tracked path
 * ends with it. Null when none does (the caller then asks history, by suffix too).
 */
function checkBySuffix(
  ref: Reference,
  written: string,
  dir: boolean,
  facts: RepoFacts,
  writtenMs: number | null,
): CheckedReference | null {
  // A name with an extension is a file; one written with a trailing `/` a folder.
  const files = [...facts.bySuffix(written)]
    .filter((f) => (dir ? facts.isDir(f) : !facts.isDir(f) || !/\.[^/]+$/.test(written)))
    .sort(byDepth)
  if (onlyArchivedLeft(facts.history, written, dir, files, writtenMs)) return null
  // Several now, one when the note was written (blind set AH: `page.tsx` before routes split).
  const then = files.length > 1 && !dir ? onlyOneThen(facts.history, files, writtenMs) : null
  if (files.length === 1 || then !== null) {
    const one = then ?? files[0]
    const was = then
      ? `, the one of its ${files.length} namesakes there when the note was written`
      : ''
    return checked(ref, 'ok', absolute(facts.root, one), {
      restsOn: one,
      namedPath: one,
      reason: `${tick(ref.text)} resolved to ${tick(one)}${was}`,
    })
  }
  if (files.length > 1) {
    const shown = files.slice(0, 3).map(tick).join(', ')
    const more = files.length > 3 ? `, and ${files.length - 3} more` : ''
    // Which one the note means is unknown, so none of them can make it suspect.
    return checked(ref, 'ok', null, {
      reason: `${tick(ref.text)} matches ${files.length} tracked ${dir ? 'folders' : 'files'} (${shown}${more})`,
    })
  }
  return null
}

/** `sql.js` of "`sql.js` is a name in prose …" (checkPath's reason), as a package name, or null. */
export function proseNameOf(reason: string): string | null {
  const m = /^`([^`]+)` is a name in prose/.exec(reason)
  return m ? m[1].toLowerCase() : null
}

/** A tree's top folder that stands for the repository's root: `root/`, `<repo>/`, its own name. */
function rootTop(top: string, root: string): boolean {
  const own = root.replace(/\/+$/, '').split('/').pop() ?? ''
  return (
    /^(?:root|repo(?:sitory)?|project)(?:[-_ ]?root)?$|^<(?:root|repo|repository|project)[^>]*>$/i.test(
      top,
    ) ||
    (own.length >= 3 && top.toLowerCase() === own.toLowerCase())
  )
}
