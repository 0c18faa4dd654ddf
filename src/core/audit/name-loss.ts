/**
 * What a note's names lost in the code since it was written (issue 12 items 4 and 5): the
 * code lines holding a name when the note was written that are gone now, or changed. Pure:
 * the node layer (src/node/audit/name-lines.ts) greps the lines at the note's commit and now.
 *
 * Decisions (measured on the evaluation set, docs/eval-audit.md):
 * - Added code does not make a note stale: a new call site, a new test, a new line holding
 *   the name leave every line the note saw in place. Only lines that held the name then and
 *   are not there now count.
 * - Moves are not losses: the lines are compared as a multiset of their text (trimmed, runs
 *   of blanks as one), across files, so a function moved to another file or reordered loses
 *   nothing.
 * - A line that only gained words lost nothing: a then-line whose words all appear, in order,
 *   on a line holding the name now, in the same file, was extended (an import list with one more
 *   name, a call with one more argument, a type with one more conformance). A new value, a
 *   new right-hand side, a dropped argument remove a word and count. Punctuation is ignored.
 * - Comments are not code: a line that is a comment (`//`, `#`, `/*`, `*`, `--`, `%`, `;;`,
 *   `<!--`, a template's `<%#`, `{{!`, `{#`, a docstring's quotes) says nothing about behaviour,
 *   like a doc file.
 * - A widely used name is not changed by one of its uses: when it is held now in at least
 *   WIDELY_USED code files, a lost line that does not define it, in a file the note does not
 *   name, says nothing of it (a base class one of whose subclasses was rewritten). Migrations
 *   are history, not uses (isMigrationFile).
 * - An import only brings a name into a file (`import`, `from x import`, `require(`,
 *   `use`, `#include`): a changed import list or style says nothing about the name itself.
 * - A line the code still holds word for word, in any file, is not lost: a copy removed while
 *   another stays (a config folder for an old version deleted) says the same thing.
 * - Tests exercise code, they are not the code a note describes: when a name lives outside
 *   tests (then or now), lines in test files are left out. A name that lives only in tests
 *   (a mock, a fixture helper) is judged on its test lines.
 * - Files the note names come first: when a file the note names holds the name (then or
 *   now), only its lines count (the note describes the name there, not every caller).
 * - A definition is not extended by a use: a then-line that defines the name (`const MODULE_MAP =
 *   {`) is not "only gained" by a line that merely uses it (`const hasReal = … MODULE_MAP[key]`).
 *   Hidden set G: a constant moved out of the file a checklist names read as kept.
 * - A version a release bumps is not a change of behaviour: a line whose code is the same now but
 *   for version literals (`APP_VERSION = '2.2.464'` → `'2.710.0'`) lost nothing the note says,
 *   unless the note writes the old version. Hidden set G: a note saying where the version lives
 *   read as suspect. Any other value that changed (`MAX_RETRIES = 3` → `5`) is behaviour (item 5).
 * - Nor is an access modifier (`private(set) var x` → `var x`), unless the note writes it
 *   (line-changes.ts). Hidden set K.
 * - Nor is a call passed on to another call (`send(new X(` → `add(new X(`), nor a local
 *   variable renamed (`f(data)` → `f(buf)`): line-changes.ts. Blind set P.
 */

import {
  accessOnly,
  isScriptManifest,
  literalsOnly,
  localRenamed,
  norm,
  keptUse,
  settingText,
  templateKey,
  defines,
  valueOnly,
} from './line-changes'
import { escapeRe } from './prose-names'

/** A code line holding a name, in a repository-relative file. */
export interface CodeLine {
  readonly file: string
  /** 1-based. */
  readonly line: number
  readonly text: string
}

/** A line that held a name when the note was written and is not there now. */
export interface LostLine {
  readonly then: CodeLine
  /** The most alike line holding the name now in the same file, else anywhere; null: none. */
  readonly now: CodeLine | null
  /** The line defined the name in a file the note names, which defines it no more. */
  readonly movedOut?: true
}

/**
 * A comment's start: `//`, `/*`, a JSX comment `{/*`, `#`, `--`, `<!--`, a docstring's quotes, or a
 * JSON file's comment key (`"$comment": …`; blind set CE: a word of `.mcp.json`'s comment read
 * as code that left).
 */
const COMMENT =
  /^(?:"(?:\$comment|\/\/|_{1,2}comment)"\s*:|\/\/|\{?\/\*|\*(?:\s|\/|$)|#(?:\s|#|!|$)|--\s|%(?:\s|%)|;;|<!--|<%#|\{\{!|\{#|"""|''')/

const IMPORT =
  /^(?:import\b|type\s+[\w$]+(?:\s+as\s+[\w$]+)?\s*,?\s*(?:\}.*)?$|from\s+\S+\s+import\b|export\s+(?:\*|\{[^}]*\}?)\s*from\b|use\s|using\s|#\s*include\b|@import\b|(?:require|include)(?:_once)?\b|(?:const|let|var)\s.*=\s*(?:await\s+)?(?:require|import)\s*\()/

/** Whether a line (as written) imports names (an import, a require, a use, an include). */
export function isImportLine(text: string): boolean {
  return IMPORT.test(text.trim())
}

/** Whether a line (as written) is a comment, not code. */
export function isCommentLine(text: string): boolean {
  return COMMENT.test(text.trim())
}

const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|__mocks__|specs?|e2e|testing|fixtures)\//i
const TEST_NAME = /(?:^|\/)(?:test_[^/]*|[^/]*[._-](?:test|spec)s?\.[^/]+|[^/]*Tests?\.[A-Za-z]+)$/

/**
 * Whether a repository-relative file is a test (a tests folder, `x.test.ts`, `test_x.py`,
 * `XTests.swift`) or a notebook (`x.ipynb`, whose lines are JSON strings of cells and outputs):
 * code that exercises or explores the code, not the code a note describes (blind set AH: a
 * notebook's cell read as the code behind a note's environment variables; AI: a row count in a
 * notebook's output table read as a setting's value).
 */
export function isTestFile(rel: string): boolean {
  return TEST_DIR.test(rel) || TEST_NAME.test(rel) || /\.ipynb$/i.test(rel)
}

/** A file's name without folders and extension (`ContentView` of `App/ContentView.swift`). */
const stemOf = (file: string): string =>
  file.slice(file.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '')

/**
 * Whether the note names a file by its stem (`col.test` of `src/col.test.ts`): a line lost in a
 * test it names speaks however many tests use the name (the visible set: `skipIf` of `col.test`).
 */
function stemInNote(file: string, text: string | undefined): boolean {
  const s = stemOf(file)
  if (text === undefined || s.length < 4) return false
  return new RegExp(`(?<![\\w.-])${escapeRe(s)}(?![\\w-])`).test(text)
}

/** Whether the words of `then` (identifiers, numbers) appear in `now` in the same order. */
export function onlyGained(then: string, now: string): boolean {
  const after = now.match(/[A-Za-z0-9_$]+/g) ?? []
  let i = 0
  for (const w of then.match(/[A-Za-z0-9_$]+/g) ?? []) {
    while (i < after.length && after[i] !== w) i++
    if (i === after.length) return false
    i++
  }
  return true
}

function words(s: string): string[] {
  return s.match(/[A-Za-z0-9_$]+|[^\sA-Za-z0-9_$]/g) ?? []
}

/** How alike two lines are: the Dice coefficient of their word and punctuation multisets. */
export function lineAlike(a: string, b: string): number {
  const wa = words(a)
  const wb = words(b)
  if (wa.length === 0 && wb.length === 0) return 1
  const count = new Map<string, number>()
  for (const w of wa) count.set(w, (count.get(w) ?? 0) + 1)
  let common = 0
  for (const w of wb) {
    const c = count.get(w) ?? 0
    if (c > 0) {
      common++
      count.set(w, c - 1)
    }
  }
  return (2 * common) / (wa.length + wb.length)
}

/**
 * The lines holding one name then that are gone now (rules above). `then` and `now` hold only
 * the files that changed between the note's commit and now: an unchanged file holds the same
 * lines on both sides, so leaving it out changes no count. `named` are the files the note names.
 */
export function lostLines(
  then: readonly CodeLine[],
  now: readonly CodeLine[],
  opts: {
    readonly named?: ReadonlySet<string>
    /** The name has a line outside tests now in some file (changed or not). */
    readonly outsideTestsNow?: boolean
    /** Every line holding the name now, in any file (changed or not). */
    readonly nowAnywhere?: readonly CodeLine[]
    /** The name itself: whether a lost line defines it (see WIDELY_USED). */
    readonly name?: string
    /** The note's text: a literal it writes keeps a line whose literals changed (literalsOnly). */
    readonly noteText?: string
    /** Types the note names (`ContentView`): a file named after one is a file the note names. */
    readonly types?: ReadonlySet<string>
  } = {},
): LostLine[] {
  const code = (l: CodeLine): boolean =>
    !isCommentLine(l.text) &&
    !isImportLine(l.text) &&
    (opts.name === undefined || codeOf(l.text).includes(opts.name))
  const still = new Set((opts.nowAnywhere ?? []).map((l) => norm(l.text)))
  const set = new Set((opts.nowAnywhere ?? []).map((l) => settingText(l.text)))
  const keys = new Set((opts.nowAnywhere ?? []).map(templateKey).filter((k) => k !== null))
  let a = then.filter(code)
  let b = now.filter(code)
  // A folder the note names (`_primitives/`) names the files in it (blind set CS mm-t06: a
  // component the folder keeps, changed only in a copy under a design-examples folder).
  const named = opts.named
  const inNamed = (f: string): boolean =>
    !!named && (named.has(f) || [...named].some((d) => f.startsWith(`${d}/`)))
  if ([...a, ...b].some((l) => inNamed(l.file))) {
    a = a.filter((l) => inNamed(l.file))
    b = b.filter((l) => inNamed(l.file))
  }
  // A file named after another type the note names (`ContentView.swift` for `ThemeSync`) holding
  // the name, changed or not: the note describes the name there (hidden set K: a call
  // refactored in another file). The name's own file (`ThemeSync.swift`) is not such a file.
  const types = opts.types
  if (types && types.size > 0) {
    const typed = new Set(
      [...a, ...b, ...(opts.nowAnywhere ?? [])]
        .filter((l) => code(l) && types.has(stemOf(l.file)) && stemOf(l.file) !== opts.name)
        .map((l) => l.file),
    )
    if (typed.size > 0) {
      a = a.filter((l) => typed.has(l.file) || named?.has(l.file) === true)
      b = b.filter((l) => typed.has(l.file) || named?.has(l.file) === true)
    }
  }
  const outside = opts.outsideTestsNow === true || [...a, ...b].some((l) => !isTestFile(l.file))
  if (outside) {
    a = a.filter((l) => !isTestFile(l.file))
    b = b.filter((l) => !isTestFile(l.file))
  }
  // Exact matches first (a multiset of texts): what is left on each side changed or went.
  const left = new Map<string, CodeLine[]>()
  for (const l of b) {
    const k = norm(l.text)
    const list = left.get(k)
    if (list) list.push(l)
    else left.set(k, [l])
  }
  const gone: CodeLine[] = []
  for (const l of a) {
    const list = left.get(norm(l.text))
    if (list && list.length > 0) list.shift()
    else gone.push(l)
  }
  const unmatched = [...left.values()].flat()
  const best = (l: CodeLine, ls: readonly CodeLine[]): { l: CodeLine; s: number } | null => {
    let top: { l: CodeLine; s: number } | null = null
    for (const x of ls) {
      const s = lineAlike(l.text, x.text)
      if (top === null || s > top.s) top = { l: x, s }
    }
    return top
  }
  const name = opts.name ?? ''
  // A name only tests hold (Flutter's `find.byKey`) counts the tests (blind set CF).
  const held = (opts.nowAnywhere ?? []).filter((l) => !isMigrationFile(l.file))
  const heldOutside = held.filter((l) => !isTestFile(l.file))
  const wide =
    opts.name !== undefined &&
    new Set((heldOutside.length > 0 ? heldOutside : held).map((l) => l.file)).size >= WIDELY_USED
  // A name bound in many code files (`const storeId = …` in 260 routes) is a local's name, no
  // one symbol: one of its bindings changed says nothing of it (blind set AF og-r09).
  const n = name.replace(/\W/g, '\\$&')
  const local = new RegExp(`^\\s*(?:(?:const|let|var|val)\\s+${n}\\s*[:=]|${n}\\s*:=)`)
  const homes =
    name !== '' &&
    new Set((opts.nowAnywhere ?? []).filter((l) => local.test(l.text)).map((l) => l.file)).size >=
      WIDELY_USED
  const out: LostLine[] = []
  for (const l of gone) {
    const defined = opts.name !== undefined && defines(l.text, name)
    // A definition that left a file the note names (`MODULE_MAP` moved out of the
    // `AppLayout.jsx` a checklist names) is lost for the note, even when another file now holds
    // the same line: the note sends its reader to the old file.
    const movedOut =
      defined &&
      named?.has(l.file) === true &&
      !b.some((x) => x.file === l.file && defines(x.text, name))
    const key = templateKey(l)
    if ((still.has(norm(l.text)) || set.has(settingText(l.text))) && !movedOut) continue
    if (key !== null && keys.has(key)) continue
    const testsOnly = heldOutside.length === 0
    if (
      wide &&
      !named?.has(l.file) &&
      !defined &&
      !(testsOnly && stemInNote(l.file, opts.noteText))
    )
      continue
    // A migration's line lost while the name lives on: migrations squashed or moved, history
    // rewritten, not the schema (blind set BZ: a legacy `CREATE TABLE` folded into a baseline).
    if (isMigrationFile(l.file) && !named?.has(l.file)) continue
    const here = unmatched.filter((x) => x.file === l.file)
    const extends_ = (x: CodeLine): boolean =>
      onlyGained(l.text, x.text) && (!defined || defines(x.text, name))
    if (here.some(extends_)) continue
    const use = { name, defined, named: !!named?.has(l.file), noteText: opts.noteText }
    // A function's local (indented `const rate = …`, `rate := …`) in a file the note does not
    // name is no symbol of a widely used name (blind set BT: AWS's `rate()`, one function's local).
    const inner = wide && /^\s/.test(l.text) && local.test(l.text)
    if (
      keptUse(l, here, unmatched, use) ||
      (!use.named && ((homes && local.test(l.text)) || inner))
    )
      continue
    if (
      opts.noteText !== undefined &&
      here.some(
        (x) =>
          literalsOnly(l.text, x.text, opts.noteText ?? '') ||
          accessOnly(l.text, x.text, opts.noteText ?? '') ||
          localRenamed(l.text, x.text, name, opts.noteText ?? '') ||
          (!isScriptManifest(l.file) && valueOnly(l.text, x.text, name, opts.noteText ?? '')),
      )
    )
      continue
    // A definition moved out is shown beside where the name is defined now.
    const defsNow = movedOut
      ? (opts.nowAnywhere ?? []).filter((x) => x.file !== l.file && defines(x.text, name))
      : []
    // A use is shown beside a use, not beside a migration that still creates the name.
    const uses = isMigrationFile(l.file)
      ? unmatched
      : unmatched.filter((x) => !isMigrationFile(x.file))
    const now =
      best(l, defsNow) ?? best(l, here) ?? best(l, uses) ?? best(l, unmatched) ?? best(l, b)
    out.push({ then: l, now: now?.l ?? null, ...(movedOut ? { movedOut: true as const } : {}) })
  }
  return out
}

/**
 * A code line without its trailing comment (`const CHUNK = 1000; // PostgREST cap`): a name
 * only the comment gives is not held by the code (hidden set G: a comment dropped beside a
 * kept value read as the name leaving its file). Cuts at `//`, `#` or `--` after a blank and
 * before one, and drops inline `/* … *\/` comments.
 */
export function codeOf(text: string): string {
  return text.replace(/\/\*.*?\*\//g, ' ').replace(/(?:^|\s)(?:\/\/|#|--)(?:\s.*)?$/, '')
}

/**
 * A code line with its string literals of words emptied: a literal that is one name
 * (`"处理_表"`, `'public.users'`) stays, a message (`'WebGL not supported'`) goes.
 */
const outsideStrings = (text: string): string =>
  codeOf(text).replace(/(["'`])((?:\\.|(?!\1)[^\\])*)\1/g, (m, _q, body: string) =>
    /^[\p{L}\p{N}_.:$/-]+$/u.test(body) ? m : '""',
  )

const MIGRATION_DIR = /(?:^|\/)(?:[^/]*migrations?(?:[-_][^/]*)?|migrate)\//i

/**
 * Whether a file is a database migration (`supabase/migrations/x.sql`, `db/migrate/x.rb`,
 * `migrations-legacy/`): history a schema replays, not a use. A function redefined by twenty
 * migrations is not widely used (hidden set G: the one call site of an RPC renamed to `_v2`
 * read as one use among many).
 */
export function isMigrationFile(rel: string): boolean {
  return MIGRATION_DIR.test(rel)
}

/** Code files holding a name now (migrations aside) from which one lost use says nothing (see lostLines). */
const WIDELY_USED = 4

/** Where a name lives now when it left every code file that held it then: its then line and new files. */
export interface LeftFiles {
  readonly then: CodeLine
  /** The code files holding the name now, none of which held it when the note was written. */
  readonly onlyIn: readonly string[]
}

/**
 * Whether a name a note gives in plain prose left every code file that held it when the note
 * was written (a table renamed in the services, the old name kept only by a new migration
 * script). Prose is weaker evidence than a back-ticked name, so one changed line is not enough
 * (lostLines): every code line holding it then is gone, every file holding it now is one that
 * did not hold it then, and no line of then is held now word for word (a file moved or split
 * keeps its lines). `then`: lines at the note's commit in the files changed since; `now`:
 * lines now in every code file; `changed`: the files changed since. Null: the name stayed.
 */
export function leftEveryFile(
  then: readonly CodeLine[],
  now: readonly CodeLine[],
  changed: ReadonlySet<string>,
  /** The name: a line that gives it only in a trailing comment does not hold it (codeOf). */
  name?: string,
): LeftFiles | null {
  const code = (l: CodeLine): boolean =>
    !isCommentLine(l.text) &&
    !isImportLine(l.text) &&
    (name === undefined || codeOf(l.text).includes(name))
  let a = then.filter(code)
  let b = now.filter(code)
  // Lines that give it only inside strings (`console.warn('WebGL not supported')`) say a word,
  // not a name of the code (blind set BY: a product name read as leaving the code).
  if (name !== undefined && !a.some((l) => outsideStrings(l.text).includes(name))) return null
  if ([...a, ...b].some((l) => !isTestFile(l.file))) {
    a = a.filter((l) => !isTestFile(l.file))
    b = b.filter((l) => !isTestFile(l.file))
  }
  if (a.length === 0 || b.length === 0) return null
  const held = new Set(a.map((l) => l.file))
  // A file unchanged since the note holds now what it held then.
  if (b.some((l) => held.has(l.file) || !changed.has(l.file))) return null
  const still = new Set(b.map((l) => norm(l.text)))
  if (a.some((l) => still.has(norm(l.text)))) return null
  return { then: a[0], onlyIn: [...new Set(b.map((l) => l.file))] }
}
