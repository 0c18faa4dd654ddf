/**
 * The MEMORY.md load cutoff: which head of the index Claude receives at session
 * start (docs/memory-rules.md §2.1), and the health of its entries (dangling, orphans).
 *
 * Counting decisions (docs/memory-rules.md §2 is the rule; these fix what it leaves open):
 * - Lines are counted after stripping (see markdown-strip.ts) with `splitLines`:
 *   `\r\n` is one break and a final break makes no extra line.
 * - The whole text is trimmed before counting (leading and trailing blank lines do not
 *   count, docs/memory-rules.md §2.2 step 1 [agent]).
 * - The loaded text is the kept lines joined by a single `\n`, with no break after
 *   the last loaded line. So `loadedChars` counts one character per line break
 *   between loaded lines and none after the last one: what the model receives. The
 *   25,000 limit, though, also counts each `\r` of a `\r\n` (docs/memory-rules.md §2.3 [agent]).
 *   Characters are UTF-16 code units (JS string length), not bytes or code points.
 * - "Cut at the last newline at or before character 25,000" keeps the most lines
 *   whose joined length is at most MEMORY_MAX_CHARS: exactly 25,000 loads.
 *   A first line longer than that loads nothing (lines never load in part).
 * - `limitHit` names the limit that decided the cutoff: 'chars' when the character
 *   cut removed lines (even if there were also over 200 lines), else 'lines'.
 * - `firstUnloadedLine` is the disk line of the first kept (loadable) line that does
 *   not load; frontmatter and comment lines never count as content.
 */
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../limits'
import { stripForLoading } from '../markdown/strip'
import { parseIndexEntries, resolveIndexTarget } from './index-entries'
import type { CutoffEntry, CutoffResult, Problem } from '../../shared/model'
import { countLines, utf8Length } from '../text'

/** The file name Claude loads as the index (docs/memory-rules.md §1.5); never an orphan of itself. */
export const MEMORY_INDEX_NAME = 'MEMORY.md'

export interface CutoffInput {
  /** Path of the index, copied into the result and into problems. */
  readonly file: string
  /** The file's text as read. */
  readonly text: string
  /** Size of the file on disk in bytes. */
  readonly totalBytes: number
  /** Topic files of the memory folder, relative to it with `/` (`x.md`, `sub/y.md`). */
  readonly topicFiles: readonly string[]
}

export interface LoadedHead {
  /** Index just past the last loaded line of the given lines (leading blank lines count as passed). */
  readonly lines: number
  /** How many lines the model receives (the loaded lines after trimming). */
  readonly count: number
  /** UTF-16 units the model receives: those lines joined by `\n` (CRLF arrives as `\n`). */
  readonly chars: number
  readonly limitHit: 'lines' | 'chars' | null
}

const NON_BLANK = /\S/

/**
 * How many of the (already stripped) lines load (docs/memory-rules.md §2.2 steps 1–4): the whole text
 * is trimmed first, then the first MEMORY_MAX_LINES are kept, then cut to whole lines within
 * MEMORY_MAX_CHARS. `crlf[i]` says line i ended in `\r\n` on disk: each such `\r` counts
 * toward the character limit although the model receives `\n` only ([agent], 2.1.332).
 */
export function loadedHead(lines: readonly string[], crlf: readonly boolean[] = []): LoadedHead {
  let start = 0
  while (start < lines.length && !NON_BLANK.test(lines[start])) start++
  let end = lines.length
  while (end > start && !NON_BLANK.test(lines[end - 1])) end--
  const total = end - start
  const byLines = Math.min(total, MEMORY_MAX_LINES)
  // The text as counted: trimmed, so the first line loses its indent and the last its `\r`.
  const line = (k: number): string => {
    let t = lines[start + k]
    if (k === 0) t = t.trimStart()
    if (k === total - 1) t = t.trimEnd()
    return t
  }
  const cr = (k: number): number => (k < total - 1 && crlf[start + k] === true ? 1 : 0)
  let counted = 0
  let chars = 0
  for (let k = 0; k < byLines; k++) {
    const len = line(k).length
    const next = counted + (k > 0 ? 1 : 0) + len + cr(k)
    if (next > MEMORY_MAX_CHARS) {
      return { lines: start + k, count: k, chars, limitHit: 'chars' }
    }
    counted = next
    chars += (k > 0 ? 1 : 0) + len
  }
  return {
    lines: start + byLines,
    count: byLines,
    chars,
    limitHit: total > MEMORY_MAX_LINES ? 'lines' : null,
  }
}

/** Which stripped lines ended in `\r\n` on disk (the text keeps the disk's line breaks). */
export function crlfFlags(strippedText: string, lineCount: number): boolean[] {
  const raw = strippedText.split('\n')
  const out: boolean[] = []
  for (let i = 0; i < lineCount; i++) out.push(i < raw.length - 1 && raw[i].endsWith('\r'))
  return out
}

/** The text the model receives for a head of `lines` (trimmed, `\n` breaks). */
function loadedText(lines: readonly string[], head: LoadedHead): string {
  const text = lines
    .slice(head.lines - head.count, head.lines)
    .join('\n')
    .trimStart()
  return head.limitHit === null ? text.trimEnd() : text
}

/** Last path segment, for either separator (core has no node:path). */
function baseName(path: string): string {
  const parts = path.split(/[\\/]/)
  return parts[parts.length - 1]
}

/** Problems a reader should know about: what we did not strip, or stripped despite errors. */
function stripProblems(file: string, stripped: ReturnType<typeof stripForLoading>): Problem[] {
  const problems: Problem[] = []
  const fm = stripped.frontmatter
  if (fm.kind === 'unclosed') {
    problems.push({ path: file, reason: `${fm.reason}; it is not stripped and loads as text` })
  } else if (fm.kind === 'error') {
    problems.push({
      path: file,
      reason: `${fm.reason}; the block is still stripped before loading`,
    })
  }
  if (stripped.unclosedCommentLine !== null) {
    problems.push({
      path: file,
      reason: `HTML comment opened on line ${stripped.unclosedCommentLine} never closes; it is not stripped and loads as text`,
    })
  }
  return problems
}

/**
 * What of a MEMORY.md loads at session start, and which entries dangle or which
 * topic files are orphans (docs/memory-rules.md §2). Orphans are returned as given in
 * `topicFiles` (relative); `cutoffFile` turns them into absolute paths.
 */
export function computeCutoff(input: CutoffInput): CutoffResult {
  const stripped = stripForLoading(input.text)
  const head = loadedHead(stripped.lines, crlfFlags(stripped.text, stripped.lines.length))
  const first = head.lines - head.count

  const self = baseName(input.file)
  const known = new Set<string>([self, MEMORY_INDEX_NAME])
  const topics = input.topicFiles.map((t) => ({ given: t, name: resolveIndexTarget(t) ?? t }))
  for (const t of topics) known.add(t.name)

  const entries: CutoffEntry[] = []
  const dangling: { line: number; target: string }[] = []
  const linked = new Set<string>()
  for (const e of parseIndexEntries(stripped.text)) {
    const line = stripped.lineMap[e.line - 1]
    entries.push({
      line,
      title: e.title,
      target: e.target,
      loaded: e.line - 1 >= first && e.line - 1 < head.lines,
    })
    if (e.target === null) continue
    const name = resolveIndexTarget(e.target)
    if (name === null) continue
    linked.add(name)
    // Only relative markdown targets can be checked against the folder (docs/memory-rules.md §2.7 "Health").
    if (name.toLowerCase().endsWith('.md') && !known.has(name))
      dangling.push({ line, target: e.target })
  }

  const orphans = topics
    .filter((t) => t.name !== MEMORY_INDEX_NAME && t.name !== self && !linked.has(t.name))
    .map((t) => t.given)

  return {
    file: input.file,
    totalLines: countLines(input.text),
    totalBytes: input.totalBytes,
    totalChars: input.text.length,
    loadedLines: head.count,
    loadedChars: head.chars,
    loadedBytes: utf8Length(loadedText(stripped.lines, head)),
    limitHit: head.limitHit,
    firstUnloadedLine: head.limitHit !== null ? stripped.lineMap[head.lines] : null,
    entries,
    dangling,
    orphans,
    problems: stripProblems(input.file, stripped),
  }
}
