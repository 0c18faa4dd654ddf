/** Framing of `serve`'s event stream, kept free of the DOM so it is testable under Node. */

/** The `data:` payloads of the complete events in `buffer`, and the unfinished rest (SSE framing as `serve` writes it: `\n` line ends). */
export function takeEvents(buffer: string): { readonly data: string[]; readonly rest: string } {
  const blocks = buffer.split('\n\n')
  const rest = blocks.pop() ?? ''
  const data: string[] = []
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.startsWith('data:'))
    if (lines.length > 0)
      data.push(lines.map((l) => l.slice(l.startsWith('data: ') ? 6 : 5)).join('\n'))
  }
  return { data, rest }
}
