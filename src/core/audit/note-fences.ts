/**
 * Fenced code blocks taken out of a note's text, offsets kept, so that the prose passes of
 * references.ts never read code as prose. The fence rule itself lives in markdown/strip.
 */
import { closesFence, openFence, type Fence as MdFence } from '../markdown/strip'

export interface Fence {
  readonly pos: number
  readonly lang: string
  readonly code: string
}

const LIST_ITEM_PREFIX = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?/

/** Take fenced code blocks out of the text (replaced by blank space, offsets kept). */
export function cutFences(text: string): { prose: string; fences: Fence[] } {
  const fences: Fence[] = []
  const lines = text.split(/(?<=\n)/)
  let out = ''
  let pos = 0
  let open: { fence: MdFence; lang: string; start: number; body: string } | null = null
  for (const line of lines) {
    const bare = line.replace(/\r?\n$/, '')
    if (!open) {
      // A fence may open inside a list item; the fence rule itself lives in markdown-strip.
      const rest = bare.slice(LIST_ITEM_PREFIX.exec(bare)![0].length)
      const fence = openFence(rest)
      if (fence) {
        const info = rest.trimStart().slice(fence.length)
        const lang = /^\s*([\w+-]*)/.exec(info)![1]
        open = { fence, lang: lang.toLowerCase(), start: pos, body: '' }
        out += blank(line)
      } else out += line
    } else {
      // One closing rule for every parser (markdown-strip). Never a RegExp built from
      // the marker: a fence of 100,000 backticks made V8's regexp compiler run out of memory.
      if (closesFence(bare, open.fence)) {
        fences.push({ pos: open.start, lang: open.lang, code: dedent(open.body) })
        open = null
      } else open.body += line
      out += blank(line)
    }
    pos += line.length
  }
  // An unclosed fence runs to the end (CommonMark).
  if (open) fences.push({ pos: open.start, lang: open.lang, code: dedent(open.body) })
  return { prose: out, fences }
}

function blank(line: string): string {
  return line.replace(/[^\n]/g, ' ')
}

function dedent(code: string): string {
  const lines = code.split('\n')
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length)
  const min = indents.length > 0 ? Math.min(...indents) : 0
  return min > 0
    ? lines.map((l) => l.slice(Math.min(min, /^[ \t]*/.exec(l)![0].length))).join('\n')
    : code
}
