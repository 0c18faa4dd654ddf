/**
 * Search across memory files (issue 15 item 11), the pure part: what a query asks for, where a
 * line matches, and the piece of a long line to show around the match.
 * A query is free text (matched case-insensitively, as one phrase) plus optional filters:
 * `verdict:stale` (also `is:stale`; `wrong` for never-matched) and `project:name`.
 */
import type { Verdict } from '../../shared/model'

export interface SearchQuery {
  /** The text to find, lower-cased; '' when the query is filters only. */
  readonly text: string
  readonly verdicts: readonly Verdict[]
  /** Lower-cased words a project's name, folder or launch directory must contain. */
  readonly projects: readonly string[]
}

/** The words a person may type for each verdict. */
const VERDICT_NAMES: Readonly<Record<string, Verdict>> = {
  fresh: 'fresh',
  suspect: 'suspect',
  stale: 'stale',
  'never-matched': 'never-matched',
  wrong: 'never-matched',
  unverifiable: 'unverifiable',
}

/** Parse a query typed in the search box. Unknown `x:` words stay part of the text. */
export function parseSearchQuery(raw: string): SearchQuery {
  const verdicts: Verdict[] = []
  const projects: string[] = []
  const rest: string[] = []
  for (const word of raw.trim().split(/\s+/)) {
    if (word === '') continue
    const m = /^(verdict|is|project|in):(.+)$/i.exec(word)
    if (m) {
      const key = m[1].toLowerCase()
      const value = m[2].toLowerCase()
      if (key === 'project' || key === 'in') {
        projects.push(value)
        continue
      }
      const verdict = VERDICT_NAMES[value]
      if (verdict) {
        if (!verdicts.includes(verdict)) verdicts.push(verdict)
        continue
      }
    }
    rest.push(word)
  }
  return { text: rest.join(' ').toLowerCase(), verdicts, projects }
}

/** Whether the query asks for anything at all. */
export const isEmptyQuery = (q: SearchQuery): boolean =>
  q.text === '' && q.verdicts.length === 0 && q.projects.length === 0

/** A line that matches, 1-based, with the match's column (UTF-16 units). */
export interface LineMatch {
  readonly line: number
  readonly column: number
}

/**
 * Lines of `text` containing `needle` (already lower-cased), at most `max` of them.
 * Case folding is `toLowerCase` on the line, which keeps UTF-16 offsets for nearly all text.
 */
export function matchingLines(text: string, needle: string, max: number): LineMatch[] {
  const out: LineMatch[] = []
  if (needle === '' || max <= 0) return out
  let start = 0
  let line = 1
  while (start <= text.length && out.length < max) {
    let end = text.indexOf('\n', start)
    if (end < 0) end = text.length
    const column = text.slice(start, end).toLowerCase().indexOf(needle)
    if (column >= 0) out.push({ line, column })
    start = end + 1
    line++
  }
  return out
}

/** The 1-based line `n` of `text` (without its line end), '' past the end. */
export function lineAt(text: string, n: number): string {
  let start = 0
  for (let i = 1; i < n; i++) {
    const next = text.indexOf('\n', start)
    if (next < 0) return ''
    start = next + 1
  }
  const end = text.indexOf('\n', start)
  return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '')
}

/** The part of a long line to show: about `width` units around the match, marked with "…". */
export function snippetAround(
  line: string,
  column: number,
  length: number,
  width = 160,
): { readonly text: string; readonly start: number } {
  const clean = line.replace(/\r$/, '')
  if (clean.length <= width) return { text: clean, start: column }
  const before = Math.max(
    0,
    Math.min(column - Math.floor((width - length) / 3), clean.length - width),
  )
  const from = before
  const to = Math.min(clean.length, from + width)
  const lead = from > 0 ? '…' : ''
  const tail = to < clean.length ? '…' : ''
  return { text: lead + clean.slice(from, to) + tail, start: column - from + lead.length }
}
