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

/**
 * One entry of a tree: a name, `name/` for a folder (a route's `[id]/` and `(auth)/` too); after
 * it a comment (`# …`, `// …`, `- …`, `(…)`, or anything two spaces on), or a `#` comment right
 * after a folder's slash (`claude-plugin/# hooks`, aligned to the column; blind set DW).
 */
const TREE_ENTRY_RE =
  /^([\p{L}\p{N}_.@+*[(-][\p{L}\p{N}_.@+*[\]()-]*(?:\/[\p{L}\p{N}_.@+*[\]()-]+)*\/?)(?:\s{2,}\S.*|\s+(?:#|\/\/|<-|--|[-\u2013\u2014:(]).*|(?<=\/)#.*)?$/u

/** Files a tree lists on one line (`auth.test.ts, client.test.ts`; blind set BK). */
const TREE_FILES_RE =
  /^[\p{L}\p{N}_.@+-]+\.[\p{L}\p{N}]+(?:,\s*[\p{L}\p{N}_.@+-]+\.[\p{L}\p{N}]+)+,?$/u

/** Two files of a tree given as alternatives on one line, and the line's comment. */
const TREE_ALTERNATIVES_RE =
  /^([\p{L}\p{N}_.@+-]+\.[\p{L}\p{N}]+)\s+\/\s+([\p{L}\p{N}_.@+-]+\.[\p{L}\p{N}]+)(\s{2,}\S.*|\s+#.*)?$/u

/** Box-drawing and arrow characters, which a drawn tree indents with. */
export const DIAGRAM_CHARS_RE = /[\u2190-\u21ff\u2500-\u257f]/g
/** Whether a text holds a drawing's characters (a tree, boxes, arrows). */
export const DIAGRAM_RE = new RegExp(DIAGRAM_CHARS_RE.source)

/**
 * The paths a fenced block lists when it draws a folder tree, by indentation or with box
 * characters (read as the indentation they stand for): every line an entry or a comment, at
 * least three entries, one of them a folder. `src/` then `  app/` under it gives `src/` and
 * `src/app/`. A tree under one top folder (`my-project/`, often the repository's own name) gives
 * its entries below that folder, as partial paths, and that folder as `top`. Null for any other block: quoted code is not
 * a tree (set A: a layout block read as code was called stale for its `src/` line).
 */
export function treeListing(code: string): {
  readonly paths: string[]
  readonly top: string | null
  /** Each entry's comment (`Doctrine entities (10)`), '' for none, in the order of `paths`. */
  readonly comments: string[]
} | null {
  const stack: { indent: number; name: string }[] = []
  const out: { path: string; top: boolean; comment: string }[] = []
  let folders = 0
  for (const line of code.replace(DIAGRAM_CHARS_RE, ' ').split(/\r?\n/)) {
    const body = line.trim()
    // A comment line, or a remark in parentheses (`(config tests are here)`).
    if (body === '' || body.startsWith('#') || body.startsWith('//') || /^\(.*\)$/.test(body))
      continue
    const indent = /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop()
    const parent = stack.length > 0 ? stack[stack.length - 1].name : ''
    // A name under a file is no child of it: the block is not a tree.
    if (parent !== '' && !parent.endsWith('/')) return null
    if (TREE_FILES_RE.test(body)) {
      for (const f of body
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== ''))
        out.push({ path: parent + f, top: parent === '', comment: '' })
      continue
    }
    // Two files on one line as alternatives (`worker.mjs / agent-edge.mjs  # generated`; set CD).
    const alt = TREE_ALTERNATIVES_RE.exec(body)
    if (alt) {
      for (const f of [alt[1], alt[2]])
        out.push({ path: parent + f, top: parent === '', comment: (alt[3] ?? '').trim() })
      continue
    }
    const m = TREE_ENTRY_RE.exec(body)
    if (!m) return null
    const path = parent + m[1]
    out.push({ path, top: parent === '', comment: body.slice(m[1].length).trim() })
    if (m[1].endsWith('/')) folders++
    stack.push({ indent, name: path })
  }
  // A tree's few lines (a note that is one line of a longer tree; blind sets DU, DW): folders,
  // each with its comment (`auth/   # auth-schema store`), which no quoted code looks like.
  const fewFolders = out.length > 0 && out.every((e) => e.path.endsWith('/') && e.comment !== '')
  if ((out.length < 3 || folders === 0) && !fewFolders) return null
  const tops = out.filter((e) => e.top)
  if (tops.length === 1 && tops[0].path.endsWith('/') && out[0] === tops[0] && out.length > 1) {
    const root = tops[0].path
    const below = out.slice(1)
    return {
      paths: below.map((e) => e.path.slice(root.length)),
      top: root,
      comments: below.map((e) => e.comment),
    }
  }
  return { paths: out.map((e) => e.path), top: null, comments: out.map((e) => e.comment) }
}

/** A comment that marks the right way (`// ✅ Correct`, `# Good`). */
const RIGHT_WAY_RE = /[\u2705\u2714]|(?:\/\/|#|--|\/\*|<!--)\s*(?:good|correct|right|preferred)\b/i
/** A comment that marks the wrong way (`// ❌ Wrong`, `# Bad`, `// Don't`). */
const WRONG_WAY_RE =
  /[\u274c\u2717\u2718\u{1f6ab}]|(?:\/\/|#|--|\/\*|<!--)\s*(?:bad|wrong|incorrect|don'?t|avoid)\b/iu

/**
 * A block that shows a right and a wrong way (`// ✅ Correct — module scope` … `// ❌ Wrong —
 * inner component`): a style rule's example, not code to find. Its names illustrate the rule;
 * one the code dropped since says nothing of it (blind set EX vj-r06: `CustomTooltip`, in the
 * code when the note was written, read as gone).
 */
export function isStylePair(code: string): boolean {
  return RIGHT_WAY_RE.test(code) && WRONG_WAY_RE.test(code)
}
