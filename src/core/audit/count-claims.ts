/**
 * Counts a note states about a file or folder it names (issue 12: "counts that changed"):
 * "20 project pages under `src/pages/projects/`", "`base/` (5 templates)", "five positions
 * defined in `strategy/positions.md`". A count is a claim only where the thing it counts can be
 * read: the named folder's entries, or the numbered items of a named document. Pure: the node
 * layer (src/node/audit/absence-flips.ts) lists the folder or reads the file then and now.
 *
 * Decisions:
 * - The number and the path are in the same sentence; list numbering, dates, versions (a
 *   product's: "Next.js 15 (App Router)"), numbers with units or percent, and numbers inside
 *   back-ticks are not counts.
 * - What the number counts is not guessed from its noun: every count the folder or document
 *   offers (all entries, files, folders, files of each extension; numbered headings, numbered
 *   list items) that equalled the number when the note was written is what it counted. A
 *   note is suspect when such a count differs now; one that never equalled it says nothing.
 */
import { findCodeSpans } from './code-spans'
import { cutFences, treeListing } from './note-fences'
import type { Reference } from './reference'
import { fixedFolder } from './repo-paths'

export interface CountClaim {
  readonly count: number
  /** The number as written ("five", "20"). */
  readonly written: string
  /** The path reference it sits beside, as the note writes it. */
  readonly path: string
  /** Given as about so many (`~40`, "about 40"): agreeing within APPROX_SHARE of it. */
  readonly approx?: true
  /** A count of the named file's lines ("`api.ts` (~1070 lines)"), taken as about so many. */
  readonly lines?: true
  /** `path` is a pattern's fixed folder (`knowledge/agents` of `knowledge/agents/<slug>/`), from the root. */
  readonly fixed?: true
}

/** How far off an approximate count may be and still agree: a quarter of it, at least 2. */
const APPROX_SHARE = 0.25
/** What marks a count as approximate, just before it. */
const APPROX_BEFORE_RE =
  /(?:(?:^|[\s(])[~\u2248]|\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|some)\s+)$/i

/** Whether a count agrees with a number the note gives (exactly, or about so many). */
export function countAgrees(count: number, approx: boolean, n: number): boolean {
  if (!approx) return n === count
  return Math.abs(n - count) <= Math.max(2, Math.round(count * APPROX_SHARE))
}

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
]
/**
 * Two to ten in the languages notes are written in besides English (Swedish, German, Dutch,
 * French, Spanish, Portuguese, Italian; blind set ES fi-t01: "Sju agenter under
 * `knowledge/agents/<slug>/`", seven then, eight now). Words that are also common English or
 * code words are left out (`sex`, `dos`, `due`, `sept`, `elf`, `sei`, `otto`).
 */
const OTHER_WORDS = new Map<string, number>(
  Object.entries({
    2: 'två zwei twee deux dois duas',
    3: 'tre drei drie trois tres três',
    4: 'fyra vier quatre cuatro quatro quattro',
    5: 'fem fünf cinq cinco',
    6: 'sechs seis',
    7: 'sju sieben zeven siete sete sette',
    8: 'åtta acht huit ocho oito',
    9: 'nio neun negen neuf nueve nove',
    10: 'tio zehn tien dix diez dez dieci',
  }).flatMap(([n, words]) => words.split(' ').map((w): [string, number] => [w, Number(n)])),
)
const NUMBER_RE = new RegExp(
  `(?<![\\w.,$#/:@-]|[^\\s(]~)(\\d{1,3}(?:,\\d{3})+|\\d{1,4}|${[...WORDS, ...OTHER_WORDS.keys()].join('|')})(?![\\w%/:@]|[.,]\\d|\\s*(?:%|[kKmMgG]i?[bB]\\b|ms\\b|px\\b|x\\b))`,
  'gi',
)

/** Each number beside each path reference in the same sentence. */
export function countClaims(text: string, refs: readonly Reference[]): CountClaim[] {
  const paths = refs.filter((r) => r.kind === 'path')
  if (paths.length === 0) return []
  const { prose, fences } = cutFences(text)
  // Code spans hold the paths; numbers inside them (`v2`, `:42`) are not counts.
  let masked = ''
  let at = 0
  for (const s of findCodeSpans(prose)) {
    masked += prose.slice(at, s.start) + '`' + prose.slice(s.contentStart, s.contentEnd) + '`'
    at = s.end
  }
  masked += prose.slice(at)
  const out: CountClaim[] = []
  const seen = new Set<string>()
  const add = (path: string, [written, count, approx, lines]: Counted, fixed = false): void => {
    const k = `${count}\0${path}`
    if (seen.has(k) || (fixed && lines)) return
    seen.add(k)
    const about = approx || lines ? { approx: true as const } : {}
    const folder = fixed ? { fixed: true as const } : {}
    out.push({
      count,
      written,
      path,
      ...about,
      ...(lines ? { lines: true as const } : {}),
      ...folder,
    })
  }
  for (const sentence of sentencesOf(masked)) {
    const numbers = [...numbersIn(sentence)]
    if (numbers.length === 0) continue
    for (const p of paths) {
      if (!sentence.includes(p.text)) continue
      // "Seven agents under `knowledge/agents/<slug>/`": the pattern's fixed folder is counted.
      const fixed = p.kind === 'path' && p.pattern ? fixedFolder(p.path) : null
      for (const n of numbers) add(fixed ?? p.path, n, fixed !== null)
    }
  }
  // A folder tree's entry and the count in its comment (`Enum/   PHP backed enums (13)`; blind
  // set AB: 13 enums then, 12 now).
  for (const f of fences) {
    const tree = treeListing(f.code)
    if (tree)
      tree.paths.forEach((entry, i) => {
        const path = entry.replace(/\/+$/, '')
        if (entry.endsWith('/') && paths.some((p) => p.path === path))
          for (const n of numbersIn(tree.comments[i])) add(path, n)
      })
    // A drawn tree's branch too short to list as a tree (`├── agents/  — 18 agents`; blind set CA:
    // a note of one line of a longer tree), read line by line.
    else
      for (const line of f.code.split(/\r?\n/)) {
        const m = TREE_BRANCH_RE.exec(line)
        if (m && paths.some((p) => p.path === m[1])) for (const n of numbersIn(m[2])) add(m[1], n)
      }
  }
  return out
}

/** One branch of a drawn tree: `├── agents/   — 18 agents`, a folder and its comment. */
const TREE_BRANCH_RE =
  /^[\s\u2500-\u257f|`]*[\u251c\u2514][\u2500\s]*([\w.@-]+(?:\/[\w.@-]+)*)\/\s+(\S.*)$/

/** A number as written, its value, whether about so many, and whether it counts lines. */
type Counted = [string, number, boolean, boolean]

/** A line count: the number's noun (`1070 lines`, `a 400-line file`, `900 LOC`). */
const LINES_AFTER_RE = /^(?:\s*(?:lines?|LOC)\b|-lines?\b)/
/** A limit, not a count: "under 200 lines", "at most 500 lines", "< 300 lines". */
const LIMIT_BEFORE_RE =
  /(?:\b(?:under|below|max(?:imum)?|at most|limit(?:ed)?(?: to)?|less than|fewer than|up to|over|more than|exceeds?|exceeding|within|beyond|first|last|keep|cap(?:ped)?(?: at)?)|[<>\u2264\u2265])\s*$/i

function* numbersIn(sentence: string): Generator<Counted> {
  // Text inside back-ticks is blanked: only prose numbers count.
  const prose = sentence.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length))
  for (const m of prose.matchAll(NUMBER_RE)) {
    const approx = APPROX_BEFORE_RE.test(prose.slice(Math.max(0, m.index - 16), m.index))
    const w = m[1].toLowerCase().replace(/,/g, '')
    const n = /^\d+$/.test(w) ? Number(w) : (OTHER_WORDS.get(w) ?? WORDS.indexOf(w))
    // A list's numbering ("2. Item") or a year is not a count.
    if (/^\s*$/.test(prose.slice(0, m.index)) && /^[.)]/.test(prose.slice(m.index + m[0].length)))
      continue
    if (n < 2 || (n >= 1900 && n <= 2100)) continue
    // A product's version ("Next.js 15 (App Router)", "Python 3 + FastAPI"): a number right after
    // a capitalized name and before no noun of its own counts nothing.
    const after = prose.slice(m.index + m[0].length)
    if (
      /(?:^|\s)[A-Z][\w.+-]*\s+$/.test(prose.slice(0, m.index)) &&
      /^\s*(?:[(+,;:)\u2013\u2014-]|$|[A-Z])/.test(after)
    )
      continue
    const lines =
      LINES_AFTER_RE.test(after) && !LIMIT_BEFORE_RE.test(prose.slice(0, m.index).trimEnd())
    yield [approx && prose[m.index - 1] === '~' ? `~${m[1]}` : m[1], n, approx, lines]
  }
}

export function sentencesOf(prose: string): string[] {
  return prose.split(/\n|(?<=[.!?])\s+(?=[A-Z*_(`"[])/)
}

/** One entry of a folder listing. */
export interface Entry {
  readonly name: string
  readonly dir: boolean
}

/** What a folder's direct entries count: all, files, folders, files of each extension. */
export function folderCounts(entries: readonly Entry[]): Map<string, number> {
  const out = new Map<string, number>()
  const add = (k: string): void => void out.set(k, (out.get(k) ?? 0) + 1)
  for (const e of entries) {
    add('entries')
    add(e.dir ? 'folders' : 'files')
    const ext = /\.([A-Za-z0-9]{1,8})$/.exec(e.name)
    if (!e.dir && ext) add(`\`.${ext[1].toLowerCase()}\` files`)
  }
  return out
}

/**
 * What a table file counts (`.csv`, `.tsv`: "`Features.csv` — the same 135 rows"): its
 * non-blank lines, and the rows under its header line. A quoted field that spans lines
 * miscounts both, as it did when the note was written; only a count that equalled one then is
 * compared (changedCounts).
 */
export function tableCounts(text: string): Map<string, number> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '').length
  const out = new Map<string, number>()
  if (lines > 0) out.set('non-blank lines', lines)
  if (lines > 1) out.set('rows under the header', lines - 1)
  return out
}

/** What a file's length counts: its lines (a last line without its newline too). */
export function lineCounts(text: string): Map<string, number> {
  const n = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  return new Map([['lines', n]])
}

/** What a document's structure counts: numbered headings and numbered top-level list items. */
export function documentCounts(text: string): Map<string, number> {
  const out = new Map<string, number>()
  const lines = cutFences(text)
    .prose.split('\n')
    .filter((l) => l.trim() !== '')
  const headings = lines.filter((l) => /^#{1,6}\s+\d+[.)]\s/.test(l)).length
  const items = lines.filter((l) => /^\d+[.)]\s/.test(l)).length
  if (headings > 0) out.set('numbered headings', headings)
  if (items > 0) out.set('numbered list items', items)
  return out
}

/** The counts that equalled the note's number then and differ now (what the note counted). */
export function changedCounts(
  count: number,
  then: ReadonlyMap<string, number>,
  now: ReadonlyMap<string, number>,
  approx = false,
): { readonly what: string; readonly then: number; readonly now: number }[] {
  const out: { what: string; then: number; now: number }[] = []
  for (const [what, n] of then) {
    if (!countAgrees(count, approx, n)) continue
    const later = now.get(what) ?? 0
    if (!countAgrees(count, approx, later)) out.push({ what, then: n, now: later })
  }
  return out
}

/** A numbered series a note writes out by its ends: `BT1~BT7`, `S1–S5`, `Step2..Step4`. */
export interface SeriesClaim {
  /** The series as written. */
  readonly written: string
  readonly prefix: string
  /** The last member the note gives. */
  readonly last: number
}

/**
 * The numbered series of a note's prose: a name of two letters or more, a number, a range mark
 * (`~`, `-`, `–`, `—`, `..`) and the last number, the name repeated or not. Each says the series
 * ends there (src/node/audit/series-flips.ts looks for the next member in the code). Dates,
 * versions (one letter: `v10~v11`) and plain number ranges are not series.
 */
export function seriesClaims(text: string): SeriesClaim[] {
  const out: SeriesClaim[] = []
  for (const m of cutFences(text).prose.matchAll(SERIES_RE)) {
    const [first, last] = [Number(m[2]), Number(m[4])]
    if ((m[3] !== undefined && m[3] !== m[1]) || last <= first || last - first > SERIES_MAX)
      continue
    if (out.some((c) => c.prefix === m[1])) continue
    out.push({ written: m[0], prefix: m[1], last })
  }
  return out
}

const SERIES_RE =
  /(?<![\w.])([A-Za-z]{2,}_?)(\d{1,3})\s?(?:~|-|–|—|\.\.)\s?([A-Za-z]{2,}_?)?(\d{1,3})(?!\w|\.\w)/g
/** A longer span reads as a range of numbers, not members someone named one by one. */
const SERIES_MAX = 40

/** A count of the files (or places) that use a back-ticked piece of code. */
export interface UsageCountClaim {
  readonly count: number
  /** The number as written ("30"). */
  readonly written: string
  /** The back-ticked code it counts the uses of (`import pytest`). */
  readonly code: string
}

/**
 * A number of files or places beside a back-ticked piece of code in one sentence: "30 test
 * files use `import pytest`" (blind set Z, in Chinese: "30 个测试文件使用 `import pytest`"),
 * "`useAuth` is called in 14 places". The number must be followed by what it counts (files,
 * places, call sites, uses; 个/处 and 文件): a value beside a name ("`retries` is 3") is not a
 * count. src/node/audit/usage-counts.ts counts the code files and lines holding the code then
 * and now; only a count that equalled one then is compared (changedCounts).
 */
export function usageCountClaims(text: string): UsageCountClaim[] {
  const out: UsageCountClaim[] = []
  for (const sentence of sentencesOf(cutFences(text).prose)) {
    const spans = findCodeSpans(sentence)
      .map((s) => sentence.slice(s.contentStart, s.contentEnd).trim())
      .filter((c) => c.length >= 3 && !c.includes('\n'))
    if (spans.length !== 1) continue
    const bare = sentence.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length))
    for (const m of bare.matchAll(USAGE_COUNT_RE)) {
      const count = Number(m[1])
      if (count < 2 || out.some((c) => c.count === count && c.code === spans[0])) continue
      out.push({ count, written: m[1], code: spans[0] })
    }
  }
  return out
}

const USAGE_COUNT_RE =
  /(?<![\w.$#/:@~-])(\d{1,4})\s*(?:个|处|處)?\s*(?:(?:[A-Za-z]+|[\u4e00-\u9fff]{1,4})\s*)?(?:files?|文件|檔案|places|call[ -]sites|callers|usages|uses|occurrences|imports|处|處)(?![\w])/gi
