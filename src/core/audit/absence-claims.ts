/**
 * Names a note says are not there yet (issue 12: "TODO/plan items that were done since"): a
 * name in a TODO, a plan or a "not yet started" section, or right after a negation ("no
 * `build` script"). Such a mention is a claim of absence, not a reference: the extractor
 * rightly skips it (references.ts), but when the name was absent from the code the day the
 * note was written and is present now, the claim has flipped and the note needs a look.
 * Pure: src/node/audit/absence-flips.ts searches the code then and now.
 *
 * Decisions:
 * - Only names in back-ticks: a plan's prose words ("guard expressions") are English.
 * - Plan context is an open task item (`- [ ] …`), a line, or a heading or bold label whose
 *   section holds the line, with a plan word (TODO, pending, not yet, not started, planned, next steps, backlog, roadmap), or a
 *   sentence that starts with a build verb ("Build a …", "Add a …") or says "consider".
 * - A negated name carries its list: "no `type-check` or `build` scripts" negates both.
 * - A name followed (in the same phrase) by "script(s)" is a package.json script name; one
 *   with a `/` or a file extension is a path; any other is a word searched in code.
 */
import { findCodeSpans, spanMarker } from './code-spans'
import { cutFences } from './note-fences'

export interface AbsenceClaim {
  /** The name as the note writes it (emphasis stripped). */
  readonly name: string
  readonly kind: 'script' | 'path' | 'word'
  /** Why the note says it is absent. */
  readonly why: 'negated' | 'planned'
}

/**
 * TODO and FIXME count in capitals only: Spanish and Portuguese "todo" means "all" (“todo lo
 * en vivo se resuelve con…”; blind set N: a rule read as a plan).
 */
const PLAN_WORD_RE = {
  test: (s: string): boolean =>
    /\b(?:TODO|FIXME)\b/.test(s) ||
    /\b(?:not yet|not started|pending|planned|to be (?:added|built|written|implemented|done)|next steps?|backlog|roadmap|wishlist|future work)\b/i.test(
      s,
    ),
}
/** A sentence that asks for something to be made, or to be considered. */
const PLAN_VERB_RE =
  /(?:^|[.:!?]\s+|^\s*(?:[-*+]|\d+[.)])\s+)(?:\*\*[^*]*\*\*\s*)?(?:(?:Build|Add|Create|Implement|Write)\s+(?:(?:a|an|the)\b|`)|(?:Also\s+)?[Cc]onsider\b)/
/** A heading, or a line that is only a bold label ("**Phase 2 (not yet started):**"). */
const LABEL_RE = /^\s*(?:#{1,6}\s|\*\*[^*]+\*\*:?\s*$|__[^_]+__:?\s*$)/
const NEGATED_BEFORE_RE =
  /(?:\b(?:no|not|without|never|nor)|n't)\s+(?:(?:a|an|any|separate|single|dedicated)\s+)?$/i
const LIST_GAP_RE = /^\s*(?:,|\/)?\s*(?:(?:or|and|nor)\s+)?$/
const NAME_RE = /^[A-Za-z_@.][\w@.:/-]*$/
const SCRIPT_AFTER_RE = /^[^.;\n]{0,40}?\bscripts?\b/i
const FILE_EXT_RE = /\.[A-Za-z][A-Za-z0-9]{0,5}$/

/** Every name the note says is absent (negated) or not made yet (planned), first mention only. */
export function absenceClaims(text: string): AbsenceClaim[] {
  const { prose } = cutFences(text)
  const planned = plannedRanges(prose)
  const out = new Map<string, AbsenceClaim>()
  const isNegated = spanMarker(NEGATED_BEFORE_RE, LIST_GAP_RE, 12)
  for (const span of findCodeSpans(prose)) {
    const raw = prose.slice(span.contentStart, span.contentEnd).trim()
    const name = raw.replace(/^(\*\*?)(?=[^*\s])(.*[^*\s])\1$/, '$2')
    const negated = isNegated(prose, span)
    const inPlan = planned.some(([a, b]) => span.start >= a && span.start < b)
    if (!(negated || inPlan) || name.length < 3 || !NAME_RE.test(name) || out.has(name)) continue
    const after = prose.slice(span.end, span.end + 60)
    const kind = SCRIPT_AFTER_RE.test(after)
      ? 'script'
      : name.includes('/') || FILE_EXT_RE.test(name)
        ? 'path'
        : 'word'
    out.set(name, { name, kind, why: negated ? 'negated' : 'planned' })
  }
  // "There is no separate build step": a script of that common name, in plain words (blind set
  // DW gm-r11: `build` scripts added since).
  for (const m of prose.matchAll(STEP_RE)) {
    const name = m[1].toLowerCase()
    if (!out.has(name)) out.set(name, { name, kind: 'script', why: 'negated' })
  }
  return [...out.values()]
}

/**
 * "no (separate) build step", "without a lint script", "no test framework is configured" (blind
 * set EA co-t01: Vitest and its `test` script added since): a common script's name negated.
 */
const STEP_RE =
  /\b(?:no|without(?:\s+an?)?)\s+(?:separate\s+|dedicated\s+)?(build|lint|test|typecheck|format)\s+(?:step|script|framework|runner|suite)s?\b/gi

/** The text ranges in plan context: plan lines, and the sections under plan labels. */
function plannedRanges(prose: string): [number, number][] {
  const out: [number, number][] = []
  let at = 0
  // A heading's section runs to the next heading; a bold label's, over the list under it.
  let section: { start: number; heading: boolean } | null = null
  for (const line of prose.split('\n')) {
    const end = at + line.length + 1
    const label = LABEL_RE.test(line)
    const listed = line.trim() === '' || /^\s+\S|^\s*(?:[-*+]|\d+[.)])\s/.test(line)
    if (section !== null && (label || (!section.heading && !listed) || /^\s*#/.test(line))) {
      out.push([section.start, at])
      section = null
    }
    if (label && PLAN_WORD_RE.test(line)) section = { start: at, heading: /^\s*#/.test(line) }
    // `- [ ] Implement …`: an open task item is a plan in any language (blind set BY).
    if (section === null && /^\s*(?:[-*+]|\d+[.)])\s+\[ \]\s/.test(line)) out.push([at, end - 1])
    else if (section === null)
      for (const [a, b] of sentences(line)) {
        const text = line.slice(a, b)
        if (PLAN_WORD_RE.test(text) || PLAN_VERB_RE.test(text)) out.push([at + a, at + b])
      }
    at = end
  }
  if (section !== null) out.push([section.start, at])
  return out
}

/** Sentence ranges of a line: a paragraph written as one line holds many claims. */
function sentences(line: string): [number, number][] {
  const out: [number, number][] = []
  let from = 0
  for (const m of line.matchAll(/[.!?]\s+(?=[A-Z*_(`"[])/g)) {
    out.push([from, m.index + 1])
    from = m.index + m[0].length
  }
  out.push([from, line.length])
  return out
}

/**
 * A label saying the packages after it are not installed: "Missing npm packages: clsx,
 * postgres", "Dependencies not installed: …" (blind set Y: `postgres` added since).
 */
const MISSING_PACKAGES_RE =
  /^\s*(?:[-*+]\s+)?(?:\*\*)?(?:(?:missing|uninstalled|not installed)\b[^:\n]{0,30}?\b(?:packages?|dependenc(?:y|ies)|deps|modules|libraries|crates|gems)|(?:packages?|dependenc(?:y|ies)|deps)\s+(?:missing|not installed|not yet installed))(?:\*\*)?\s*:(?:\*\*)?\s*(.+)$/i
/** A package name as a manifest keys it (a scoped one with its scope). */
const PACKAGE_RE = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i

/**
 * The packages a line lists as missing, each as a manifest would key it: a deep import
 * (`@base-ui/react/button`, `lodash/fp`) names its package; an item with words after it is
 * read up to a parenthesis ("postgres (for the db)"), else it is prose and none.
 */
export function missingPackages(text: string): string[] {
  const out = new Set<string>()
  for (const line of cutFences(text).prose.split('\n')) {
    const m = MISSING_PACKAGES_RE.exec(line)
    if (!m) continue
    for (const part of m[1].split(/,\s*|;\s*|\s+and\s+/)) {
      const item = part
        .replace(/\s*\(.*$/, '')
        .replace(/[`*_]/g, '')
        .trim()
        .replace(/[.]$/, '')
      if (item.includes(' ')) continue
      const [first, second] = item.split('/')
      const name = item.startsWith('@') ? `${first}/${second ?? ''}` : first
      if (PACKAGE_RE.test(name) && name.length >= 2) out.add(name)
    }
  }
  return [...out]
}
