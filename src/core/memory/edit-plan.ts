/**
 * Edit plans for memory files, as pure functions over the texts read: move an entry
 * above the load cutoff, delete an entry (and its topic file), extract an entry's detail
 * into a new topic file, replace text in a note. Nothing here writes; every planned
 * change carries the hash of the text it was computed from, so applying it is a
 * compare-and-swap (src/node/edits/edit-actions.ts).
 *
 * Lines are 1-based lines on disk as `splitLines` counts them. Each kept line keeps its
 * own break (`\n` or `\r\n`); moved or new lines take the file's first break, and the
 * file's final-newline state is kept.
 */
import { stringify } from 'yaml'
import { computeCutoff, loadedHead } from './cutoff'
import { closesFence, openFence, stripForLoading, type Fence } from '../markdown/strip'
import { parseIndexEntries, resolveIndexTarget } from './index-entries'
import type { EditPlan, PlannedChange } from '../../shared/model'
import { splitLinesWithEndings } from '../text'

/** A file read for editing: its text and the hash of its bytes on disk. */
export interface EditSource {
  readonly path: string
  readonly text: string
  readonly hash: string
}

/** One index entry located on disk, with the lines that belong to it. */
export interface IndexEntryAt {
  readonly line: number
  /** Last line of the entry: its indented continuation lines included. */
  readonly endLine: number
  readonly title: string
  readonly target: string | null
  readonly hook: string
  /** The topic file the link names, relative to the memory folder; null when none. */
  readonly topicName: string | null
  /** Indentation, bullet and spaces before the item text (`- `, `  * `, `1. `). */
  readonly prefix: string
  /** The continuation lines as on disk (lines `line + 1` … `endLine`). */
  readonly continuation: readonly string[]
}

/** A topic file an edit touches, as read: null `current` when it does not exist. */
export interface TopicFileState {
  /** Relative to the memory folder, as the index links it. */
  readonly name: string
  readonly path: string
  readonly current: { readonly text: string; readonly hash: string } | null
  /** Why `current` is null, when it is not simply missing. */
  readonly reason?: string
}

/** Lines of a file a replacement may touch (1-based, inclusive). */
export interface ReplaceRegion {
  readonly source: EditSource
  readonly startLine: number
  readonly endLine: number
}

/** Longest hook kept on an index line after extracting (our own choice, not an agent limit). */
const SHORT_HOOK_MAX = 120
/** Longest quote of a line in a plan's title. */
const TITLE_QUOTE_MAX = 60
/** Pushed-out lines named one by one in a plan's title. */
const TITLE_LINES_MAX = 3

const ITEM_PREFIX = /^([ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\S/
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/

// ---- lines as on disk ------------------------------------------------------------------

interface DiskLine {
  readonly content: string
  /** `\n`, `\r\n`, or '' on a last line without a break. */
  readonly eol: string
}

interface Layout {
  readonly lines: readonly DiskLine[]
  /** The break new or moved lines get: the file's first, else `\n`. */
  readonly eol: string
  readonly finalNewline: boolean
}

/** Split like `splitLines` (a lone `\r` is not a break), keeping each line's break. */
function layoutOf(text: string): Layout {
  const lines: DiskLine[] = splitLinesWithEndings(text)
  const first = lines.find((l) => l.eol !== '')
  return {
    lines,
    eol: first ? first.eol : '\n',
    finalNewline: lines.length > 0 && lines[lines.length - 1].eol !== '',
  }
}

/** Join lines back: every line but the last ends with a break; the last as the file did. */
function render(lines: readonly DiskLine[], layout: Layout): string {
  let out = ''
  lines.forEach((l, i) => {
    const last = i === lines.length - 1
    const eol = l.eol === '' ? layout.eol : l.eol
    out += l.content + (last && !layout.finalNewline ? '' : eol)
  })
  return out
}

// ---- entries ---------------------------------------------------------------------------

/** The index's entries with disk line numbers, frontmatter and block comments left out (§2). */
function diskEntries(
  text: string,
): { line: number; title: string; target: string | null; hook: string }[] {
  const stripped = stripForLoading(text)
  return parseIndexEntries(stripped.text).map((e) => ({ ...e, line: stripped.lineMap[e.line - 1] }))
}

/** Disk lines that sit inside a fenced code block (after the opening fence, through the closing one). */
function fencedLines(lines: readonly DiskLine[]): Set<number> {
  const inside = new Set<number>()
  let fence: Fence | null = null
  lines.forEach((l, i) => {
    if (fence) {
      inside.add(i + 1)
      if (closesFence(l.content, fence)) fence = null
    } else fence = openFence(l.content)
  })
  return inside
}

const isIndented = (s: string): boolean => /^[ \t]/.test(s) && s.trim() !== ''

/** The entry whose item starts on disk line `line`, with its indented continuation lines. */
export function findIndexEntry(text: string, line: number): IndexEntryAt | null {
  const entries = diskEntries(text)
  const entry = entries.find((e) => e.line === line)
  if (!entry) return null
  const { lines } = layoutOf(text)
  const prefix = ITEM_PREFIX.exec(lines[line - 1]?.content ?? '')
  if (!prefix) return null
  const linked = new Set(entries.filter((e) => e.target !== null).map((e) => e.line))
  let end = line
  // Indented, non-blank lines right below belong to the entry, unless they are entries with a
  // link of their own (a nested index entry).
  while (end < lines.length && isIndented(lines[end].content) && !linked.has(end + 1)) end++
  return {
    line,
    endLine: end,
    title: entry.title,
    target: entry.target,
    hook: entry.hook,
    topicName: entry.target === null ? null : topicNameOf(entry.target),
    prefix: prefix[1],
    continuation: lines.slice(line, end).map((l) => l.content),
  }
}

/** The markdown topic file a link target names in the memory folder, or null. */
function topicNameOf(target: string): string | null {
  const name = resolveIndexTarget(target)
  return name !== null && name.toLowerCase().endsWith('.md') ? name : null
}

// ---- plans -----------------------------------------------------------------------------

function failed(title: string, path: string, reason: string): EditPlan {
  return { title, changes: [], problems: [{ path, reason }] }
}

function quote(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim()
  return `“${t.length > TITLE_QUOTE_MAX ? `${t.slice(0, TITLE_QUOTE_MAX - 1)}…` : t}”`
}

function linesLabel(from: number, to: number): string {
  return from === to ? `line ${from}` : `lines ${from}–${to}`
}

/**
 * Move the entry at `line` (with its continuation lines) up to the last position that
 * loads at session start (memory-facts §2), so it loads; the title names any line the
 * move pushes below the cutoff. An entry that already loads is a problem, not a plan.
 */
export function planMoveEntryAboveCutoff(index: EditSource, line: number): EditPlan {
  const entry = findIndexEntry(index.text, line)
  if (!entry) {
    return failed(
      'Move an entry above the load cutoff',
      index.path,
      `line ${line} is not an index entry`,
    )
  }
  const title = `Move ${quote(entry.title)} above the load cutoff`
  const stripped = stripForLoading(index.text)
  const head = loadedHead(stripped.lines)
  const block: number[] = []
  const rest: number[] = []
  stripped.lineMap.forEach((d, i) => (d >= entry.line && d <= entry.endLine ? block : rest).push(i))
  if (block[0] < head.lines) {
    const reason =
      head.lines === stripped.lines.length
        ? 'it already loads at session start: the whole file is within the limits'
        : `it already loads at session start (the cutoff is at line ${stripped.lineMap[head.lines]})`
    return failed(title, index.path, reason)
  }
  const layout = layoutOf(index.text)
  const fenced = fencedLines(layout.lines)
  const entries = new Map(diskEntries(index.text).map((e) => [e.line, e]))
  const blockLen = entry.endLine - entry.line + 1
  // Try the lowest position first: just above the first unloaded line, then one higher, …
  for (let k = Math.min(head.lines, rest.length - 1); k >= 0; k--) {
    const before = stripped.lineMap[rest[k]]
    // Never inside a code block or between another entry and its continuation lines.
    // Nor inside a block comment (a kept line whose start was stripped).
    const disk = layout.lines[before - 1].content
    if (
      before > entry.line ||
      fenced.has(before) ||
      isIndented(disk) ||
      disk !== stripped.lines[rest[k]]
    ) {
      continue
    }
    const candidate = [...rest.slice(0, k), ...block, ...rest.slice(k, head.lines + 1)]
    if (loadedHead(candidate.map((i) => stripped.lines[i])).lines < k + block.length) continue

    const origin = layout.lines.map((_, i) => i + 1)
    const moved = origin.slice(entry.line - 1, entry.endLine)
    const kept = origin.filter((n) => n < entry.line || n > entry.endLine)
    const at = before - 1 // `before` is above the entry, so its index is unchanged by the removal
    const order = [...kept.slice(0, at), ...moved, ...kept.slice(at)]
    const after = render(
      order.map((n) => layout.lines[n - 1]),
      layout,
    )
    const check = computeCutoff({ file: index.path, text: after, totalBytes: 0, topicFiles: [] })
    if (!check.entries.some((e) => e.line === before && e.loaded)) continue

    // Lines that loaded before and do not now.
    const newStripped = stripForLoading(after)
    const newHead = loadedHead(newStripped.lines)
    const nowLoaded = new Set(newStripped.lineMap.slice(0, newHead.lines).map((d) => order[d - 1]))
    const newLineOf = new Map(order.map((n, i) => [n, i + 1]))
    const pushed = stripped.lineMap.slice(0, head.lines).filter((d) => !nowLoaded.has(d))
    const describe = (d: number): string => {
      const content = layout.lines[d - 1].content
      const e = entries.get(d)
      const what =
        content.trim() === ''
          ? 'a blank line'
          : e
            ? quote(e.title)
            : HEADING.test(content)
              ? `the heading ${quote(content.replace(/^ {0,3}#+[ \t]*/, ''))}`
              : quote(content)
      return `${what} (now line ${newLineOf.get(d)})`
    }
    let suffix = ''
    if (pushed.length > 0) {
      const named = pushed.slice(0, TITLE_LINES_MAX).map(describe)
      const more = pushed.length - named.length
      const list =
        more > 0
          ? `${named.join(', ')} and ${more} more line${more === 1 ? '' : 's'}`
          : joinAnd(named)
      suffix = `; ${list} ${pushed.length === 1 ? 'falls' : 'fall'} below it`
    }
    const moves = `${linesLabel(entry.line, entry.endLine)} to ${linesLabel(before, before + blockLen - 1)}`
    return {
      title: `${title} (${moves})${suffix}`,
      changes: [{ path: index.path, expectedHash: index.hash, before: index.text, after }],
      problems: [],
    }
  }
  return failed(
    title,
    index.path,
    'there is no position above the cutoff where the whole entry loads: it is too long',
  )
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

/** `lines` without disk lines from…to. */
function withoutLines(layout: Layout, from: number, to: number): string {
  return render(
    layout.lines.filter((_, i) => i + 1 < from || i + 1 > to),
    layout,
  )
}

/**
 * Remove the entry at `line` (and its continuation lines). With `deleteTopic`, also plan
 * deleting the topic file it links — `topic` is that file as read — unless another
 * entry links it too or it does not exist; each of those is a problem that says why.
 */
export function planDeleteEntry(
  index: EditSource,
  line: number,
  deleteTopic: boolean,
  topic: TopicFileState | null,
): EditPlan {
  const entry = findIndexEntry(index.text, line)
  if (!entry)
    return failed('Delete an index entry', index.path, `line ${line} is not an index entry`)
  const layout = layoutOf(index.text)
  const changes: PlannedChange[] = [
    {
      path: index.path,
      expectedHash: index.hash,
      before: index.text,
      after: withoutLines(layout, entry.line, entry.endLine),
    },
  ]
  const problems: { path: string; reason: string }[] = []
  let title = `Delete the entry ${quote(entry.title)} (${linesLabel(entry.line, entry.endLine)})`
  if (deleteTopic) {
    const name = entry.topicName
    const others =
      name === null
        ? []
        : diskEntries(index.text).filter(
            (e) => e.line !== entry.line && e.target !== null && topicNameOf(e.target) === name,
          )
    if (name === null) {
      problems.push({
        path: index.path,
        reason: `the entry on line ${line} links no topic file, so none is deleted`,
      })
    } else if (others.length > 0) {
      const by = others.map((e) => `${quote(e.title)} (line ${e.line})`)
      problems.push({
        path: topic?.path ?? name,
        reason: `the topic file ${name} is also linked by ${joinAnd(by)}, so it is kept`,
      })
    } else if (topic === null || topic.current === null) {
      problems.push({
        path: topic?.path ?? name,
        reason: `the topic file ${name} ${topic?.reason ?? 'does not exist'}, so there is nothing to delete`,
      })
    } else {
      changes.push({
        path: topic.path,
        expectedHash: topic.current.hash,
        before: topic.current.text,
        after: null,
      })
      title += ` and its topic file ${name}`
    }
  }
  return { title, changes, problems }
}

/** Why `name` cannot be a new topic file, or null when it can. */
export function topicNameProblem(name: string): string | null {
  if (!name.endsWith('.md')) return `the topic file name ${JSON.stringify(name)} must end in .md`
  if (/[/\\]/.test(name))
    return `the topic file name ${JSON.stringify(name)} must be a plain file name, without folders`
  if (name.startsWith('.') || name.trim() !== name || name === '.md') {
    return `the topic file name ${JSON.stringify(name)} must not be hidden or start or end with spaces`
  }
  if (name.toLowerCase() === 'memory.md') return 'MEMORY.md is the index itself, not a topic file'
  return null
}

/** The first sentence of `text` on one line, cut at a word to at most SHORT_HOOK_MAX characters. */
export function shortHook(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim()
  const end = /[.!?](?=\s|$)/.exec(t)
  const s = end ? t.slice(0, end.index + 1) : t
  if (s.length <= SHORT_HOOK_MAX) return s
  let cut = s.slice(0, SHORT_HOOK_MAX - 1)
  const space = cut.lastIndexOf(' ')
  if (space > SHORT_HOOK_MAX / 2) cut = cut.slice(0, space)
  // Do not leave a code span open.
  if ((cut.match(/`/g) ?? []).length % 2 === 1) cut = cut.slice(0, cut.lastIndexOf('`'))
  return `${cut.trimEnd()}…`
}

/** A title from a file name: `build-setup.md` → `Build setup`. */
function titleFromName(name: string): string {
  const stem = name.replace(/\.md$/, '').replace(/[-_]+/g, ' ').trim()
  return stem === '' ? name : stem[0].toUpperCase() + stem.slice(1)
}

/** Remove the indentation all non-blank lines share. */
function dedent(lines: readonly string[]): string[] {
  const widths = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0)
  const min = widths.length > 0 ? Math.min(...widths) : 0
  return lines.map((l) => l.slice(Math.min(min, /^[ \t]*/.exec(l)?.[0].length ?? 0)))
}

/**
 * Move the detail of the entry at `line` — its hook and indented continuation lines — into
 * a new topic file (frontmatter `name`, `description`, `type: project`, memory-facts §2
 * "Index format"), leaving `- [Title](topic.md) — <first sentence of the hook>`.
 */
export function planExtractToTopic(
  index: EditSource,
  line: number,
  topic: { readonly name: string; readonly path: string; readonly exists: boolean },
): EditPlan {
  const entry = findIndexEntry(index.text, line)
  if (!entry)
    return failed(
      'Extract an entry to a topic file',
      index.path,
      `line ${line} is not an index entry`,
    )
  const badName = topicNameProblem(topic.name)
  const title = `Extract ${quote(entry.title)} to ${topic.name}`
  if (badName) return failed(title, topic.path, badName)
  if (topic.exists)
    return failed(title, topic.path, `${topic.name} already exists; choose another name`)
  if (entry.topicName !== null) {
    return failed(
      title,
      index.path,
      `the entry already links the topic file ${entry.topicName}; edit that file instead`,
    )
  }
  // An item without a link is all hook: its text moves and the title comes from the file name.
  const linkless = entry.target === null
  const name = linkless ? titleFromName(topic.name) : entry.title
  const lead = linkless ? entry.title : entry.hook
  const more = dedent(entry.continuation)
  if (lead.trim() === '' && more.every((l) => l.trim() === '')) {
    return failed(
      title,
      index.path,
      'the entry has no text after its link to move into a topic file',
    )
  }
  const body: string[] = []
  if (!linkless) body.push(`[${entry.title}](${entry.target})`, '')
  if (lead.trim() !== '') body.push(lead.trim())
  body.push(...more)
  const short = shortHook(lead.trim() !== '' ? lead : (more.find((l) => l.trim() !== '') ?? ''))

  const layout = layoutOf(index.text)
  const yaml = stringify({ name, description: short, type: 'project' }, { lineWidth: 0 })
  const topicLines = ['---', ...yaml.replace(/\n$/, '').split('\n'), '---', '', ...body]
  const topicText = topicLines.join(layout.eol) + layout.eol

  const dest = /[\s()<>]/.test(topic.name) ? `<${topic.name}>` : topic.name
  const indexLine = `${entry.prefix}[${name}](${dest})${short === '' ? '' : ` — ${short}`}`
  const lines = layout.lines.flatMap((l, i) =>
    i + 1 === entry.line
      ? [{ content: indexLine, eol: l.eol }]
      : i + 1 > entry.line && i + 1 <= entry.endLine
        ? []
        : [l],
  )
  return {
    title,
    changes: [
      {
        path: index.path,
        expectedHash: index.hash,
        before: index.text,
        after: render(lines, layout),
      },
      { path: topic.path, expectedHash: null, before: null, after: topicText },
    ],
    problems: [],
  }
}

/**
 * Replace every `from` with `to` in the given lines of each file (a note's index lines
 * and its topic file, or an instruction file's paragraph). Works within lines, so `from`
 * may not span a line break; each file keeps its line breaks.
 */
export function planReplaceText(
  regions: readonly ReplaceRegion[],
  from: string,
  to: string,
  noteTitle: string,
): EditPlan {
  const title = `Replace ${quote(from)} with ${quote(to)} in ${quote(noteTitle)}`
  const where = regions[0]?.source.path ?? ''
  if (from === '') return failed(title, where, 'the text to replace is empty')
  if (/[\r\n]/.test(from) || /[\r\n]/.test(to)) {
    return failed(title, where, 'the text to replace and its replacement must each be on one line')
  }
  const changes: PlannedChange[] = []
  let count = 0
  for (const r of regions) {
    const layout = layoutOf(r.source.text)
    const lines = layout.lines.map((l, i) => {
      if (i + 1 < r.startLine || i + 1 > r.endLine) return l
      const parts = l.content.split(from)
      count += parts.length - 1
      return { content: parts.join(to), eol: l.eol }
    })
    const after = render(lines, layout)
    if (after !== r.source.text) {
      changes.push({
        path: r.source.path,
        expectedHash: r.source.hash,
        before: r.source.text,
        after,
      })
    }
  }
  if (count === 0) return failed(title, where, `${quote(from)} does not occur in the note`)
  return { title: `${title} (${count} place${count === 1 ? '' : 's'})`, changes, problems: [] }
}
