/**
 * Inline code spans, found in one pass (CommonMark §6.1: a run of n backticks opens, the next
 * run of exactly n closes). A regex with a lazy body retried at every opener was quadratic:
 * 80,000 backticks took 13 s and blocked every other request (issue 11, item 8).
 */

export interface CodeSpan {
  /** Index of the opening run. */
  readonly start: number
  /** Index just past the closing run. */
  readonly end: number
  readonly contentStart: number
  readonly contentEnd: number
}

/** Counts the loop steps of one call, so a test can check the work grows linearly. */
export interface WorkMeter {
  steps: number
}

/**
 * Every code span of `s`, in order. With `escapes`, a backslash outside a span makes the next
 * character literal (an escaped backtick opens nothing); closing runs are taken whole, since
 * escapes do not work inside a span. Work is O(length + runs): each run length keeps a cursor
 * into the positions of its runs that only moves forward.
 */
export function findCodeSpans(
  s: string,
  options: { readonly escapes?: boolean; readonly meter?: WorkMeter } = {},
): CodeSpan[] {
  const meter = options.meter ?? { steps: 0 }
  // Maximal runs by length: the closers.
  const runsByLength = new Map<number, number[]>()
  for (let i = s.indexOf('`'); i !== -1;) {
    let n = 0
    while (s.charCodeAt(i + n) === 96) n++
    meter.steps += n + 1
    const list = runsByLength.get(n)
    if (list) list.push(i)
    else runsByLength.set(n, [i])
    i = s.indexOf('`', i + n)
  }
  if (runsByLength.size === 0) return []
  const cursor = new Map<number, number>()
  const spans: CodeSpan[] = []
  const escapes = options.escapes === true
  // Next backtick and backslash at or after `i`: searched again only once passed, so all the
  // searching together reads the text once (-1: none left).
  let nextTick = s.indexOf('`')
  let nextSlash = escapes ? s.indexOf('\\') : -1
  const seek = (ch: string, from: number): number => {
    const at = s.indexOf(ch, from)
    meter.steps += (at === -1 ? s.length : at) - from
    return at
  }
  let i = 0
  while (i < s.length) {
    meter.steps++
    const c = s.charCodeAt(i)
    if (escapes && c === 92) {
      i += 2
      continue
    }
    if (c !== 96) {
      if (nextTick < i) nextTick = seek('`', i)
      if (nextTick === -1) break
      if (nextSlash !== -1 && nextSlash < i) nextSlash = seek('\\', i)
      i = nextSlash !== -1 && nextSlash < nextTick ? nextSlash : nextTick
      continue
    }
    let n = 0
    while (s.charCodeAt(i + n) === 96) n++
    meter.steps += n
    const list = runsByLength.get(n)
    let k = cursor.get(n) ?? 0
    while (list !== undefined && k < list.length && list[k] < i + n) {
      k++
      meter.steps++
    }
    cursor.set(n, k)
    if (list === undefined || k >= list.length) {
      i += n
      continue
    }
    const close = list[k]
    spans.push({ start: i, end: close + n, contentStart: i + n, contentEnd: close })
    i = close + n
  }
  return spans
}

/**
 * Marks spans by the words just before them ("e.g.", "no") and, once one is marked, the spans
 * listed right after it (`` `a`, `b` or `c` ``: what `gap` allows, at most `maxGap` characters —
 * a long gap would let a `\s*…\s*` pattern backtrack). Call it once per span, in order.
 */
export function spanMarker(
  before: RegExp,
  gap: RegExp,
  maxGap: number,
): (source: string, span: CodeSpan) => boolean {
  let end = -1
  return (source, span) => {
    const marked =
      before.test(source.slice(Math.max(0, span.start - 40), span.start)) ||
      (end >= 0 && span.start - end <= maxGap && gap.test(source.slice(end, span.start)))
    end = marked ? span.end : -1
    return marked
  }
}

/**
 * Inline code that reads as a statement or expression rather than a name; a CSS custom
 * property set to a value (`--foreground: 0 0% 4%`) too (blind set BZ: a design token's value).
 */
export function looksLikeCode(s: string): boolean {
  if (/^--[a-z][\w-]*:\s*\S/.test(s)) return true
  if (s.length < 5 || /^-/.test(s)) return false
  if (/^[~.\w@-]*\/\S*$/.test(s) && !/[=(;]/.test(s)) return false // a path with placeholders
  if (!/[A-Za-z_]/.test(s)) return false
  return /[=;{}]|=>|->|\w\([^)]+\)|<\/?[A-Za-z][\w-]*[\s>/]/.test(s)
}
