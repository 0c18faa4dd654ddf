/**
 * Edit plans for memory files, as pure functions over the texts read: move an entry
 * above the load cutoff, delete an entry (and its topic file), extract an entry's detail
 * into a new topic file, replace text in a note; and the order a plan is applied in
 * (`planSteps`). Nothing here writes; every planned change carries the hash of the text it
 * was computed from, so applying it is a compare-and-swap (src/node/edits/apply-plan.ts).
 * Lines on disk and index entries on them: index-entry-at.ts.
 */
import { stringify } from 'yaml'
import type { EditPlan, PlannedChange } from '../../shared/model'
import { stripForLoading } from '../markdown/strip'
import { computeCutoff, loadedHead } from './cutoff'
import {
  diskEntries,
  fencedLines,
  findIndexEntry,
  isIndented,
  layoutOf,
  render,
  topicNameOf,
  withoutLines,
} from './index-entry-at'

import { dedent, shortHook, titleFromName, topicNameProblem } from './topic-text'

export { findIndexEntry, type IndexEntryAt } from './index-entry-at'
export { shortHook, topicNameProblem } from './topic-text'

/** What applying one planned change does to its file. */
export type PlanStepKind = 'create' | 'edit' | 'delete'

/**
 * A plan's changes in the order they are applied: new files first (an index never links a
 * file that is not there yet), then edits, deletions last (an index never links a file that
 * is already gone); the plan's own order within each kind.
 */
export function planSteps<C extends Pick<PlannedChange, 'expectedHash' | 'after'>>(
  changes: readonly C[],
): { readonly kind: PlanStepKind; readonly change: C }[] {
  const kindOf = (c: C): PlanStepKind =>
    c.after === null ? 'delete' : c.expectedHash === null ? 'create' : 'edit'
  const rank: Record<PlanStepKind, number> = { create: 0, edit: 1, delete: 2 }
  return changes
    .map((change) => ({ kind: kindOf(change), change }))
    .sort((a, b) => rank[a.kind] - rank[b.kind])
}

/** A file read for editing: its text and the hash of its bytes on disk. */
export interface EditSource {
  readonly path: string
  readonly text: string
  readonly hash: string
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

/** Longest quote of a line in a plan's title. */
const TITLE_QUOTE_MAX = 60
/** Pushed-out lines named one by one in a plan's title. */
const TITLE_LINES_MAX = 3
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/

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
 * loads at session start (docs/memory-rules.md §2.1), so it loads; the title names any line the
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
    // Named one by one too, so the window can ask before an entry stops loading (issue 15 item 8).
    const falls = pushed.map((d) => ({
      line: d,
      text: layout.lines[d - 1].content,
      entry: entries.has(d),
    }))
    return {
      title: `${title} (${moves})${suffix}`,
      changes: [{ path: index.path, expectedHash: index.hash, before: index.text, after }],
      problems: [],
      falls,
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

/**
 * Move the detail of the entry at `line` — its hook and indented continuation lines — into
 * a new topic file (frontmatter `name`, `description`, `type: project`, docs/memory-rules.md §2.6
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
  const link = `${entry.prefix}[${name}](${dest})`
  let indexLine = `${link}${short === '' ? '' : ` — ${short}`}`
  // A one-line entry must not be replaced by a longer line (issue 15 item 8): drop the hook, or refuse.
  const oldLine = layoutOf(index.text).lines[entry.line - 1].content
  if (entry.endLine === entry.line && indexLine.length >= oldLine.length) {
    if (link.length >= oldLine.length) {
      return failed(
        title,
        index.path,
        `the entry is one line of ${oldLine.length} characters, and a link to a topic file would take ${link.length}: moving its detail frees no room`,
      )
    }
    indexLine = link
  }
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
