/**
 * Finding quoted code in a file as it is now: exact (every line, in order,
 * whitespace aside), similar (most lines still there, e.g. after a small edit),
 * or gone. Lines are compared trimmed with inner whitespace collapsed, so
 * re-indentation alone does not change a quote.
 */
import { diffArrays, diffWordsWithSpace } from 'diff'

/** Share of a quote's lines that must still match for it to count as changed rather than gone. */
export const SNIPPET_SIMILAR_MIN = 0.6
/** A line edited this little (word similarity) still counts half (a small edit, not a rewrite). */
const LINE_SIMILAR_MIN = 0.6
/** Quotes longer than this are compared on their first lines only. */
export const SNIPPET_MAX_LINES = 2000
/** A line repeated more often than this in a file (`}`, `end`) does not vote for positions. */
const MAX_VOTES_PER_LINE = 50
/** Candidate positions examined in detail. */
const MAX_CANDIDATES = 3

export interface SnippetMatch {
  readonly kind: 'exact' | 'similar' | 'none'
  /** Share of the quote's (non-blank) lines found, 0..1; an edited line counts half. */
  readonly score: number
  /** 1-based lines of the best region in the file, 0 when none. */
  readonly startLine: number
  readonly endLine: number
  /** Non-blank lines of the quote that were compared. */
  readonly lines: number
  /** True when the quote was longer than SNIPPET_MAX_LINES and only its head was compared. */
  readonly truncated: boolean
}

interface NormLine {
  readonly text: string
  /** 1-based line on disk. */
  readonly line: number
}

/**
 * Trim and collapse whitespace; blank lines are dropped. A comment after a statement's end
 * (`await sweep(id);  // side effect`) is dropped, and so is a line that only elides
 * (`// ...`, `# …`, `/* ... *\/`): a note's excerpt adds both to code it quotes, and the code's
 * own trailing comments say nothing about what it does. Blind set N: an excerpt of a route
 * with the note's remarks read as never in the code.
 */
export function normaliseLines(text: string): NormLine[] {
  const out: NormLine[] = []
  text.split(/\r?\n/).forEach((l, i) => {
    const t = quotedCode(l).replace(/\s+/g, ' ')
    if (t !== '') out.push({ text: t, line: i + 1 })
  })
  return out
}

/** A quote's line trimmed, without a comment after its statement; '' for an elision. */
export function quotedCode(line: string): string {
  const t = line.trim().replace(TRAILING_COMMENT_RE, '$1')
  return ELISION_RE.test(t) ? '' : t
}

/** A statement's end (`;`, `)`, `}`, `,`, `{`), blanks, then a `//` or `#` comment. */
const TRAILING_COMMENT_RE = /([;)}{,\]])\s+(?:\/\/|#)\s.*$/
/** A line that only elides: `...`, `…`, `// ...`, `# …`, `/* ... *\/`. */
const ELISION_RE = /^(?:\/\/|#|\/\*)?\s*(?:\.{3}|…)\s*(?:\*\/)?$/

/** Similarity of two lines by words, 0..1 (2 × common characters / total). */
export function lineSimilarity(a: string, b: string): number {
  if (a === b) return 1
  const total = a.length + b.length
  if (total === 0) return 1
  let common = 0
  for (const part of diffWordsWithSpace(a, b))
    if (!part.added && !part.removed) common += part.value.length
  return (2 * common) / total
}

const NONE = (lines: number, truncated: boolean): SnippetMatch => ({
  kind: 'none',
  score: 0,
  startLine: 0,
  endLine: 0,
  lines,
  truncated,
})

/** The best place for `snippet` in `file`, and how well it matches. */
export function matchSnippet(snippet: string, file: string): SnippetMatch {
  let quote = normaliseLines(snippet)
  const truncated = quote.length > SNIPPET_MAX_LINES
  if (truncated) quote = quote.slice(0, SNIPPET_MAX_LINES)
  const n = quote.length
  if (n === 0) return NONE(0, false)
  const lines = normaliseLines(file)
  if (n === 1) return matchOneLine(quote[0].text, lines, truncated)

  // Each quote line votes for the file positions where the quote would start.
  const positions = new Map<string, number[]>()
  const wanted = new Set(quote.map((q) => q.text))
  lines.forEach((l, j) => {
    if (!wanted.has(l.text)) return
    const list = positions.get(l.text)
    if (list) list.push(j)
    else positions.set(l.text, [j])
  })
  const votes = new Map<number, number>()
  quote.forEach((q, i) => {
    const at = positions.get(q.text)
    if (!at || at.length > MAX_VOTES_PER_LINE) return
    for (const j of at) votes.set(j - i, (votes.get(j - i) ?? 0) + 1)
  })
  if (votes.size === 0) return NONE(n, truncated)
  const candidates = [...votes.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_CANDIDATES)
    .map(([offset]) => offset)

  let best: SnippetMatch = NONE(n, truncated)
  const quoteText = quote.map((q) => q.text)
  for (const offset of candidates) {
    if (
      offset >= 0 &&
      offset + n <= lines.length &&
      quote.every((q, i) => lines[offset + i].text === q.text)
    ) {
      return {
        kind: 'exact',
        score: 1,
        startLine: lines[offset].line,
        endLine: lines[offset + n - 1].line,
        lines: n,
        truncated,
      }
    }
    const slack = Math.ceil(n / 2)
    const from = Math.max(0, offset - slack)
    const to = Math.min(lines.length, offset + n + slack)
    const window = lines.slice(from, to)
    const scored = scoreWindow(quoteText, window)
    if (scored.score > best.score) {
      best = {
        kind: scored.score >= SNIPPET_SIMILAR_MIN ? 'similar' : 'none',
        score: scored.score,
        startLine: scored.start,
        endLine: scored.end,
        lines: n,
        truncated,
      }
    }
  }
  return best
}

/** Align the quote with a window of the file: equal lines count 1, lightly edited ones ½. */
function scoreWindow(
  quote: string[],
  window: readonly NormLine[],
): { score: number; start: number; end: number } {
  const changes = diffArrays(
    quote,
    window.map((w) => w.text),
  )
  let equal = 0
  let fuzzy = 0
  let j = 0
  let first = -1
  let last = -1
  const mark = (k: number): void => {
    if (first === -1) first = k
    last = k
  }
  for (let c = 0; c < changes.length; c++) {
    const ch = changes[c]
    if (!ch.added && !ch.removed) {
      equal += ch.count
      mark(j)
      mark(j + ch.count - 1)
      j += ch.count
    } else if (ch.removed) {
      const next = changes[c + 1]
      if (next && next.added) {
        // Pair removed quote lines with the file lines that replaced them.
        const pairs = Math.min(ch.count, next.count)
        for (let k = 0; k < pairs; k++) {
          if (lineSimilarity(ch.value[k], next.value[k]) >= LINE_SIMILAR_MIN) {
            fuzzy++
            mark(j + k)
          }
        }
        j += next.count
        c++
      }
    } else j += ch.count
  }
  const score = (equal + fuzzy / 2) / quote.length
  if (first === -1) return { score: 0, start: 0, end: 0 }
  return { score, start: window[first].line, end: window[last].line }
}

/** Lines a one-line quote may run over (a TOML table and its key, a call wrapped by a formatter). */
const WRAP_MAX_LINES = 6

/**
 * Where a one-line quote is the file's text over consecutive lines, each line break read as a
 * blank (`[tool.pytest.ini_options] pythonpath = ["src"]`, a table header and its key: hidden
 * set G, a fresh note's quote read as never there). Its first word starts on the first line.
 */
function acrossLines(q: string, lines: readonly NormLine[]): readonly [number, number] | null {
  const first = q.split(' ')[0]
  if (first === undefined || first === '' || first === q) return null
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].text.includes(first)) continue
    let joined = lines[i].text
    for (let j = i + 1; j < Math.min(lines.length, i + WRAP_MAX_LINES); j++) {
      joined += ` ${lines[j].text}`
      if (joined.includes(q)) return [lines[i].line, lines[j].line]
      if (joined.length > lines[i].text.length + q.length) break
    }
  }
  return null
}

function matchOneLine(q: string, lines: readonly NormLine[], truncated: boolean): SnippetMatch {
  let bestScore = 0
  let bestLine = 0
  for (const l of lines) {
    if (l.text.includes(q))
      return { kind: 'exact', score: 1, startLine: l.line, endLine: l.line, lines: 1, truncated }
  }
  // `ProjectDirs::from("","","Zord")` for `ProjectDirs::from("", "", "Zord")`: a formatter's
  // blanks are not code (hidden set K).
  const bare = q.replace(/\s+/g, '')
  if (bare.length >= 8)
    for (const l of lines)
      if (l.text.replace(/\s+/g, '').includes(bare))
        return { kind: 'exact', score: 1, startLine: l.line, endLine: l.line, lines: 1, truncated }
  const wrapped = acrossLines(q, lines)
  if (wrapped !== null)
    return {
      kind: 'exact',
      score: 1,
      startLine: wrapped[0],
      endLine: wrapped[1],
      lines: 1,
      truncated,
    }
  // Only lines sharing a distinctive token are worth a word diff.
  const token = distinctiveToken(q)
  for (const l of lines) {
    if (token && !l.text.includes(token)) continue
    const s = lineSimilarity(
      q,
      l.text.length > q.length * 3 ? closestSpan(q, l.text, token) : l.text,
    )
    if (s > bestScore) {
      bestScore = s
      bestLine = l.line
    }
  }
  if (bestScore >= SNIPPET_SIMILAR_MIN) {
    return {
      kind: 'similar',
      score: bestScore,
      startLine: bestLine,
      endLine: bestLine,
      lines: 1,
      truncated,
    }
  }
  return bestLine > 0
    ? {
        kind: 'none',
        score: bestScore,
        startLine: bestLine,
        endLine: bestLine,
        lines: 1,
        truncated,
      }
    : NONE(1, truncated)
}

/** In a long line, the stretch around `token` as long as the quote, so length alone does not sink it. */
function closestSpan(q: string, line: string, token: string | null): string {
  const at = token ? line.indexOf(token) : 0
  const start = Math.max(0, at - q.length)
  return line.slice(start, start + q.length * 2)
}

/** The longest identifier-like word in a line (for finding where an edited line went). */
export function distinctiveToken(line: string): string | null {
  const words = line.match(/[A-Za-z_$][\w$]{3,}/g)
  if (!words) return null
  return words.reduce((a, b) => (b.length > a.length ? b : a))
}

/** Lines of a quote worth searching the repository for, most distinctive first. */
export function distinctiveLines(snippet: string, max = 3): string[] {
  const seen = new Set<string>()
  const lines = normaliseLines(snippet)
    .slice(0, SNIPPET_MAX_LINES)
    .map((l) => l.text)
    .filter((t) => t.length >= 6 && /[A-Za-z]/.test(t) && !seen.has(t) && seen.add(t) !== undefined)
  // Longer lines with more letters are rarer; ties keep quote order.
  const weight = (t: string): number => (t.match(/[A-Za-z0-9_]/g) ?? []).length
  return lines
    .map((t, i) => ({ t, i, w: weight(t) }))
    .sort((a, b) => b.w - a.w || a.i - b.i)
    .slice(0, max)
    .map((x) => x.t)
}

/** `DownloadManager.shared`, `Theme.of`: the member chains a line of code uses. */
export function memberChains(line: string): string[] {
  return line.match(/(?<![\w.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+/g) ?? []
}
