/**
 * Splitting memory and instruction files into notes, the unit an audit judges
 * (docs/cli.md §7 `audit`): an index entry of `MEMORY.md` with the topic file it
 * links, a topic file no entry links, or one list item / paragraph of an
 * instruction file. Line numbers are 1-based lines on disk.
 */
import { parseFrontmatter } from '../markdown/frontmatter'
import { closesFence, openFence } from '../markdown/strip'
import { parseIndexEntries, resolveIndexTarget } from './index-entries'
import { splitLines, stripBom } from '../text'
import { MEMORY_INDEX_NAME } from './cutoff'
import { withoutMemoryLinks } from './memory-links'

export type NoteKind = 'index-entry' | 'topic' | 'index-text' | 'instruction'

export interface Note {
  readonly kind: NoteKind
  /** The file `line`/`endLine` point into (MEMORY.md for an index entry). */
  readonly file: string
  readonly line: number
  readonly endLine: number
  readonly title: string
  /** What a person reads: the entry line and the topic body, or the block's lines. */
  readonly text: string
  /** The markdown searched for references (link targets to topic files left out). */
  readonly checkText: string
  /** The topic file the note includes, when there is one. */
  readonly topicFile: string | null
  /** An index entry's link target as written, when it names a topic file that is not there. */
  readonly danglingTarget: string | null
  /** First line of the topic body (after frontmatter), for provenance look-ups. */
  readonly bodyLine: number
  /** The topic file's frontmatter mapping, when it has one. */
  readonly frontmatter: Readonly<Record<string, unknown>> | null
}

/** A topic file of a memory folder. */
export interface TopicText {
  /** Path relative to the memory folder, `/`-separated (`sub/x.md`). */
  readonly name: string
  /** Absolute path. */
  readonly path: string
  readonly text: string
}

export interface MemoryTexts {
  readonly indexPath: string
  /** The index text, or null when `MEMORY.md` is missing or unreadable. */
  readonly indexText: string | null
  readonly topics: readonly TopicText[]
}

const TITLE_MAX = 80

/** Notes of a memory folder: index entries with their topics, free index text, orphan topics. */
export function notesFromMemory(input: MemoryTexts): Note[] {
  const notes: Note[] = []
  const byName = new Map(input.topics.map((t) => [t.name, t]))
  // The folder's own note files: a link or mention of one is not a claim about the code.
  const own = new Set([MEMORY_INDEX_NAME, ...byName.keys()])
  const folderOf = (name: string): string => name.slice(0, Math.max(0, name.lastIndexOf('/')))
  const linked = new Set<string>()
  // Each topic is read once, however many entries link it (hostile input: 5,000 entries
  // linking one 100 KB topic were 5,000 parses, about a minute).
  const parsed = new Map<string, TopicParts>()
  const checked = new Map<string, string>()
  const partsOf = (t: TopicText): TopicParts => {
    let parts = parsed.get(t.name)
    if (!parts) parsed.set(t.name, (parts = topicParts(t.text)))
    return parts
  }
  const topicCheckText = (t: TopicText, parts: TopicParts): string => {
    let text = checked.get(t.name)
    if (text === undefined)
      checked.set(
        t.name,
        (text = withoutMemoryLinks(`${parts.description}\n\n${parts.body}`, own, folderOf(t.name))),
      )
    return text
  }
  if (input.indexText !== null) {
    const text = stripBom(input.indexText)
    const lines = splitLines(text)
    const fm = parseFrontmatter(text)
    const skip = fm.kind === 'ok' || fm.kind === 'error' ? fm.lineCount : 0
    // Blank out frontmatter so YAML list items are not read as entries; line numbers stay.
    const body = lines.map((l, i) => (i < skip ? '' : l)).join('\n')
    const entries = parseIndexEntries(body)
    const entryLines = new Set(entries.map((e) => e.line))
    for (const e of entries) {
      const name = e.target === null ? null : resolveIndexTarget(e.target)
      const topic = name === null ? undefined : byName.get(name)
      if (topic) linked.add(topic.name)
      const endLine = continuationEnd(lines, e.line, entryLines)
      // The entry's indented continuation lines are part of it: their references count and a
      // stamp sees them change (every feature reads the same note, issue 12 item 7).
      const entryText = lines.slice(e.line - 1, endLine).join('\n')
      const more = lines.slice(e.line, endLine).join('\n')
      // The checked text keeps the whole line: the 80-character title is for display only.
      const head = `${linkLabels(e.title)} ${e.hook}`.trim() + (more === '' ? '' : `\n\n${more}`)
      const parts = topic ? partsOf(topic) : null
      // The entry's own link names a topic file of this folder (docs/memory-rules.md §2.6);
      // missing, it is a dangling entry (§2.7), never a path of the repository to look up.
      const dangling = e.target !== null && name !== null && !topic ? e.target : null
      const ownLinks =
        dangling !== null && name !== null && /\.md$/i.test(name) ? new Set([...own, name]) : own
      notes.push({
        kind: 'index-entry',
        file: input.indexPath,
        line: e.line,
        endLine,
        title: plainTitle(e.title) || `line ${e.line}`,
        text: parts ? `${entryText}\n\n${parts.body}` : entryText,
        checkText:
          withoutMemoryLinks(head, ownLinks, '') +
          (parts && topic ? `\n\n${topicCheckText(topic, parts)}` : ''),
        topicFile: topic ? topic.path : null,
        danglingTarget: dangling,
        bodyLine: parts ? parts.bodyLine : e.line,
        frontmatter: parts ? parts.frontmatter : null,
      })
    }
    // Paragraphs of the index that are not entries are notes of their own.
    for (const b of splitBlocks(text)) {
      let hasEntry = false
      for (let l = b.line; l <= b.endLine && !hasEntry; l++) hasEntry = entryLines.has(l)
      if (hasEntry) continue
      const note = blockNote('index-text', input.indexPath, b)
      notes.push({ ...note, checkText: withoutMemoryLinks(note.checkText, own, '') })
    }
  }
  for (const t of input.topics) {
    if (linked.has(t.name)) continue
    const parts = partsOf(t)
    const name =
      parts.frontmatter && typeof parts.frontmatter.name === 'string' ? parts.frontmatter.name : ''
    notes.push({
      kind: 'topic',
      file: t.path,
      line: 1,
      endLine: Math.max(1, splitLines(stripBom(t.text)).length),
      title: name.trim() || t.name,
      text: stripBom(t.text),
      checkText: topicCheckText(t, parts),
      topicFile: t.path,
      danglingTarget: null,
      bodyLine: parts.bodyLine,
      frontmatter: parts.frontmatter,
    })
  }
  notes.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1))
  return notes
}

/**
 * Last line of the index entry on line `line`: indented, non-blank lines right below belong to
 * it, up to the next entry (a nested item is a note of its own, so no two notes share a line).
 */
function continuationEnd(
  lines: readonly string[],
  line: number,
  entryLines: ReadonlySet<number>,
): number {
  let end = line
  while (end < lines.length && /^[ \t]/.test(lines[end]) && lines[end].trim() !== '') {
    if (entryLines.has(end + 1)) break
    end++
  }
  return end
}

/** Notes of an instruction file (CLAUDE.md, AGENTS.md, rules): one per list item or paragraph. */
export function notesFromInstructionFile(path: string, text: string): Note[] {
  return splitBlocks(stripBom(text)).map((b) => blockNote('instruction', path, b))
}

interface TopicParts {
  readonly body: string
  readonly bodyLine: number
  readonly description: string
  readonly frontmatter: Readonly<Record<string, unknown>> | null
}

function topicParts(raw: string): TopicParts {
  const text = stripBom(raw)
  const fm = parseFrontmatter(text)
  if (fm.kind === 'ok' || fm.kind === 'error') {
    const description =
      fm.kind === 'ok' && typeof fm.data.description === 'string' ? fm.data.description : ''
    return {
      body: text.slice(fm.length),
      bodyLine: fm.lineCount + 1,
      description,
      frontmatter: fm.kind === 'ok' ? fm.data : null,
    }
  }
  return { body: text, bodyLine: 1, description: '', frontmatter: null }
}

/** A block of an instruction file: a list item or paragraph, with code that follows it. */
export interface Block {
  readonly line: number
  readonly endLine: number
  /** The lines on disk. */
  readonly lines: readonly string[]
  /** The same lines with indented code turned into fenced code, for reference extraction. */
  readonly checkLines: readonly string[]
}

interface OpenBlock {
  line: number
  endLine: number
  lines: string[]
  checkLines: string[]
  item: boolean
}

const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\S/
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/
const BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/

/**
 * Split markdown into list items and paragraphs. Headings, breaks, frontmatter and
 * block comments are not notes; a code block joins the item or paragraph just
 * before it (a command under "Run tests like this:" belongs to that sentence).
 */
export function splitBlocks(raw: string): Block[] {
  const text = stripBom(raw)
  const lines = splitLines(text)
  const fm = parseFrontmatter(text)
  const start = fm.kind === 'ok' || fm.kind === 'error' ? fm.lineCount : 0
  const blocks: OpenBlock[] = []
  let current: OpenBlock | null = null
  /** The block code may still attach to (only blank lines since). */
  let last: OpenBlock | null = null
  const begin = (i: number, item: boolean): OpenBlock => {
    const b: OpenBlock = { line: i + 1, endLine: i + 1, lines: [], checkLines: [], item }
    blocks.push(b)
    return b
  }
  const add = (b: OpenBlock, i: number, line: string, check = line): void => {
    // Keep blank lines between parts of a block so its text reads as on disk.
    for (let k = b.endLine + 1; k <= i && b.lines.length > 0; k++) {
      b.lines.push('')
      b.checkLines.push('')
    }
    b.lines.push(line)
    b.checkLines.push(check)
    b.endLine = i + 1
  }
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]
    if (/^ {0,3}<!--/.test(line)) {
      // A block comment is skipped to its end (docs/memory-rules.md §3.9: stripped before loading).
      let j = i
      const afterOpen = line.slice(line.indexOf('<!--') + 4)
      if (!afterOpen.includes('-->')) {
        j = i + 1
        while (j < lines.length && !lines[j].includes('-->')) j++
        if (j >= lines.length) j = i // unclosed: treat the line as text
      }
      if (j !== i || afterOpen.includes('-->')) {
        i = j
        current = null
        continue
      }
    }
    const fence = openFence(line)
    if (fence) {
      let j = i + 1
      while (j < lines.length && !closesFence(lines[j], fence)) j++
      const end = Math.min(j, lines.length - 1)
      const host: OpenBlock = current ?? last ?? begin(i, false)
      for (let k = i; k <= end; k++) add(host, k, lines[k])
      i = end
      last = host
      current = null
      continue
    }
    if (line.trim() === '') {
      if (current) last = current
      current = null
      continue
    }
    if (HEADING.test(line) || BREAK.test(line) || (current && !current.item && SETEXT.test(line))) {
      if (current && SETEXT.test(line) && !BREAK.test(line)) {
        // A setext underline makes the paragraph above a heading: not a note.
        blocks.splice(blocks.indexOf(current), 1)
      }
      current = null
      last = null
      continue
    }
    const indented = /^(?: {4}|\t)/.test(line)
    if (LIST_ITEM.test(line) && !(indented && current && !current.item)) {
      current = begin(i, true)
      add(current, i, line)
      last = current
      continue
    }
    if (!current && indented && last) {
      if (last.item) {
        // A loose list item continues after a blank line when indented.
        current = last
        add(current, i, line)
      } else {
        // Indented code after a paragraph: keep it with the paragraph, fenced for extraction.
        let j = i
        const code: string[] = []
        while (j < lines.length && (/^(?: {4}|\t)/.test(lines[j]) || lines[j].trim() === '')) {
          code.push(lines[j])
          j++
        }
        while (code.length > 0 && code[code.length - 1].trim() === '') code.pop()
        add(last, i, code[0], '```\n' + code[0].replace(/^(?: {4}|\t)/, ''))
        for (let k = 1; k < code.length; k++)
          add(last, i + k, code[k], code[k].replace(/^(?: {4}|\t)/, ''))
        last.checkLines[last.checkLines.length - 1] += '\n```'
        i = i + code.length - 1
      }
      continue
    }
    if (!current) current = begin(i, false)
    add(current, i, line)
  }
  return blocks
    .filter((b) => b.lines.some((l) => l.trim() !== ''))
    .map((b) => ({ line: b.line, endLine: b.endLine, lines: b.lines, checkLines: b.checkLines }))
}

function blockNote(kind: NoteKind, file: string, b: Block): Note {
  return {
    kind,
    file,
    line: b.line,
    endLine: b.endLine,
    title: blockTitle(b.lines),
    text: b.lines.join('\n'),
    checkText: b.checkLines.join('\n'),
    topicFile: null,
    danglingTarget: null,
    bodyLine: b.line,
    frontmatter: null,
  }
}

function blockTitle(lines: readonly string[]): string {
  const first = lines.find((l) => l.trim() !== '' && !/^\s*(`{3,}|~{3,})/.test(l)) ?? lines[0] ?? ''
  return plainTitle(first.replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/, ''))
}

/** One line of markdown as plain text, cut to a title's length. */
/** Text with links replaced by their labels and emphasis markers dropped, whole. */
function linkLabels(s: string): string {
  // Labels stop at `[`, targets at `(`: linear time on `[[[[…` (issue 8, bad input).
  return s
    .replace(/!?\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim()
}

/** A title to show: `linkLabels`, cut to TITLE_MAX characters. */
function plainTitle(s: string): string {
  const plain = linkLabels(s)
  return plain.length > TITLE_MAX ? `${plain.slice(0, TITLE_MAX - 1)}…` : plain
}
