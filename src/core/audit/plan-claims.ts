/**
 * A plan's state in plain words (issue 12: "TODO/plan items that were done since"): "no shader
 * yet", "+godrays next", "(researched, NOT built)", "Phase 2 (content pipeline) pending",
 * "TODO: guard expressions". absence-claims.ts reads such claims about back-ticked names; these
 * name what is not made yet in English, so they are only words to look for in the code's file
 * names and lines (src/node/audit/plan-flips.ts), never references.
 *
 * Decisions:
 * - Only these shapes, each a status the note gives something: `no X yet`, `X next` closing a
 *   clause, a bracketed `(… not built|implemented|started|done)`, `X pending` / `pending: X`, a
 *   list item `X (pending)` (or planned, todo), a line that starts with `TODO:`, a list after
 *   "Still ahead:" (or "Up next:", "Not yet built:"), a status line marked `✗`, and a table row
 *   whose status cell says "Not started" (or planned, future, todo). "next session", "not yet clear" or "pending approvals" are
 *   something else and do not match; nor does `pending` before another word ("Employee can
 *   cancel pending only": a request's state, blind set Z).
 * - What is not made yet is the clause's own words; a bracketed status names none, so it is the
 *   note's title ("Vehicle reflections plan"). Words of two letters, back-ticked
 *   text, numbers and words that name no thing (plan, phase, remaining, …) are dropped; a plural
 *   `s` is cut so "reflections" finds `vehicle-reflection`.
 * - The subject (what the plan is part of) is the note's title and the rest of the status's line,
 *   for a search of the item inside the subject's files: "no shader yet" under "Simple water
 *   plan" looks in water files, "sky/fog (+godrays next)" in sky and fog files.
 */
import { cutFences } from './note-fences'

export interface PlanClaim {
  /** The status as the note writes it, for the reason ("no shader yet"). */
  readonly written: string
  /** Words of what is not made yet: lower case, singular. */
  readonly items: readonly string[]
  /**
   * Words of what it belongs to (the note's title and the rest of the line that gives the
   * status), lower case, singular, without the item's; may be empty.
   */
  readonly subject: readonly string[]
}

const NO_YET_RE = /\bno\s+((?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*)\s+yet\b/gi
const NEXT_RE =
  /(?:^|[(;,]\s*|\+\s*)\+?((?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*)\s+next\s*(?=[);,]|$)/gim
// A short bracket: a long one names what is not built itself ("(…; \"Viewing as\" tabs = preview
// only, not built)", blind set DF ac-r05), not the note's subject.
const NOT_BUILT_RE =
  /\((?:[^()\n;=]{0,40},\s*)?not\s+(?:yet\s+)?(?:built|implemented|started|done)\s*\)/gi
const PENDING_RE =
  /(?:^|[—–:;,.]\s*)((?:[A-Za-z][\w-]*\s+){0,3}?(?:\d+\s+)?(?:\([^()\n]{1,60}\)\s+)?)pending\b(?::\s*([^.;\n]{1,80})|(?=[ \t]*(?:[.;,!?)\]—–]|$)))/gim
const TODO_RE = /^[ \t]*(?:[-*+][ \t]+)?TODO:[ \t]*([^\n]{3,120})/gm
/** `- ⏳ Input validation (pending)`: a list item whose bracketed status says it is not made yet. */
const ITEM_PENDING_RE =
  /^[ \t]*(?:[-*+][ \t]+)?(?:[^\w\s(`][ \t]*)?((?:[A-Za-z][\w-]*[ \t]+){0,3}[A-Za-z][\w-]*)[ \t]*\((?:pending|planned|todo|not started)\)/gim

/**
 * A list of what is still to make after a label: "**Still ahead:** Resend (transactional email),
 * team permissions" (blind set DD ld-t01), "Not yet built: …", "Up next: …". Each item between
 * commas or semicolons is one claim; its bracketed words tell what it is, not its name.
 */
const STILL_AHEAD_RE =
  /(?:\*\*|__)?\b(?:still\s+ahead|still\s+to\s+(?:build|do|come)|not\s+yet\s+(?:built|implemented|shipped)|up\s+next|coming\s+next)(?:\*\*|__)?\s*:(?:\*\*|__)?[ \t]*([^\n]{3,300})/gi
/** `- **Email:** Resend — ✗`: a status list's line marked not done (blind set DD ld-t02). */
const MARKED_NOT_RE =
  /^[ \t]*[-*+][ \t]+(?:\*\*|__)?([A-Za-z][\w /&-]{1,40}?)(?:\*\*|__)?:(?:\*\*|__)?[ \t]+([^\n:✗❌✘]{2,80}?)[ \t]*(?:[—–-][ \t]*)?(?:✗|❌|✘)[ \t]*$/gm

/** A table cell that says its row is not made yet: `Not started`, `Planned`, `Future / emerging`. */
const NOT_MADE_CELL_RE =
  /^(?:not\s+(?:yet\s+)?(?:started|built|implemented)|planned|todo|to\s+do|pending|backlog|future\b[^|]*|[❌✗⬜][^|]*)$/i

/** Words that name no thing a plan makes. */
const NOT_ITEMS = new Set(
  (
    'plan plans phase step stage part work item items thing things feature features remaining ' +
    'rest more other some also with from into that this these those them their there then when ' +
    'what which still done built next pending todo note notes simple basic initial first second ' +
    'third final proper full real support only just yet new old later each every any all project ' +
    'system formal style line the and for not but via per its are was has one two'
  ).split(' '),
)

/** Every plan status the note gives, in text order. */
export function planClaims(text: string, title: string): PlanClaim[] {
  const { prose } = cutFences(text)
  // A status around a back-ticked name is absence-claims.ts's: the name, not these words.
  const plain = prose.replace(/`[^`\n]*`/g, '\u0000')
  const titled = words(title)
  const out: PlanClaim[] = []
  const add = (written: string, items: string[], at: number): void => {
    if (written.includes('\u0000')) return
    if (items.length === 0 || out.some((c) => c.items.join(' ') === items.join(' '))) return
    const line = plain.slice(
      plain.lastIndexOf('\n', at) + 1,
      (plain.indexOf('\n', at) + 1 || plain.length + 1) - 1,
    )
    const subject = [...new Set([...titled, ...words(line)])].filter((w) => !items.includes(w))
    out.push({ written: written.trim().replace(/\s+/g, ' '), items, subject })
  }
  for (const m of plain.matchAll(NO_YET_RE)) add(m[0], words(m[1]), m.index)
  for (const m of plain.matchAll(NEXT_RE)) add(`${m[1]} next`, words(m[1]), m.index)
  for (const m of plain.matchAll(NOT_BUILT_RE)) add(m[0], titled, m.index)
  for (const m of plain.matchAll(PENDING_RE)) {
    const named = words(`${m[1]} ${m[2] ?? ''}`)
    add(m[0].replace(/^[—–:;,.\s]+/, ''), named, m.index)
  }
  for (const m of plain.matchAll(TODO_RE)) add(`TODO: ${m[1]}`, words(m[1]), m.index)
  for (const m of plain.matchAll(ITEM_PENDING_RE))
    add(m[0].replace(/^[\s*+-]+/, ''), words(m[1]), m.index)
  for (const m of plain.matchAll(STILL_AHEAD_RE)) {
    const label = m[0].slice(0, m[0].length - m[1].length).replace(/[*_:\s]+$/, '')
    for (const item of m[1].split(/[,;](?![^()]*\))/)) {
      const bare = item.replace(/\([^)]*\)/g, ' ').replace(/[*_.]+/g, ' ')
      add(`${label.replace(/^[*_]+/, '')}: ${item.trim()}`, words(bare), m.index)
    }
  }
  // A status table's row (`| 1 | Dead file removal | Not started |`, blind set DG cm-t01 to t08):
  // its other cells name what is not made yet.
  let at = 0
  for (const row of plain.split('\n')) {
    const cells = /^\s*\|.*\|\s*$/.test(row) ? row.trim().slice(1, -1).split('|') : []
    const bare = cells.map((c) => c.replace(/[*_]+/g, '').trim())
    const status = bare.findIndex((c) => NOT_MADE_CELL_RE.test(c))
    if (status >= 0) {
      const named = bare.filter((c, i) => i !== status && /[A-Za-z]{3}/.test(c))
      add(`${named.join(' | ')}: ${bare[status]}`, words(named.join(' ')), at)
    }
    at += row.length + 1
  }
  for (const m of plain.matchAll(MARKED_NOT_RE)) add(`${m[1]}: ${m[2]} ✗`, words(m[2]), m.index)
  return out
}

/** A phrase's words that can name a thing: lower case, singular, at least three letters. */
export function words(phrase: string): string[] {
  const out: string[] = []
  for (const w of phrase.replace(/\([^)]*\)/g, (x) => x.slice(1, -1)).split(/[^A-Za-z]+/)) {
    const lower = w.toLowerCase()
    if (lower.length < 3 || NOT_ITEMS.has(lower)) continue
    const one = singular(lower)
    if (!out.includes(one)) out.push(one)
  }
  return out
}

function singular(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w
}

/** A file path's words, as `words` makes them: folders, file name, camelCase and kebab parts. */
export function pathWords(path: string): Set<string> {
  return new Set(
    path
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .split(/[^A-Za-z]+/)
      .map((w) => singular(w.toLowerCase()))
      .filter((w) => w.length >= 3),
  )
}

/**
 * The words of a commit subject in order, as `words` makes them (lower case, singular, words that
 * name no thing left out) but with repeats kept: "Complete guard expressions: sub-clauses and BEAM
 * compilation" → complete guard expression sub clause beam compilation.
 */
export function subjectNames(subject: string): string[] {
  const out: string[] = []
  for (const w of subject.split(/[^A-Za-z]+/)) {
    const lower = w.toLowerCase()
    if (lower.length >= 3 && !NOT_ITEMS.has(lower)) out.push(singular(lower))
  }
  return out
}
