/**
 * Which code lines hold what a note gives (src/node/audit/prose-candidates.ts): literal text,
 * a union's members, a version on a line that sets one, a dependency's version on its manifest
 * line, a whole word, a name-value pair. prose-then.ts reads the lines then and now through these.
 */
import type { Reference } from '../../core/audit/reference'
import { isCommentLine, isTestFile } from '../../core/audit/name-loss'
import { keyLine, listsExactly } from '../../core/audit/stated-values'
import { escapeRe, pairInLine, type ProsePair } from '../../core/audit/prose-names'
import { wordRe } from '../../core/audit/word-match'
import { dependencyIn } from '../../core/audit/manifest-names'
import { productForms } from '../../core/audit/product-names'
import { LINES_PER_PATTERN, type CodeLine, type GrepFound } from './prose-grep'

/** Literal text a note gives, checked as the code held it then and holds it now. */
export interface StringCandidate {
  readonly ref: Reference
  readonly text: string
  /** Counts only where no letter, digit or dot continues it (`2.5.0` is not in `12.5.0`). */
  readonly bounded?: true
  /** A quoted phrase (prose-names.ts `quotedPhrases`): a comment line does not hold it. */
  readonly phrase?: true
  /** Nor does a comment line hold it (a package path, a literal: what code, not prose, holds). */
  readonly uncommented?: true
  /**
   * A version the note gives as the repository's: held only by a version key's line
   * (`"version": "2.0.0"`, `.version = "2.0.0"`, `APP_VERSION = '2.0.0'`), not by an example
   * or a deprecation notice that writes the same number (blind set P: "Latest release: v2.0.0",
   * the manifest at 2.94.0, `"2.0.0"` still in a doc comment's example).
   */
  readonly versionKey?: true
  /** A local server's port (stated-values.ts `localPorts`): held only by a line naming a port. */
  readonly portKey?: true
  /** A license, quoted (`"MIT"`; stated-values.ts `stateLicenses`): held only by a license line. */
  readonly licenseKey?: true
  /** A union's members (stated-values.ts `memberLists`): held by a line listing exactly these. */
  readonly members?: readonly string[]
  /** A module's name: held by a line importing it (`require('x')`, `from 'x'`), no other. */
  readonly imported?: true
  /** A plain word: held by a line quoting it whole as a value (`"target": "nsis"`), no key. */
  readonly quoted?: true
  /**
   * A bare file name no tracked file has (`registry.json`), held by the code that makes it at run
   * time: held now, the note's path is no claim about tracked files (prose-then.ts).
   */
  readonly runtimeFile?: true
  /**
   * A quote that left out its last argument's qualifier (fenced-literals.ts `elidedQualifier`):
   * `text` is the part before it, and only a code line this matches holds the quote.
   */
  readonly qualified?: RegExp
  /** An MCP server's quoted name (mcp-tools.ts): held only as a key of a `.mcp.json`. */
  readonly mcpServer?: true
}

const IGNORE_FILE_RE = /(?:^|\/)\.[\w-]*ignore$/

/** The lines of `lines` that hold a string candidate (see StringCandidate.bounded). */
export function stringLines(
  all: readonly CodeLine[] | undefined,
  x: StringCandidate,
): readonly CodeLine[] {
  // An ignore file's line (`todo.md` in `.gitignore`) keeps a name out of git; no code holds it
  // (blind set EK rb-t03: a local backlog file never committed, its ignore line dropped since).
  const lines = all?.filter((l) => !IGNORE_FILE_RE.test(l.path))
  if (x.phrase) return (lines ?? []).filter((l) => !isCommentLine(l.text))
  if (x.mcpServer)
    return (lines ?? []).filter(
      (l) => /(?:^|\/)\.mcp\.json$/.test(l.path) && l.text.trim().startsWith(`${x.text}:`),
    )
  const qualified = x.qualified
  if (qualified)
    return (lines ?? []).filter((l) => qualified.test(l.text) && !isCommentLine(l.text))
  if (x.quoted) {
    const t = x.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    const re = new RegExp(String.raw`(["'\`])${t}\1(?!\s*:)`)
    return (lines ?? []).filter((l) => re.test(l.text) && !isCommentLine(l.text))
  }
  if (x.imported) {
    const t = x.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    const re = new RegExp(
      String.raw`(?:\b(?:require|import)\s*\(\s*|\bfrom\s+|\bimport\s+)["']${t}["'/]`,
    )
    return (lines ?? []).filter((l) => re.test(l.text) && !isCommentLine(l.text))
  }
  const kind = x.versionKey ? 'version' : x.portKey ? 'port' : x.licenseKey ? 'license' : null
  const keyed = kind ? (lines ?? []).filter((l) => keyLine(kind, l.path, l.text)) : lines
  const code = x.uncommented ? (keyed ?? []).filter((l) => !isCommentLine(l.text)) : keyed
  if (!x.bounded) return code ?? []
  const t = x.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const re = new RegExp(`(?<![\\w.+-])${t}(?![\\w+-]|\\.\\d)`)
  return (code ?? []).filter((l) => re.test(l.text))
}

/**
 * A line of a file at the repository's top (`package.json`, `Cargo.toml`, `VERSION`): where the
 * repository's own version is set. A version a top file set when the note was written is the
 * project's: a package deeper down still at that number holds it no more (blind set EL jm-t02:
 * "**Version**: 0.3.3", the root manifest at 0.3.5 since, `packages/extension-sdk` still 0.3.3).
 */
export const atTop = (l: CodeLine): boolean => !l.path.includes('/')

/**
 * The lines that hold a string candidate now, for a note whose lines `then` held it: a version a
 * top file set then is held now only by a top file (atTop).
 */
export function heldNow(
  found: GrepFound,
  x: StringCandidate,
  then: readonly CodeLine[],
): readonly CodeLine[] {
  const now = stringsIn(found, x, true)
  return (x.versionKey || x.licenseKey) && then.some(atTop) ? now.filter(atTop) : now
}

/**
 * Whether a string candidate may hold now, before the note's past is read: a version only by a
 * top file (a deeper package's line may not hold the project's; heldNow tells once it is read).
 */
export function mayHoldNow(found: GrepFound, x: StringCandidate): boolean {
  const now = stringsIn(found, x, true)
  return (x.versionKey || x.licenseKey ? now.filter(atTop) : now).length > 0
}

/**
 * What no line now holds, as a stale reason says it for a string candidate; `deeper`: a version
 * or license a top file set then that only a package below the top holds now (heldNow).
 */
export function noneNow(x: StringCandidate, deeper = false): string {
  const top = deeper ? 'top-level ' : ''
  const below = deeper ? ' (a package below the top still does)' : ''
  if (x.versionKey) return `no ${top}line setting a version holds it now${below}`
  if (x.portKey) return 'no line setting a port holds it now'
  if (x.licenseKey) return `no ${top}manifest's license line holds it now${below}`
  if (x.members) return 'no code line lists exactly these now'
  // A test may still quote an MCP server's old name: only a `.mcp.json` key is a setting.
  return x.mcpServer ? 'no `.mcp.json` key holds it now' : 'no code holds it now'
}

/**
 * The lines of a search that hold a string candidate. A list's are the lines listing exactly its
 * members, read from its member the fewest lines hold: a line listing them all holds each, so a
 * member's lines under the grep's limit are all there are. When every member's lines reach the
 * limit, the list's line may be cut off: it holds `now` as far as we know, and not then.
 */
export function stringsIn(found: GrepFound, x: StringCandidate, now: boolean): readonly CodeLine[] {
  const members = x.members
  const lines = found.code.get(x.text)
  // A plain word's quoted line may be past the search's limit: held now as far as we know.
  if ((x.quoted || x.mcpServer) && now && (lines?.length ?? 0) >= LINES_PER_PATTERN)
    return lines ?? []
  if (!members) return stringLines(lines, x)
  const lists = members.map((m) => found.code.get(m) ?? [])
  const whole = lists.filter((l) => l.length < LINES_PER_PATTERN)
  if (whole.length === 0) return now ? lists[0] : []
  const fewest = whole.reduce((a, b) => (b.length < a.length ? b : a))
  return fewest.filter((l) => !isCommentLine(l.text) && listsExactly(l.text, members))
}

/**
 * Whether a line holds a name as code: an env file (`.env.local.example`) names things only by
 * its keys (`GITHUB_TOKEN=`); a word of its comments or values is no code (blind set BP:
 * "GitHub" of a `.env.local.example` comment read as a name the code dropped).
 */
export function holdsAsCode(l: CodeLine, name: string): boolean {
  if (!/(?:^|\/)\.env(?:\.[\w.-]+)?$/.test(l.path)) return true
  return /^\s*(?:export\s+)?([A-Za-z_][\w.]*)\s*=/.exec(l.text)?.[1] === name
}

/**
 * Whether code, not only comments, holds a name as a whole word now (lines cut at the search's
 * limit may hide a code line: held). A name left only in comments left the code (blind set EP
 * pt-t02: `python train.py SimilarityTransformerTrainer`, only a commented-out line keeps it).
 */
export function codeHolds(lines: readonly CodeLine[] | undefined, name: string): boolean {
  const held = wordLines(lines, name)
  return (lines?.length ?? 0) >= LINES_PER_PATTERN || held.some((l) => !isCommentLine(l.text))
}

/** Lines holding a name as a whole word. */
export const wordLines = (lines: readonly CodeLine[] | undefined, name: string): CodeLine[] =>
  (lines ?? []).filter((l) => wordRe(name).test(l.text))

/** Manifest lines that list a bold package name as a dependency. */
export const dependencyLines = (found: GrepFound, name: string): readonly CodeLine[] =>
  (found.manifest.get(name) ?? []).filter((l) => dependencyIn(l.text, name, l.path))

/** Packages for another tool that name a product: its types, a linter's or compiler's plug-in. */
const TOOLING_RE = /^@types\/|(?:^|[-/@])(?:eslint|babel|prettier|plugin|config|preset)(?:[-/]|$)/i

/**
 * Whether a manifest lists a package of another name that ends with a product's name
 * (`ioredis`, `aioredis`, `@upstash/redis` for Redis): the product under another client. A
 * package that only starts with it (`next-rest-framework`, `redis-om`) is a plugin, no vouch
 * (blind set CE cc-t05: "**next**" gone while `next-rest-framework` stayed). Blind set CL
 * hw-r12: "Redis 7" read as gone when a Python service dropped `redis` while four services kept
 * `ioredis`. Type stubs and other tools' plug-ins (`@types/jest`, `eslint-config-next`,
 * `babel-jest`) outlive the product: no vouch either.
 */
function kinDependencyListed(found: GrepFound, name: string): boolean {
  const kin = new RegExp(String.raw`[\w@./-]*${escapeRe(name)}(?![\w@./-])`, 'gi')
  return (found.manifest.get(name) ?? []).some((l) =>
    [...l.text.matchAll(kin)].some(
      (m) =>
        m[0].toLowerCase() !== name.toLowerCase() &&
        !TOOLING_RE.test(m[0]) &&
        dependencyIn(l.text, m[0], l.path),
    ),
  )
}

/**
 * The lines giving a pair's name: a manifest's, or code's. Tests exercise old values on purpose
 * (a backup of schema 2 restored, `expect(v, 2)`): while a line outside tests gives the name,
 * test lines are left out, as name-loss.ts does (hidden set J: a schema version 2 → 5 kept by
 * a test's fixture).
 */
export function pairLines(found: GrepFound, pair: ProsePair): readonly CodeLine[] {
  const lines = (pair.manifest ? found.manifest : found.code).get(pair.name) ?? []
  if (pair.manifest) return lines
  // A notebook's value is one it explored or printed (an output table's row count), a comment's
  // one it documents: never a setting, even when only they hold the name (blind sets AI, AJ).
  const kept = lines.filter((l) => !/\.ipynb$/i.test(l.path) && !isCommentLine(l.text))
  const code = kept.filter((l) => !isTestFile(l.path))
  return code.length > 0 ? code : kept
}

/** Whether one of a pair's lines holds its value. */
export const pairHeld = (found: GrepFound, pair: ProsePair): boolean =>
  pairLines(found, pair).some((l) => pairInLine(l.text, pair) === 'holds')

/**
 * Whether a manifest lists a package now: by its name, or, for a product the note names in
 * prose, by a package ending with it (kinDependencyListed).
 */
export const listedNow = (found: GrepFound, name: string, product: boolean): boolean =>
  dependencyLines(found, name).length > 0 ||
  (product && (kinDependencyListed(found, name) || productKept(found, name)))

/**
 * Whether a product a note names in prose is kept in another of its forms: a manifest lists one
 * now, or one is the repository's own package (`name = "gradio"`): "the Gradio library" in
 * Gradio's own notes is no dependency, whatever became of a test's `gradio-client` (blind set DR
 * gr-t01).
 */
function productKept(found: GrepFound, name: string): boolean {
  return productForms(name).some(
    (f) =>
      dependencyLines(found, f).length > 0 ||
      (found.manifest.get(f) ?? []).some((l) => ownName(l.text) === f),
  )
}

/** The package's own name a manifest line gives (`name = "gradio"`, `"name": "x"`), lower-cased. */
const ownName = (line: string): string | null =>
  /^\s*["']?name["']?\s*[:=]\s*["']([^"']+)["']/.exec(line)?.[1]?.toLowerCase() ?? null
