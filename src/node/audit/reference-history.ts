/**
 * A note's references through history (issue 12 items 1 and 4), asked of the pickaxe:
 * when a failing symbol, script, make target or quote went away (or that it never was in
 * the code), and which names of a note to follow since it was written (name-lines.ts compares
 * their lines then and now). Paths need no search: check-path.ts reads their fate from the
 * history index.
 *
 * Decisions:
 * - A symbol's needles are its words (`Class.method` → `Class` and `method`); a script its
 *   name in a package.json; a make target its `name:`; a quote its first non-blank line.
 * - A quote that only changed (`changed`, still alike) is asked only whether history ever
 *   had its first line: it may have matched when written, so "gone before" is not claimed.
 * - A path's file names nothing by itself: a commit to it makes a note suspect only when it
 *   changed a line holding one of the note's names (decided on the evaluation set).
 */
import { relative, sep } from 'node:path'
import type { CheckedReference, Gone } from '../../core/audit/checked-reference'
import { isCodePathspecFile } from '../../core/git/code-pathspecs'
import type { Reference } from '../../core/audit/reference'
import type { WrittenAt } from '../../core/audit/written-at'
import type { NameAsk } from './name-lines'
import { newestChange, type CodeChange, type Needle, type SearchRepo } from './pickaxe'
import {
  matchSnippet,
  memberChains,
  quotedCode,
  SNIPPET_SIMILAR_MIN,
} from '../../core/audit/snippet-match'
import { tick } from '../../core/audit/reason-text'
import { exampleSign } from '../../core/audit/placeholder-names'
import { showAt } from '../git/history'
import { grepLines } from './prose-grep'
import { keptQuote } from './quote-kept'
import { reachedAfter } from './merged-after'

/**
 * The lines of a quote asked of history: its first line and its two most distinctive other
 * lines (a diagram's or comment's first line may never have been code while the rest was).
 * A line that elides its arguments (`FindObject<UClass>(ANY_PACKAGE, ...)`, blind set X) is
 * asked by its longest part around the elision: the code had `*Spec.ParentClass` there.
 */
export function quoteNeedles(code: string, max = 3): Needle[] {
  const lines = code
    .split(/\r?\n/)
    .map((l) => unelided(quotedCode(l)))
    .filter((l) => l.length >= 4)
  const first = lines[0]
  if (first === undefined) return []
  const weight = (t: string): number => (t.match(/[A-Za-z0-9_]/g) ?? []).length
  const rest = [...new Set(lines.slice(1))]
    .filter((l) => l !== first && l.length >= 12 && weight(l) >= 8)
    .map((t, i) => ({ t, i, w: weight(t) }))
    .sort((a, b) => b.w - a.w || a.i - b.i)
    .slice(0, max - 1)
    .map((x) => x.t)
  return [first, ...rest].map((text) => ({ kind: 'text', text }))
}

/** An argument list's elision: `(…)`, `(a, ...)`, `[x, …]`; a spread (`...args`) is code. */
const ARG_ELISION_RE = /(?<=[([{,]\s*)(?:\.{3}|…)(?=\s*[)\]}])/

/** The longest part of a line around its elided arguments (the line itself without one). */
function unelided(line: string): string {
  if (!ARG_ELISION_RE.test(line)) return line
  const parts = line.split(ARG_ELISION_RE).map((p) => p.trim())
  return parts.reduce((a, b) => (b.length > a.length ? b : a), '')
}

/** A changed quote whose closest file now is no code file (a doc or plan that copied it). */
function onlyInDocsNow(c: CheckedReference, root: string): boolean {
  const at = c.ref.kind === 'snippet' ? c.audit.resolved : null
  if (!at) return false
  const rel = relative(root, at).split(sep).join('/')
  return rel !== '' && !rel.startsWith('..') && !isCodePathspecFile(rel)
}

/** What to search for, for one reference: none for paths, URLs and branches. */
export function needlesOf(ref: Reference): Needle[] {
  switch (ref.kind) {
    case 'symbol':
      return ref.terms.map((t) => ({ kind: 'word', text: t }))
    case 'command':
      if (ref.runner === 'file') return []
      return [{ kind: ref.runner === 'make' ? 'make' : 'script', text: ref.target }]
    case 'snippet': {
      const first =
        ref.code
          .split(/\r?\n/)
          .find((l) => l.trim() !== '')
          ?.trim() ?? ''
      return first.length >= 4 ? [{ kind: 'text', text: first }] : []
    }
    default:
      return []
  }
}

function gone(c: CodeChange): Gone {
  return { sha: c.sha, date: c.date, how: 'removed' }
}

/**
 * The code files holding each needle at the commit a note was written on (one grep for every
 * note, name-lines.ts); undefined for a needle not asked or when git could not say.
 */
export type HeldThen = ((n: Needle) => readonly string[] | undefined) & {
  /** The commit the note was written on, whose tree the files were grepped in. */
  readonly sha?: string
}

/** Files read, at most, to see whether a quote was code when its note was written. */
const QUOTE_FILES_THEN = 4
const QUOTE_FILE_MAX_BYTES = 2 * 1024 * 1024

/** Member chains of a quote asked about, at most. */
const CHAINS_MAX = 16

/**
 * Whether some member chain of a quote left the code since `sha`: not in the code now, and in
 * the code at `sha`, as written or as a member its type's file declared then
 * (`DownloadManager.shared` for `static let shared` in a file naming `DownloadManager`). Notes
 * and docs do not count: a chain only they had is the example's own. Null when git cannot say.
 */
async function apiLeft(
  root: string,
  sha: string,
  chains: readonly string[],
): Promise<boolean | null> {
  const asked = [...new Set(chains)].slice(0, CHAINS_MAX)
  if (asked.length === 0) return false
  const now = await grepLines(root, null, { code: asked, manifest: [] })
  if (now === null) return null
  const gone = asked.filter((t) => (now.code.get(t) ?? []).length === 0)
  if (gone.length === 0) return false
  const parts = gone.map((g) => {
    const dot = g.lastIndexOf('.')
    return { chain: g, owner: g.slice(0, dot).split('.').pop() ?? '', member: g.slice(dot + 1) }
  })
  const words = [...new Set(parts.flatMap((x) => [x.owner, x.member]))]
  const then = await grepLines(root, sha, { code: [...gone, ...words], manifest: [] })
  if (then === null) return null
  return parts.some((x) => {
    if ((then.code.get(x.chain) ?? []).length > 0) return true
    if (!/^[A-Z]/.test(x.owner)) return false
    const owners = new Set((then.code.get(x.owner) ?? []).map((l) => l.path))
    const decl = new RegExp(
      `\\b(?:let|var|val|const|func|fn|def|fun|static|get|set)\\s+${x.member.replace(/\$/g, '\\$')}\\b`,
    )
    return (then.code.get(x.member) ?? []).some((l) => owners.has(l.path) && decl.test(l.text))
  })
}

/**
 * How alike a quote of several lines was to the code when its note was written: the best match
 * among the files that held one of its lines then (0 when none could be read). Null when the
 * quote is one line, whose holding is the answer already.
 */
async function quoteThenScore(
  root: string,
  sha: string,
  code: string,
  files: readonly string[],
): Promise<{ score: number; file: string | null } | null> {
  if (code.split(/\r?\n/).filter((l) => l.trim() !== '').length < 2) return null
  let best: { score: number; file: string | null } = { score: 0, file: null }
  for (const file of files.slice(0, QUOTE_FILES_THEN)) {
    const shown = await showAt(root, sha, file, QUOTE_FILE_MAX_BYTES)
    if (!shown.ok) return null
    const m = matchSnippet(code, shown.text)
    if (m.score > best.score) best = { score: m.score, file }
  }
  return best
}

/** The needles a failing reference asks of history (see withGoneIn). */
export function askedOf(c: CheckedReference): Needle[] {
  if (c.audit.status === 'ok' || !c.checkable || c.goneIn !== undefined || c.checkedIn) return []
  const needles = needlesOf(c.ref)
  // A symbol fails when any of its words is missing; ask about those words only. A quote is
  // asked by several of its lines: it was code if any of them was.
  return c.ref.kind === 'symbol' && needles.length > 1
    ? needles.filter((n) => !c.reason || c.reason.includes(`\`${n.text}\``))
    : c.ref.kind === 'snippet'
      ? quoteNeedles(c.ref.code)
      : needles
}

/**
 * A failing reference with `goneIn` filled from the pickaxe: the newest commit that added
 * or removed one of its needles (the one it went away in), null when no commit ever did.
 * References that hold, or whose fate is known already, come back as they were.
 *
 * When the note's time is known and a needle was in the code at the note's commit (`held`,
 * one grep for all notes), history had it: a changed quote needs no walk, and a missing name
 * is searched only after the note, in the files that held it then (a walk over the whole
 * history per needle was most of an audit's time). Otherwise the whole history is searched.
 */
export async function withGoneIn(
  c: CheckedReference,
  repo: SearchRepo,
  held?: HeldThen,
  writtenMs?: number,
  /** Newest changes from one walk for many needles (pickaxe.ts newestChanges), when known. */
  walked?: ReadonlyMap<string, CodeChange | null>,
): Promise<CheckedReference> {
  const asked = askedOf(c)
  if (asked.length === 0) return c
  // A quote naming `Foo`, or marked `// ❌ Bad`, is an example (placeholder-names.ts).
  const sign =
    c.ref.kind === 'snippet' && c.audit.status === 'missing' ? exampleSign(c.ref.code) : null
  if (sign)
    return { ...c, goneIn: null, reason: `${c.reason ?? 'quoted code is not found'}; ${sign}` }
  // No needle was in the code at the note's commit (known only from `held`).
  let noneThen = false
  let heldThen = false
  if (held && writtenMs !== undefined) {
    const files = asked.map(held)
    if (files.every((f) => f !== undefined)) {
      const there = asked.flatMap((n, i) =>
        (files[i] ?? []).length > 0 ? [{ n, f: files[i] }] : [],
      )
      noneThen = there.length === 0
      heldThen = !noneThen
      // A quote the code held then and only docs hold now (a plan that copied the line) lost
      // its code: asked since the note like a missing one (blind set X).
      const docsNow = c.audit.status === 'changed' && onlyInDocsNow(c, repo.root)
      if (there.length > 0 && c.audit.status === 'changed' && !docsNow) return c
      // A quote of several lines one of whose lines was code then (`test "renders" {`) was
      // code only if the quote as a whole matched some file then; else it was an example, and
      // an example goes stale only with its API: a member chain it uses (`DownloadManager.shared`)
      // that the code had then (apiLeft) and has no more. A chain only notes or docs had, or
      // none (`myModule.render`), is the example's own placeholder.
      if (docsNow && there.length > 0) {
        // No code file may hold any of its lines now (code-pathspecs.ts: docs are not code).
        const now = await grepLines(repo.root, null, {
          code: there.map((x) => x.n.text),
          manifest: [],
        })
        if (!now || [...now.code.values()].some((l) => l.some((x) => isCodePathspecFile(x.path))))
          return c
        const since = await Promise.all(
          there.map((x) => newestChange(repo, x.n, writtenMs, x.f ?? null)),
        )
        const hits = since.filter((f): f is CodeChange => f !== null && f !== undefined)
        if (hits.length === 0) return c
        const left = hits.reduce((a, b) => (b.ms > a.ms ? b : a))
        const was = [...new Set(there.flatMap((x) => x.f ?? []))].slice(0, 2).map(tick)
        return {
          ...c,
          audit: { ...c.audit, status: 'missing', resolved: null },
          goneIn: gone(left),
          reason: `quoted code ${tick(c.audit.text.split(/\r?\n/)[0].slice(0, 60))} was code when the note was written (${was.join(', ')}) and is not in the code now; only ${tick(
            relative(repo.root, c.audit.resolved ?? '')
              .split(sep)
              .join('/'),
          )}, no code file, holds it alike`,
        }
      }
      if (there.length > 0 && c.ref.kind === 'snippet' && held.sha && repo.head !== null) {
        // Files holding more of its lines first: a quote's first line (`router.get('/', …`)
        // is in many files, its rarer lines in the one it was taken from (blind set N).
        const count = new Map<string, number>()
        for (const f of there.flatMap((x) => [...new Set(x.f ?? [])]))
          count.set(f, (count.get(f) ?? 0) + 1)
        const files = [...count].sort((a, b) => b[1] - a[1]).map(([f]) => f)
        const then = await quoteThenScore(repo.root, held.sha, c.ref.code, files)
        if (
          then !== null &&
          then.score < SNIPPET_SIMILAR_MIN &&
          (await apiLeft(repo.root, held.sha, memberChains(c.ref.code))) === false
        ) {
          const near =
            then.file !== null
              ? `the closest file, ${tick(then.file)}, was ${Math.round(then.score * 100)}% alike`
              : 'no file held it'
          return {
            ...c,
            goneIn: null,
            reason: `${c.reason ?? 'quoted code is not found'}; when the note was written ${near}`,
          }
        }
      }
      // Its lines the code held then, code holds still: an example (quote-kept.ts).
      const kept = await keptQuote(
        c,
        repo.root,
        there.map((x) => x.n.text),
      )
      if (kept) return kept
      if (there.length > 0) {
        const since = await Promise.all(
          there.map((x) => newestChange(repo, x.n, writtenMs, x.f ?? null)),
        )
        const hits = since.filter((f): f is CodeChange => f !== null && f !== undefined)
        if (hits.length > 0)
          return { ...c, goneIn: gone(hits.reduce((a, b) => (b.ms > a.ms ? b : a))) }
      }
    }
  }
  const found = await Promise.all(
    asked.map((n) => {
      const w = walked?.get(`${n.kind}\0${n.text}`)
      return w !== undefined ? w : newestChange(repo, n)
    }),
  )
  if (found.some((f) => f === undefined)) return c
  const hits = found.filter((f): f is CodeChange => f !== null && f !== undefined)
  if (hits.length === 0) return { ...c, goneIn: null }
  if (c.audit.status === 'changed') return c
  const kept = await keptQuote(
    c,
    repo.root,
    asked.filter((_, i) => found[i]).map((n) => n.text),
  )
  if (kept) return kept
  const newest = hits.reduce((a, b) => (b.ms > a.ms ? b : a))
  // A quote none of whose lines was code when the note was written, one of which the code holds
  // now: a commit after the note added or moved that line, none removed it; the quote fails as
  // a whole, as an example does (blind set L: the import line an example opens with, added to
  // the code after the note, read as removed by a commit that moved it).
  if (c.ref.kind === 'snippet' && noneThen && writtenMs !== undefined && newest.ms > writtenMs) {
    const now = await grepLines(repo.root, null, {
      code: asked.map((n) => n.text),
      manifest: [],
    })
    const line = now && [...now.code.values()].flat()[0]
    if (line)
      return {
        ...c,
        goneIn: null,
        reason: `${c.reason ?? 'quoted code is not found'}; when the note was written no code file held it, and ${tick(line.path)} holds its line ${tick(line.text.trim())} now`,
      }
  }
  // Held at the note's commit: gone after it, whatever the removal's date (merged-after.ts).
  const after = heldThen && writtenMs !== undefined
  return { ...c, goneIn: gone(after ? await reachedAfter(repo.root, newest, writtenMs) : newest) }
}

/**
 * What a name's lines are searched by for what they lost: a dotted name (`config.clear`) by the
 * whole expression, and by those of its later parts that are names on their own
 * (`GetColumnNames`, `MAX_RETRIES`, `v2`). A plain lower-case part (`clear`, `config`) holds on
 * any line of the code and says nothing about the one the note means; nor does the qualifier
 * (`DbConnectionFactory` of `DbConnectionFactory.GetColumnNames`, `Config` of `Config.fog`): its
 * other members' lines are not what the note says.
 */
function lossNeedles(ref: Reference): Needle[] {
  if (ref.kind !== 'symbol' || ref.terms.length < 2) return needlesOf(ref)
  const own = ref.terms.slice(1).filter((t) => /[A-Z_0-9$]/.test(t))
  return [{ kind: 'text', text: ref.name }, ...own.map((t): Needle => ({ kind: 'word', text: t }))]
}

/**
 * What a note's holding references ask of the code since the note (name-lines.ts): each name
 * with the files the note names (and, for a quote, the file it was found in), whose lines
 * come first. `rel` makes a reference's absolute path repository-relative (null: outside).
 */
export function nameAsk(
  checked: readonly CheckedReference[],
  writtenAt: WrittenAt | null,
  rel: (abs: string) => string | null,
  prose: readonly string[] = [],
  /** The note's text (NameAsk.text). */
  text?: string,
): NameAsk | null {
  if (writtenAt === null) return null
  const named = new Set(checked.flatMap((c) => (c.restsOn === null ? [] : [c.restsOn])))
  const needles: NameAsk['needles'][number][] = []
  const seen = new Set<string>()
  for (const c of checked) {
    if (!c.checkable || c.audit.status !== 'ok') continue
    for (const needle of lossNeedles(c.ref)) {
      const k = `${needle.kind}\0${needle.text}`
      if (seen.has(k)) continue
      seen.add(k)
      const at = needle.kind === 'text' && c.audit.resolved !== null ? rel(c.audit.resolved) : null
      needles.push({ needle, named: at === null ? named : new Set([...named, at]) })
    }
  }
  // Names in plain prose (prose-names.ts) count only when they left their files (name-loss.ts).
  for (const text of prose) {
    const needle: Needle = { kind: 'word', text }
    if (seen.has(`word\0${text}`) || seen.has(`text\0${text}`)) continue
    seen.add(`word\0${text}`)
    needles.push({ needle, named: new Set(), prose: true })
  }
  if (needles.length === 0) return null
  // A back-ticked type name (`ContentView`): in Swift, Java, C# or Kotlin its file bears it.
  const types = new Set(
    checked.flatMap((c) =>
      c.ref.kind === 'symbol' && /^[A-Z][a-z0-9]+[A-Z]\w*$/.test(c.ref.name) ? [c.ref.name] : [],
    ),
  )
  return {
    needles,
    writtenMs: writtenAt.ms,
    ...(text !== undefined ? { text } : {}),
    ...(types.size > 0 ? { types } : {}),
  }
}
