/**
 * Names a note gives in plain prose, without backticks (issue 12, recall): identifiers
 * (`haul_to_stockpile`, `APIConfigure`, `useV2Sheets`), a name next to a version or number
 * (`lodash-es pinned to 4.17.23`, `Astro 5`, `iOS 26.0+`), and strings only code holds (a
 * path outside the repository, `../other-repo/`). Pure text analysis; the node layer
 * (src/node/audit/prose-then.ts) decides whether each one counts.
 *
 * Prose is not a claim of names: a word of it is only a candidate. The extractor of
 * references.ts errs towards silence (plain English never becomes a symbol), and this one
 * keeps that rule twice over:
 * - only words of identifier shape are taken (an inner capital after a lower-case letter or
 *   digit, `APIConfigure`'s capital run before a word, an underscore between letters, or
 *   letters then digits), never a plain word, however it is capitalised;
 * - a candidate counts only when the repository's code held it when the note was written
 *   (prose-then.ts reads the tree at the note's commit). Absent then, it silently names
 *   nothing: never "never matched", never "wrong from the start".
 * A plain word next to a version (`Astro 5`) counts only through a manifest line of that
 * shape (`"astro": "^5.17.2"`), so "Phase 2" or "step 3" never becomes a name.
 */
import { findCodeSpans } from './code-spans'
import { alternatives, onlyNegated } from './prose-forms'
import { namesByLanguage } from './fence-languages'
import { jsxStandIns } from './fence-imports'
import { cutFences, DIAGRAM_RE, isStylePair, treeListing } from './note-fences'
import { isClassList, isPlainClassList } from './reference-paths'

/** A name next to a value: `lodash-es` 4.17.23, `chunkSizeWarningLimit` 1200. */
export interface ProsePair {
  readonly name: string
  /** The value as written (`4.17.23`, `0.15.x`, `26.0`). */
  readonly value: string
  /**
   * The name is a plain word or a package name (`astro`, `lodash-es`): it counts only in a
   * manifest line of shape `"name": "<version>"` (matched case-insensitively).
   */
  readonly manifest: boolean
}

export interface ProseNames {
  /** Identifier-shaped words of the prose, then of fenced code, without duplicates. */
  readonly names: readonly string[]
  readonly pairs: readonly ProsePair[]
  /** Names only fences of one language give, and that language's files (fence-languages.ts). */
  readonly fencedIn: ReadonlyMap<string, RegExp>
}

/**
 * A word in prose: letters of any script, digits, `_` and `$`, not part of a path, a dotted name
 * or a URL. Any script: a table named `처리시설_측정결과` is an identifier in Korean code.
 */
const WORD_RE =
  /(?<![\p{L}\p{N}_$@./\\:-])[\p{L}_$][\p{L}\p{N}_$]*(?![\p{L}\p{N}_$]|[./\\:-][\p{L}\p{N}_$])/gu
/** A word in code: every identifier token (`DownloadManager` of `DownloadManager.make`). */
const CODE_WORD_RE = /(?<![\w$])[A-Za-z_$][\w$]*/g
/** Words shorter than this are never taken (`v2`, `h3`, `xIn`); an inner capital allows `iOS`. */
const NAME_MIN = 4

/** A constant's prefix without its last `_` (`METATRON` of `METATRON_`). */
const PREFIX_BODY = String.raw`[A-Z][A-Z0-9]{2,}(?:_[A-Z0-9]+)*`
const PREFIX_RE = new RegExp(`^${PREFIX_BODY}_$`)
/** Text ending in a constant's prefix but its last `_`. */
const PREFIX_END_RE = new RegExp(String.raw`(?:^|[^\p{L}\p{N}_])${PREFIX_BODY}$`, 'u')

/**
 * A constant's prefix (`METATRON_` in "env vars with METATRON_ prefix", blind set DG mx-t03): an
 * identifier, held in code by every name it starts (word-match.ts).
 */
export const isPrefixName = (w: string): boolean => PREFIX_RE.test(w)

/** Whether a prose word has the shape of an identifier rather than an English word. */
export function identifierShaped(w: string): boolean {
  // An inner capital after a lower-case letter: `useV2Sheets`, `macOS`, `GameMap`, `iOS`.
  if (/^[a-z]+[A-Z]{2,}$/.test(w) ? w.length >= 3 : /[a-z0-9][A-Z]/.test(w) && w.length >= NAME_MIN)
    return true
  if (w.length < NAME_MIN) return false
  // A run of capitals then a word: `APIConfigure`, `URLSession` (not a plural `APIs`).
  if (/[A-Z]{2,}[a-z]{2,}/.test(w)) return true
  // An underscore between letters or digits, of any script: `haul_to_stockpile`, `LOCAL_DIR`.
  if (/[\p{L}\p{N}]_[\p{L}\p{N}]/u.test(w)) return true
  if (isPrefixName(w)) return true
  // Letters then digits: `sha256`, `ApplicationV2` (three letters at least: not `v2`, `h3`).
  return /^[A-Za-z]{3,}\d/.test(w) && /\d/.test(w) && !/^[A-Z]+\d*$/.test(w)
}

/**
 * The prose of a note with code taken out: fenced blocks and inline code spans blanked, and
 * markdown link targets and URLs too (a URL's words are not names). With `keepSpans`, a span
 * that is one bare name keeps it (without backticks): a pair may name its package in one
 * (`` `lodash-es` `` 4.17.23).
 */
export function proseOf(text: string, keepSpans: boolean): string {
  const { prose } = cutFences(text)
  let out = ''
  let at = 0
  for (const s of findCodeSpans(prose)) {
    out += prose.slice(at, s.start)
    const content = prose.slice(s.contentStart, s.contentEnd)
    // Only a span that is one bare name is kept: quoted code is checked as a quote.
    out += keepSpans && /^[@\w./-]+$/.test(content) ? ` ${content} ` : ' '.repeat(s.end - s.start)
    at = s.end
  }
  out += prose.slice(at)
  return (
    out
      // A target stops at `(` too: `](](](…` with no `)` takes linear time (issue 8, bad input).
      .replace(/\]\([^()\s]*\)/g, (m) => ' '.repeat(m.length))
      .replace(/\bhttps?:\/\/\S+/g, (m) => ' '.repeat(m.length))
  )
}

/** A version or number as a note writes it: `4.17.23`, `0.15.x`, `26.0`, `v16`, `1200`. */
const VALUE = String.raw`v?\d+(?:\.(?:\d+|x|\*))*`
/**
 * A name, then a short gap (`:`, `=`, `>=`, a table's `|`, or "is", "pinned to", "set to"),
 * then a value. The name is an identifier or a package (`@scope/name`, `lodash-es`, `astro`).
 */
const PAIR_RE = new RegExp(
  String.raw`(?<![\w$@.\\-])(?<![A-Za-z_$./-]\/)(@[a-z0-9][\w.-]*\/[\w.-]+|[A-Za-z_$][\w$]*(?:-[A-Za-z0-9]+)*)` +
    String.raw`\s*(?:\|\s*|[:=]\s*|[<>~^]=?\s*|==\s*)?` +
    String.raw`(?:(?:is|was|at|to|of|pinned to|set to|now)\s+)?` +
    String.raw`(${VALUE})(?![\w.]*\d|\w|/(?![A-Za-z_]))`,
  'g',
)

/** A constant's name: capitals and digits joined by underscores (`K_P`, `LR_WHEELS`). */
const CONSTANT_RE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/

/** Words that never start a pair: a value after them is a count or a step, not a setting. */
const NOT_PAIR_NAMES = new Set(['v', 'x'])

/**
 * Prose without code and emphasis marks; `_` marks only outside a word (`haul_to_stockpile`), and
 * not the end of a constant's prefix (`METATRON_`).
 */
function bareProse(text: string): string {
  return proseOf(text, false)
    .replace(/\*+/g, ' ')
    .replace(
      /(?<![\p{L}\p{N}])_{1,2}(?=\S)|(?<=\S)_{1,2}(?![\p{L}\p{N}])/gu,
      (m, at: number, all: string) =>
        PREFIX_END_RE.test(all.slice(Math.max(0, at - 60), at)) && m === '_' ? m : ' ',
    )
}

/**
 * Each prose clause (a line, cut at `; `; fences and code spans blanked) with its
 * identifier-shaped names: a clause that names one file and some names says where those names
 * are (`src/models/types.ts` — core types (CardInfo, CardDatabase)); the clause after a `;` says
 * something else (blind set AN: "`a.ts` holds the types; the view renders CardInfo").
 */
export function proseLines(text: string): { readonly line: string; readonly names: string[] }[] {
  const { prose } = cutFences(text)
  return prose.split(/\n|;\s+/).map((line) => {
    const names = [...new Set([...bareProse(line).matchAll(WORD_RE)].map((m) => m[0]))]
    return { line, names: names.filter(identifierShaped) }
  })
}

/** The identifier-shaped names (of prose and quoted code) and the name–value pairs of prose. */
export function proseNames(text: string): ProseNames {
  const names: string[] = []
  const seen = new Set<string>()
  const bare = bareProse(text)
  // Quoted code names things too: a fenced block's identifiers (`DownloadManager.make(…)`,
  // a type in its comment) are candidates like the prose's, under the same two rules.
  // A tree drawn under one top folder (`i_story_dapp/`) names the checkout there, not code: a
  // rename of the package leaves the drawing's layout true (blind set CK `oe-r04`).
  const fenced = cutFences(text).fences.map((f) => {
    if (isStylePair(f.code)) return { lang: f.lang, names: [] }
    const top = treeListing(f.code)?.top?.replace(/\/+$/, '') ?? drawnTop(f.code)
    const standIns = jsxStandIns(f.code)
    return {
      lang: f.lang,
      names: [...f.code.matchAll(CODE_WORD_RE)]
        .map((m) => m[0])
        .filter((w) => w !== top && !standIns.has(w)),
    }
  })
  const prose = [...bare.matchAll(WORD_RE)]
  const negated = onlyNegated(bare, prose)
  const alts = alternatives(bare, identifierShaped)
  const words = [...prose.map((m) => m[0]), ...fenced.flatMap((f) => f.names), ...alts]
  for (const w of words) {
    if (identifierShaped(w) && !seen.has(w) && !negated.has(w)) {
      seen.add(w)
      names.push(w)
    }
  }
  const pairs: ProsePair[] = []
  const seenPairs = new Set<string>()
  const withSpans = proseOf(text, true).replace(/\*\*|__/g, '  ')
  for (const m of withSpans.matchAll(PAIR_RE)) {
    const name = m[1]
    const value = m[2]
    if (NOT_PAIR_NAMES.has(name.toLowerCase()) || /^\d/.test(name)) continue
    // `K_P 0.3`: a constant's name is code at any length (blind set X: PID gains in prose).
    const manifest = !identifierShaped(name) && !CONSTANT_RE.test(name)
    // A plain word needs a letter run long enough to be a package name (`vite`, `astro`).
    if (manifest && !/^@|[a-z]{3,}/i.test(name)) continue
    const key = `${name}\0${value}`
    if (seenPairs.has(key)) continue
    seenPairs.add(key)
    pairs.push({ name, value, manifest })
  }
  const inProse = new Set([...prose.map((m) => m[0]), ...alts])
  return { names, pairs, fencedIn: namesByLanguage(fenced, inProse) }
}

/**
 * The folder a drawn tree starts from (`i_story_dapp/` above `├── app/`), however its entries are
 * written (treeListing reads only trees whose every line is an entry): a first line `name/` whose
 * next line starts with a drawing character (DIAGRAM_RE). Undefined for any other block.
 */
function drawnTop(code: string): string | undefined {
  const lines = code.split(/\r?\n/).filter((l) => l.trim() !== '')
  const top = /^\s*([\w.-]+)\/\s*$/.exec(lines[0] ?? '')
  return top && DIAGRAM_RE.test((lines[1] ?? '').trimStart().charAt(0)) ? top[1] : undefined
}

/** The numbers of a value or a code line: `^5.17.2` → [5, 17, 2]; `.v26` → [26]. */
function versionsIn(s: string): string[][] {
  return [...s.matchAll(/(?<![\d.])\d+(?:\.(?:\d+|x|\*))*/g)].map((m) => m[0].split('.'))
}

/**
 * Whether a code version matches the value a note wrote: the note's parts are a prefix of the
 * code's, trailing zeros ignored, `x` and `*` matching any part (`26.0` ~ `26`, `0.15.x` ~
 * `0.15.1`, `5` ~ `5.17.2`; `4.17.23` !~ `4.18.1`).
 */
export function versionMatches(value: string, code: readonly string[]): boolean {
  const want = value.replace(/^v/, '').split('.')
  while (want.length > 1 && /^0+$/.test(want[want.length - 1])) want.pop()
  if (want.length > code.length) {
    const extra = want.slice(code.length)
    if (!extra.every((p) => /^(?:0+|x|\*)$/.test(p))) return false
  }
  return want.every(
    (p, i) => i >= code.length || p === 'x' || p === '*' || Number(p) === Number(code[i]),
  )
}

/** `s` as literal text in a regular expression. */
export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/**
 * Where a line holds the pair's name as the pair needs it, and the text after it (where the
 * value must be): for a manifest pair, a key of shape `"name": "<version>"`, `name = "…"` or
 * `name==…` (any case); otherwise the name as a whole word. Null when it does not hold it.
 */
export function afterName(line: string, pair: ProsePair): string | null {
  const n = escapeRe(pair.name)
  const re = pair.manifest
    ? new RegExp(String.raw`^\s*["']?${n}["']?\s*(?:[:=]|==|>=|~=|\^=)\s*(.*)$`, 'i')
    : new RegExp(String.raw`(?<![\w$])${n}(?![\w$])(.*)$`)
  // Zig's build.zig.zon names a fetched package `"<name>-<version>-<hash>"` on its `.hash` line.
  const zig = pair.manifest
    ? new RegExp(String.raw`^\s*\.hash\s*=\s*"${n}-(\d.*)$`, 'i').exec(line)
    : null
  if (zig) return zig[1]
  const m = re.exec(line)
  if (!m) return null
  // A manifest's inline table gives the version under its key: `ratatui = { version = "0.30.0",
  // features = [...] }` (Cargo, Poetry). Blind set R: a pinned version read as gone.
  const table = pair.manifest ? /^\{\s*version\s*[:=]\s*(.*)$/i.exec(m[1]) : null
  if (table) return table[1]
  // A manifest value starts with its version (`"^5.17.2"`, `>=22`): not a nested object.
  if (pair.manifest && !/^["']?[~^<>=v\s]*\d/.test(m[1])) return null
  return m[1]
}

/** The versions written within a short reach after the name (a call, a key's value). */
const VALUE_REACH = 40

/**
 * How a code line stands to a pair: `holds` (name and value), `other` (the name with another
 * number), `none` (the line does not give the name as the pair needs it, or gives no number).
 */
export function pairInLine(line: string, pair: ProsePair): 'holds' | 'other' | 'none' {
  const rest = afterName(line, pair)
  if (rest === null) return 'none'
  // The value follows the name with only punctuation between (`: `, `(.v`, `": "^`): a
  // number after other words (`weight: entries with score >=5`) is not the name's value.
  const gap = /^[^\d]*/.exec(rest.slice(0, VALUE_REACH))![0]
  if (gap.length === Math.min(rest.length, VALUE_REACH) || /[A-Za-z]/.test(gap.replace(/v$/, '')))
    return 'none'
  const versions = versionsIn(rest.slice(gap.length, gap.length + VALUE_REACH)).slice(0, 1)
  return versions.some((v) => versionMatches(pair.value, v)) ? 'holds' : 'other'
}

/**
 * Back-ticked utility-class lists of a note (`text-[9px] font-bold rounded-full`,
 * `text-violet-500/70`, `shadow-md -translate-y-px`): quoted code a style rule names, checked as literal text the code held
 * when the note was written and holds now (src/node/audit/prose-then.ts), never as a path.
 */
export function classSpans(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const s of findCodeSpans(prose)) {
    const content = prose.slice(s.contentStart, s.contentEnd).trim()
    // `bg-white/10 backdrop-blur-2xl ... rounded-[2.5rem]`: a list cut with an ellipsis is
    // checked by its parts, when each is a class list.
    const parts = content
      .split(/\s*(?:\.{3}|…)\s*/)
      .map((p) => p.trim())
      .filter((p) => p !== '')
    if (parts.length === 0 || !parts.every((p) => isClassList(p) || isPlainClassList(p))) continue
    for (const p of parts) if (!out.includes(p)) out.push(p)
  }
  return out
}

/** A version: `2.8.3`, `v2.5.0`, `2.8.3+28`, `1.0.0-beta.2`. */
const VERSION_RE = /^v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.]+)?)$/
/** "Current version: 2.8.3", "Latest release: v2.5.0 (2026-05-03)". */
const STATED_VERSION_RE =
  /\b(?:current|latest)\b[^\n.`]{0,40}?(?<![\w.])v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.]*[0-9A-Za-z])?)(?![\w.])/gi

/**
 * "2.0.0 (current — released …)", "v1.38.1 ✅ (latest)", "**Version**: 2.0.0" (blind set AD:
 * a library's own version, 2.0.0 then and 2.2.0 since).
 */
const STATED_AFTER_RE =
  /(?<![\w.])v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.]*[0-9A-Za-z])?)(?![\w.])[^\n.`(]{0,12}\(\s*(?:current|latest)\b/gi
const VERSION_LABEL_RE =
  /\bversion\b(?:\*\*|__)?[ \t]*:[ \t]*(?:\*\*|__)?[ \t]*v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.]*[0-9A-Za-z])?)(?![\w.])/gi
/** "`VERSION` (0.1.1)": the version file, then what it holds (blind set AW). */
const VERSION_FILE_RE =
  /(?<![\w.])`?VERSION(?:\.txt)?`?[ \t]*(?:\(|:|=)[ \t]*v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.]*[0-9A-Za-z])?)(?![\w.])/g

/**
 * Versions a note gives as the state of this repository: back-ticked (`2.8.3+28`), or with
 * "current" or "latest" before or after it, or a "Version:" label or a `VERSION` file's, in prose. Checked as literal text (src/node/audit/prose-then.ts): held
 * by the code when the note was written (a manifest's `version:`) and by none now, the version
 * moved on. A version the code never held (a milestone, a library's) says nothing.
 */
export function stateVersions(text: string): { written: string; version: string }[] {
  const { prose } = cutFences(text)
  const out: { written: string; version: string }[] = []
  const add = (written: string, version: string): void => {
    if (!out.some((v) => v.version === version)) out.push({ written, version })
  }
  for (const s of findCodeSpans(prose)) {
    const content = prose.slice(s.contentStart, s.contentEnd).trim()
    const m = VERSION_RE.exec(content)
    if (m) add(content, m[1])
  }
  for (const re of [STATED_VERSION_RE, STATED_AFTER_RE, VERSION_LABEL_RE, VERSION_FILE_RE])
    for (const m of prose.matchAll(re)) add(m[0].trim(), m[1])
  return out
}

/**
 * `- \`lib/utils/\` — currency, date, auto-categorize`: a folder, then what it holds; a short
 * label may come first (`- Rust source: \`src-tauri/src/\` (lib.rs, db/)`).
 */
const FOLDER_LIST_RE =
  /^[ \t]*(?:[-*+][ \t]+)?(?:[A-Za-z][\w \t-]{0,30}:[ \t]*)?`([^`\s]+\/)`[ \t]*(?:[\u2013\u2014:=-]+>?|\()[ \t]*([^\n]+)$/gm
/**
 * A table row whose first cell is a folder and whose second lists its members (`| Import/ |
 * ImportBooksService, ImportExcelService |`; blind set AB: two services replaced by one).
 */
const FOLDER_ROW_RE =
  /^[ \t]*\|[ \t]*`?([A-Za-z_][\w.-]*(?:\/[\w.-]+)*\/)`?[ \t]*\|[ \t]*([^|\n]*[^|\s])[ \t]*\|/gm
/** A folder, then its members in parentheses, anywhere in a line (blind set AW: a table cell). */
const FOLDER_PARENS_RE = /`([A-Za-z_.][\w.-]*(?:\/[\w.-]+)*\/)`[ \t]*\(([^()\n]+)\)/g
/** One listed member: a file or folder name without its extension. */
const MEMBER_RE = /^[A-Za-z_][\w.-]*$/

/**
 * Folders a note lists the members of, one per line (`\`lib/utils/\` — currency, date,
 * auto-categorize`, a table row, FOLDER_ROW_RE, or `x/` (a, b), FOLDER_PARENS_RE): the folder as written and its members, at least two, each a bare name. A
 * member is a file or folder in it (`auto-categorize.ts`); src/node/audit/prose-then.ts checks
 * that it was there when the note was written and is not now. Words that are no file there
 * ("helpers", "etc") say nothing.
 */
export function folderMembers(text: string): { folder: string; items: string[] }[] {
  const { prose } = cutFences(text)
  const out: { folder: string; items: string[] }[] = []
  const lists = [FOLDER_LIST_RE, FOLDER_ROW_RE, FOLDER_PARENS_RE].flatMap((re) => [
    ...prose.matchAll(re),
  ])
  for (const m of lists) {
    const items = m[2]
      .replace(/\([^)]*\)/g, '')
      .replace(/[.)]+\s*$/, '')
      .split(/\s*[,;]\s*|\s+(?:and|&)\s+/)
      // `commands/`: a member folder (blind set AC or-r14: `scanner/`, `db/` moved out since).
      .map((x) => x.trim().replace(/^`|`$/g, '').replace(/\/$/, ''))
      .filter((x) => MEMBER_RE.test(x))
    if (items.length >= 2 && !out.some((o) => o.folder === m[1].replace(/^\.\//, '')))
      out.push({ folder: m[1].replace(/^\.\//, ''), items: [...new Set(items)] })
  }
  return out
}
