/**
 * Entries of a `MEMORY.md` index (docs/memory-rules.md §2.6 "Index format"): one list item
 * per entry, usually `- [Title](topic-file.md) — hook`.
 */
import { findCodeSpans } from '../audit/code-spans'
import { closesFence, openFence, type Fence } from '../markdown/strip'
import { splitLines } from '../text'

export interface IndexEntry {
  /** 1-based line of the text given to `parseIndexEntries`. */
  readonly line: number
  /** The link text (inline markdown kept), or the whole item text when there is no link. */
  readonly title: string
  /** Link destination as written (without `<…>`), or null for an item without a link. */
  readonly target: string | null
  /** Text after the link, a leading `—`, `–`, `-`, `:` or `|` separator removed; '' if none. */
  readonly hook: string
}

/** A list item: bullet `-`, `*`, `+` or `1.` / `1)`, any indentation, some text. */
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(\S.*)$/
/** A thematic break such as `- - -` or `* * *`, which looks like a list item but is not. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const HOOK_SEPARATOR = /^\s*(?:—|–|-{1,2}|:|\|)?\s*/

interface FoundLink {
  readonly title: string
  readonly target: string
  readonly end: number
}

/** For each unescaped `[`, the index of its matching `]` (one pass, so long lines stay linear). */
function matchBrackets(s: string): Map<number, number> {
  const closeOf = new Map<number, number>()
  const open: number[] = []
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (c === '\\') i++
    else if (c === '[') open.push(i)
    else if (c === ']' && open.length > 0) closeOf.set(open.pop() as number, i)
  }
  return closeOf
}

/** Deepest `(` nesting inside a bare link destination (CommonMark implementations cap it at 32). */
const DEST_MAX_PARENS = 32

/** `s.indexOf(ch, from)` remembering the last answer per character, so repeated searches stay linear. */
function nextIndexFinder(s: string): (ch: string, from: number) => number {
  const memo = new Map<string, { from: number; at: number }>()
  return (ch, from) => {
    const m = memo.get(ch)
    if (m && from >= m.from && (m.at === -1 || from <= m.at)) return m.at
    const at = s.indexOf(ch, from)
    memo.set(ch, { from, at })
    return at
  }
}

/**
 * Parse an inline link `[text](dest "title")` whose `[` is at `start` and `]` at
 * `textEnd`, or null. Scans are bounded so a hostile line cannot make this quadratic.
 */
function linkAt(
  s: string,
  start: number,
  textEnd: number,
  find: (ch: string, from: number) => number,
): FoundLink | null {
  if (s[textEnd + 1] !== '(') return null
  let k = textEnd + 2
  while (s[k] === ' ' || s[k] === '\t') k++
  let target: string
  if (s[k] === '<') {
    // `<…>` may not contain an unescaped `<`, so the scan ends at the next one.
    let j = k + 1
    for (; j < s.length && s[j] !== '>'; j++) {
      if (s[j] === '<') return null
      if (s[j] === '\\') j++
    }
    if (j >= s.length) return null
    target = s.slice(k + 1, j)
    k = j + 1
  } else {
    let parens = 0
    const from = k
    for (; k < s.length; k++) {
      const c = s[k]
      if (c === '\\') k++
      else if (c === ' ' || c === '\t') break
      else if (c === '(') {
        if (++parens > DEST_MAX_PARENS) return null
      } else if (c === ')') {
        if (parens === 0) break
        parens--
      }
    }
    target = s.slice(from, Math.min(k, s.length)).replace(/\\(.)/g, '$1')
  }
  while (s[k] === ' ' || s[k] === '\t') k++
  const quote = s[k]
  if (quote === '"' || quote === "'" || quote === '(') {
    const close = find(quote === '(' ? ')' : quote, k + 1)
    if (close === -1) return null
    k = close + 1
    while (s[k] === ' ' || s[k] === '\t') k++
  }
  if (s[k] !== ')') return null
  return { title: s.slice(start + 1, textEnd).trim(), target, end: k + 1 }
}

/** The first inline link in a line of text, skipping code spans, escapes and images. */
function firstLink(s: string): FoundLink | null {
  const closeOf = matchBrackets(s)
  const find = nextIndexFinder(s)
  // The same walk as findCodeSpans with escapes, so its spans start where this loop meets them.
  const spanEnd = new Map(findCodeSpans(s, { escapes: true }).map((c) => [c.start, c.end]))
  let i = 0
  while (i < s.length) {
    const c = s[i]
    if (c === '\\') {
      i += 2
      continue
    }
    if (c === '`') {
      let n = 0
      while (s[i + n] === '`') n++
      i = spanEnd.get(i) ?? i + n
      continue
    }
    const textEnd = c === '[' && s[i - 1] !== '!' ? closeOf.get(i) : undefined
    if (textEnd !== undefined) {
      const link = linkAt(s, i, textEnd, find)
      if (link) return link
    }
    i++
  }
  return null
}

/**
 * Parse the list items of an index into entries, skipping fenced code blocks. Give
 * it text already stripped of comments (see `stripForLoading`) to match what loads.
 */
export function parseIndexEntries(text: string): IndexEntry[] {
  const entries: IndexEntry[] = []
  let fence: Fence | null = null
  const lines = splitLines(text)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (fence) {
      if (closesFence(line, fence)) fence = null
      continue
    }
    fence = openFence(line)
    if (fence) continue
    if (THEMATIC_BREAK.test(line)) continue
    const item = LIST_ITEM.exec(line)
    if (!item) continue
    const content = item[1].trimEnd()
    const link = firstLink(content)
    if (!link) {
      entries.push({ line: i + 1, title: content, target: null, hook: '' })
      continue
    }
    const hook = content.slice(link.end).replace(HOOK_SEPARATOR, '').trim()
    entries.push({ line: i + 1, title: link.title, target: link.target, hook })
  }
  return entries
}

/** Segments of letters, digits, `_`, `-` and inner `.`, none starting with `.`, joined by `/`. */
const PLAIN_TARGET = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/

/**
 * The topic file an entry's target names, relative to the memory folder (`sub/x.md`),
 * or null when it names none there: a URL with a scheme, a bare `#fragment`, an
 * absolute or `~` path, or a path climbing out of the folder. Drops `#fragment` and
 * `?query`, decodes percent escapes (`%20`), normalises `./` and `..`.
 */
export function resolveIndexTarget(target: string): string | null {
  // Most targets are plain names like `x.md` or `sub/x.md`, already in their resolved form: nothing
  // to trim, decode, drop or normalise (a cutoff resolves every topic file and entry; issue 7).
  if (PLAIN_TARGET.test(target)) return target
  let t = target.trim()
  if (t === '' || /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(t) || t.startsWith('//')) return null
  t = t.replace(/[#?].*$/s, '')
  if (t === '') return null
  try {
    t = decodeURIComponent(t)
  } catch {
    t = t.replace(/%20/g, ' ')
  }
  if (t.startsWith('/') || t.startsWith('~')) return null
  const parts: string[] = []
  for (const seg of t.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') {
      if (parts.length === 0) return null
      parts.pop()
    } else parts.push(seg)
  }
  return parts.length === 0 ? null : parts.join('/')
}
