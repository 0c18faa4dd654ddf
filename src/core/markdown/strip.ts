/**
 * What Claude Code removes from a memory or instruction file before loading it:
 * YAML frontmatter and block-level HTML comments (docs/memory-rules.md §2.2 step 1, §3).
 *
 * Decisions, so every caller counts the same way:
 * - A block comment starts on a line whose text, after at most 3 spaces, begins
 *   with `<!--` (CommonMark HTML block type 2), outside fenced code blocks. A
 *   comment after other text on its line is inline and stays.
 * - It ends at the first `-->` (the `--` of `<!--` may be reused, so `<!-->` and
 *   `<!--->` are complete empty comments, as in CommonMark 0.31).
 * - Every line from the opening line to the closing line is removed entirely; it
 *   does not count as a line. The text after `-->` on the closing line (with any
 *   further complete comments on it removed) is kept as a line of its own, mapped
 *   to the closing line on disk, unless it is only whitespace — then that line is
 *   removed too.
 * - A comment that never closes is not stripped: it is kept as text and reported
 *   through `unclosedCommentLine` (we never hide text on a guess).
 * - An unclosed frontmatter is not stripped either (the caller reports it); a
 *   closed block with invalid YAML is still a delimited block and is stripped.
 * - Line breaks of kept lines are preserved as on disk (`\n` or `\r\n`).
 */
import { parseFrontmatter, type Frontmatter } from './frontmatter'
import { splitLinesWithEndings as rawLines, stripBom } from '../text'

/** One line as on disk: its text without the break, and the break itself ('' on a last line without one). */
interface RawLine {
  readonly content: string
  readonly eol: string
}

/** A kept line and the 1-based line on disk it comes from. */
interface KeptLine extends RawLine {
  readonly diskLine: number
}

export interface StrippedText {
  /** The text that loads, line breaks as on disk. */
  readonly text: string
  /** `lineMap[i]` is the 1-based disk line of line i of `text` (as `splitLines` counts lines). */
  readonly lineMap: readonly number[]
  /** The lines of `text` (as `splitLines(text)` would return them). */
  readonly lines: readonly string[]
  readonly frontmatter: Frontmatter
  /** 1-based disk line of a `<!--` block comment that never closes (kept as text), else null. */
  readonly unclosedCommentLine: number | null
}

/** A fenced code block's opening fence. */
export interface Fence {
  readonly char: '`' | '~'
  readonly length: number
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/
const COMMENT_OPEN = /^ {0,3}<!--/
const COMMENT_ANYWHERE = /<!--(?:>|->|[\s\S]*?-->)/g

/**
 * The fence a line opens, or null. Indentation is not limited to 3 spaces so that
 * fences inside (nested) list items are recognised too.
 */
export function openFence(line: string): Fence | null {
  const m = FENCE_OPEN.exec(line)
  if (!m) return null
  const marker = m[1]
  const char = marker[0] as '`' | '~'
  // A backtick fence's info string may not contain backticks (CommonMark).
  if (char === '`' && m[2].includes('`')) return null
  return { char, length: marker.length }
}

/** Whether a line closes `fence`: same character, at least as long, nothing after but spaces. */
export function closesFence(line: string, fence: Fence): boolean {
  const m = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(line)
  return m !== null && m[1][0] === fence.char && m[1].length >= fence.length
}

/** Remove block comments from lines; `firstLine` is the disk line of `lines[0]`. */
function stripCommentLines(
  lines: readonly RawLine[],
  firstLine: number,
): { kept: KeptLine[]; unclosedCommentLine: number | null } {
  const kept: KeptLine[] = []
  let fence: Fence | null = null
  let unclosedCommentLine: number | null = null
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    const diskLine = firstLine + i
    if (fence) {
      kept.push({ ...line, diskLine })
      if (closesFence(line.content, fence)) fence = null
      i++
      continue
    }
    const opened = openFence(line.content)
    if (opened) {
      fence = opened
      kept.push({ ...line, diskLine })
      i++
      continue
    }
    const open = unclosedCommentLine === null ? COMMENT_OPEN.exec(line.content) : null
    if (!open) {
      kept.push({ ...line, diskLine })
      i++
      continue
    }
    // Search for `-->`, letting it reuse the `--` of `<!--` (so `<!-->` closes at once).
    let j = i
    let close = line.content.indexOf('-->', open[0].length - 2)
    while (close === -1 && ++j < lines.length) close = lines[j].content.indexOf('-->')
    if (close === -1) {
      // No `-->` anywhere below, so no later comment can close either: keep all as text.
      unclosedCommentLine = diskLine
      kept.push({ ...line, diskLine })
      i++
      continue
    }
    const rest = lines[j].content.slice(close + 3).replace(COMMENT_ANYWHERE, '')
    if (rest.trim() !== '') kept.push({ content: rest, eol: lines[j].eol, diskLine: firstLine + j })
    i = j + 1
  }
  return { kept, unclosedCommentLine }
}

/** Join kept lines back into text, line breaks as on disk. */
function joinKept(kept: readonly KeptLine[]): string {
  let text = ''
  for (const k of kept) text += k.content + k.eol
  return text
}

/**
 * Remove frontmatter and block-level HTML comments, the way Claude Code does before
 * loading (docs/memory-rules.md §2.2 step 1); keeps a map from each remaining line to its disk line.
 */
export function stripForLoading(text: string): StrippedText {
  const source = stripBom(text)
  const frontmatter = parseFrontmatter(source)
  let body = source
  let firstLine = 1
  if (frontmatter.kind === 'ok' || frontmatter.kind === 'error') {
    body = source.slice(frontmatter.length)
    firstLine = 1 + frontmatter.lineCount
  }
  const { kept, unclosedCommentLine } = stripCommentLines(rawLines(body), firstLine)
  return {
    text: joinKept(kept),
    lineMap: kept.map((k) => k.diskLine),
    lines: kept.map((k) => k.content),
    frontmatter,
    unclosedCommentLine,
  }
}

/**
 * Remove block-level HTML comments only (docs/memory-rules.md §3.9), by the rules at the top
 * of this file; frontmatter and line breaks are left as they are.
 */
export function stripBlockComments(text: string): string {
  return joinKept(stripCommentLines(rawLines(text), 1).kept)
}
