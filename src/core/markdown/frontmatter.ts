/**
 * YAML frontmatter of memory topic files and rules. Parsed with `yaml` under size
 * and alias limits (never an engine that evaluates code — docs/stack.md §7).
 */
import { parse } from 'yaml'
import { FRONTMATTER_MAX_ALIASES, FRONTMATTER_MAX_CHARS, FRONTMATTER_MAX_DEPTH } from '../limits'

export type Frontmatter =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'ok'
      /** Parsed mapping (empty object when the block is empty or not a mapping). */
      readonly data: Readonly<Record<string, unknown>>
      /** Number of lines the block occupies, fences included. */
      readonly lineCount: number
      /** Length in UTF-16 units of the block, fences and the line break after the closing fence included. */
      readonly length: number
    }
  | {
      readonly kind: 'error'
      readonly reason: string
      readonly lineCount: number
      readonly length: number
    }
  | { readonly kind: 'unclosed'; readonly reason: string }

const OPEN = /^---[ \t]*\r?\n/
const CLOSE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m

/** Find and parse a frontmatter block at the very start of `text`. */
export function parseFrontmatter(text: string): Frontmatter {
  const open = OPEN.exec(text)
  if (!open) return { kind: 'none' }
  const rest = text.slice(open[0].length)
  const close = CLOSE.exec(rest)
  if (!close) return { kind: 'unclosed', reason: 'frontmatter opens with --- but never closes' }
  const body = rest.slice(0, close.index)
  const length = open[0].length + close.index + close[0].length
  const block = text.slice(0, length)
  const lineCount = block.split(/\r?\n/).length - (block.endsWith('\n') ? 1 : 0)
  if (body.length > FRONTMATTER_MAX_CHARS) {
    return {
      kind: 'error',
      reason: `frontmatter larger than ${FRONTMATTER_MAX_CHARS} characters`,
      lineCount,
      length,
    }
  }
  const simple = parseSimpleMapping(body)
  if (simple !== null) return { kind: 'ok', data: simple, lineCount, length }
  const parsed = parseYaml(body)
  if ('reason' in parsed) return { kind: 'error', reason: parsed.reason, lineCount, length }
  const value = parsed.value
  const data =
    value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  return { kind: 'ok', data, lineCount, length }
}

/**
 * The one way YAML is parsed here (frontmatter, rules): alias-capped, and refused when nested
 * deeper than FRONTMATTER_MAX_DEPTH. `yaml` parses nesting by recursion: 20,000 `[` parsed near
 * the stack limit made V8 die compiling a RegExp ("RegExpCompiler Allocation failed", a fatal
 * error no catch sees), which killed a whole process in CI.
 */
export function parseYaml(body: string): { readonly value: unknown } | { readonly reason: string } {
  if (nestingDepth(body) > FRONTMATTER_MAX_DEPTH) {
    return { reason: `frontmatter nests deeper than ${FRONTMATTER_MAX_DEPTH} levels` }
  }
  try {
    return { value: parse(body, { maxAliasCount: FRONTMATTER_MAX_ALIASES, prettyErrors: false }) }
  } catch (err) {
    return { reason: `frontmatter is not valid YAML: ${(err as Error).message.split('\n')[0]}` }
  }
}

/** Characters that make a block more than simple `key: value` lines (control, tab, CR, BOM, line separators). */
const UNUSUAL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\t\r]/
const SIMPLE_LINE = /^([A-Za-z][A-Za-z0-9_-]{0,127}):(?: +(.*))?$/
/**
 * A plain scalar may start with these and stay a string (no quote, anchor, tag, flow or block
 * indicator). Also `;`, a `.` that starts no number, `.inf` or `.nan`, and a `-` before a
 * letter: descriptions cut mid-sentence start so, and each one sent a topic file to `yaml`
 * (issue 16: 2% of the generated files were a tenth of `scan`'s CPU, most of it `yaml` warming up).
 */
const SAFE_FIRST =
  /^(?:[A-Za-z0-9_(/;\u00a1-\uffff]|\.(?![0-9]|(?:inf|Inf|INF|nan|NaN|NAN)$)|-[A-Za-z])/
/** Plain scalars the YAML 1.2 core schema reads as null or a boolean (`yaml`'s default). */
const RESERVED = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/
/** Core-schema numbers that start with a digit (int, octal, hex, float, exponent). */
const NUMBER = /^(?:[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)$/

/**
 * The mapping of a frontmatter body made only of `key: plain text` lines (and blank lines),
 * read without the YAML parser — what memory topic files hold, thousands per scan (issue 7).
 * Null as soon as a line is anything else (quotes, indentation, comments, lists, empty values,
 * numbers, booleans, duplicate keys…): the caller then parses it with `yaml`, so the result is
 * always what `yaml` gives. Pure; exported for tests.
 */
export function parseSimpleMapping(body: string): Record<string, string> | null {
  if (UNUSUAL_CHARS.test(body)) return null
  const data: Record<string, string> = {}
  for (const line of body.split('\n')) {
    if (line === '') continue
    const m = SIMPLE_LINE.exec(line)
    if (!m || m[2] === undefined) return null
    const key = m[1]
    const value = m[2].replace(/ +$/, '')
    if (RESERVED.test(key) || Object.prototype.hasOwnProperty.call(data, key)) return null
    if (!isPlainString(value)) return null
    data[key] = value
  }
  return data
}

/** True when `value` (one line, trimmed) is a YAML plain scalar that reads as this very string. */
function isPlainString(value: string): boolean {
  if (value === '' || !SAFE_FIRST.test(value)) return false
  if (value.includes(' #') || value.includes(': ') || value.endsWith(':')) return false
  if (RESERVED.test(value)) return false
  return !NUMBER.test(value)
}

/**
 * An upper bound of the YAML nesting depth of `body`, without parsing it: the deepest
 * `[`/`{` flow nesting (outside quoted strings), or the deepest block nesting (each deeper
 * indentation, plus compact `- - x` and `? ` entries on one line). Pure; exported for tests.
 */
export function nestingDepth(body: string): number {
  let max = 0
  let flow = 0
  const indents: number[] = []
  let quote = '' // a quoted scalar may span lines
  for (const line of body.split('\n')) {
    const indent = /^[ \t]*/.exec(line)![0].length
    if (indent < line.length && line[indent] !== '#') {
      while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop()
      indents.push(indent)
      const compact = /^(?:[-?:][ \t]+)*/.exec(line.slice(indent))![0].replace(/[ \t]/g, '').length
      max = Math.max(max, indents.length + compact)
    }
    let prev = ' ' // the last character outside a quoted scalar, spaces skipped
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]
      if (quote === '"') {
        if (ch === '\\') i++
        else if (ch === '"') quote = ''
        continue
      }
      if (quote === "'") {
        if (ch === "'" && line[i + 1] === "'") i++
        else if (ch === "'") quote = ''
        continue
      }
      if (ch === ' ' || ch === '\t') continue
      // A quote opens a quoted scalar only where a scalar starts (YAML 1.2, 7.3); inside a
      // plain scalar (`it's`) it is text, and brackets after it still count.
      const afterSpace = i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t'
      if (
        (ch === '"' || ch === "'") &&
        (' [{,'.includes(prev) || (':-?'.includes(prev) && afterSpace))
      )
        quote = ch
      else if (ch === '#' && afterSpace) break
      else if (ch === '[' || ch === '{') max = Math.max(max, ++flow)
      else if ((ch === ']' || ch === '}') && flow > 0) flow--
      prev = ch
    }
  }
  return max
}

/** A string field of parsed frontmatter, or null. */
export function frontmatterString(fm: Frontmatter, key: string): string | null {
  if (fm.kind !== 'ok') return null
  const v = fm.data[key]
  return typeof v === 'string' ? v : null
}
