/** Small text measures shared by every rule: lines, UTF-8 bytes, UTF-16 units. */

/** UTF-8 length of a JS string, without allocating a buffer. */
export function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) bytes += 1
    else if (c < 0x800) bytes += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4
        i++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

/**
 * Split text into lines the way an editor counts them: `\n` and `\r\n` each end a
 * line, and a final line break does not start an extra empty line (docs/memory-rules.md §2.3).
 */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split(/\r?\n/)
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** One line as on disk: its text without the break, and the break (`''` on a last line without one). */
export interface LineWithEnding {
  readonly content: string
  readonly eol: '' | '\n' | '\r\n'
}

/**
 * Split like {@link splitLines} (a lone `\r` is not a break), keeping each line's break, so the
 * lines can be joined back byte for byte.
 */
export function splitLinesWithEndings(text: string): LineWithEnding[] {
  const out: LineWithEnding[] = []
  let start = 0
  while (start < text.length) {
    const nl = text.indexOf('\n', start)
    if (nl === -1) {
      out.push({ content: text.slice(start), eol: '' })
      break
    }
    const crlf = nl > start && text.charCodeAt(nl - 1) === 13
    out.push({ content: text.slice(start, crlf ? nl - 1 : nl), eol: crlf ? '\r\n' : '\n' })
    start = nl + 1
  }
  return out
}

/** Number of lines as `splitLines` counts them. */
export function countLines(text: string): number {
  return splitLines(text).length
}

/** Remove a leading byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}
