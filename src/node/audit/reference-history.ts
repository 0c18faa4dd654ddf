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
import type { CheckedReference, Gone } from '../../core/audit/checked-reference'
import type { Reference } from '../../core/audit/reference'
import type { WrittenAt } from '../../core/audit/written-at'
import type { NameAsk } from './name-lines'
import { newestChange, type CodeChange, type Needle, type SearchRepo } from './pickaxe'

/**
 * The lines of a quote asked of history: its first line and its two most distinctive other
 * lines (a diagram's or comment's first line may never have been code while the rest was).
 */
export function quoteNeedles(code: string, max = 3): Needle[] {
  const lines = code
    .split(/\r?\n/)
    .map((l) => l.trim())
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
export type HeldThen = (n: Needle) => readonly string[] | undefined

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
  if (held && writtenMs !== undefined) {
    const files = asked.map(held)
    if (files.every((f) => f !== undefined)) {
      const there = asked.flatMap((n, i) =>
        (files[i] ?? []).length > 0 ? [{ n, f: files[i] }] : [],
      )
      if (there.length > 0 && c.audit.status === 'changed') return c
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
  const newest = hits.reduce((a, b) => (b.ms > a.ms ? b : a))
  return { ...c, goneIn: gone(newest) }
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
  return needles.length === 0 ? null : { needles, writtenMs: writtenAt.ms }
}
