/**
 * The MEMORY.md load cutoff: which head of the index Claude receives at session
 * start (memory-facts §2), and the health of its entries (dangling, orphans).
 *
 * Counting decisions (memory-facts §2 is the rule; these fix what it leaves open):
 * - Lines are counted after stripping (see markdown-strip.ts) with `splitLines`:
 *   `\r\n` is one break and a final break makes no extra line.
 * - The loaded text is the kept lines joined by a single `\n`, with no break after
 *   the last loaded line. So `loadedChars` counts one character per line break
 *   between loaded lines (a `\r\n` on disk counts 1) and none after the last one.
 *   Characters are UTF-16 code units (JS string length), not bytes or code points.
 * - "Cut at the last newline at or before character 25,000" keeps the most lines
 *   whose joined length is at most MEMORY_MAX_CHARS: exactly 25,000 loads.
 *   A first line longer than that loads nothing (lines never load in part).
 * - `limitHit` names the limit that decided the cutoff: 'chars' when the character
 *   cut removed lines (even if there were also over 200 lines), else 'lines'.
 * - `firstUnloadedLine` is the disk line of the first kept (loadable) line that does
 *   not load; frontmatter and comment lines never count as content.
 */
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from './limits'
import { stripForLoading } from './markdown-strip'
import { parseIndexEntries, resolveIndexTarget } from './memory-index'
import type { CutoffEntry, CutoffResult, Problem } from './model'
import { countLines, utf8Length } from './text'

/** The file name Claude loads as the index (memory-facts §1); never an orphan of itself. */
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
  /** How many of the given lines load. */
  readonly lines: number
  /** UTF-16 units of those lines joined by `\n`. */
  readonly chars: number
  readonly limitHit: 'lines' | 'chars' | null
}

/**
 * How many of the (already stripped) lines load: the first MEMORY_MAX_LINES, then
 * cut to whole lines within MEMORY_MAX_CHARS (memory-facts §2 steps 2–4).
 */
export function loadedHead(lines: readonly string[]): LoadedHead {
  const byLines = Math.min(lines.length, MEMORY_MAX_LINES)
  let chars = 0
  for (let i = 0; i < byLines; i++) {
    const next = chars + (i > 0 ? 1 : 0) + lines[i].length
    if (next > MEMORY_MAX_CHARS) return { lines: i, chars, limitHit: 'chars' }
    chars = next
  }
  return { lines: byLines, chars, limitHit: lines.length > MEMORY_MAX_LINES ? 'lines' : null }
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
 * topic files are orphans (memory-facts §2). Orphans are returned as given in
 * `topicFiles` (relative); `cutoffFile` turns them into absolute paths.
 */
export function computeCutoff(input: CutoffInput): CutoffResult {
  const stripped = stripForLoading(input.text)
  const head = loadedHead(stripped.lines)
  const loadedText = stripped.lines.slice(0, head.lines).join('\n')

  const self = baseName(input.file)
  const known = new Set<string>([self, MEMORY_INDEX_NAME])
  const topics = input.topicFiles.map((t) => ({ given: t, name: resolveIndexTarget(t) ?? t }))
  for (const t of topics) known.add(t.name)

  const entries: CutoffEntry[] = []
  const dangling: { line: number; target: string }[] = []
  const linked = new Set<string>()
  for (const e of parseIndexEntries(stripped.text)) {
    const line = stripped.lineMap[e.line - 1]
    entries.push({ line, title: e.title, target: e.target, loaded: e.line - 1 < head.lines })
    if (e.target === null) continue
    const name = resolveIndexTarget(e.target)
    if (name === null) continue
    linked.add(name)
    // Only relative markdown targets can be checked against the folder (memory-facts §2, "Health").
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
    loadedLines: head.lines,
    loadedChars: loadedText.length,
    loadedBytes: utf8Length(loadedText),
    limitHit: head.limitHit,
    firstUnloadedLine: head.lines < stripped.lines.length ? stripped.lineMap[head.lines] : null,
    entries,
    dangling,
    orphans,
    problems: stripProblems(input.file, stripped),
  }
}
