/**
 * What a "Fit under the cutoff" plan can offer (issue 15 item 8): lines of MEMORY.md that take
 * room in the loaded head (docs/memory-rules.md §2.1–2.2) without telling Claude anything new.
 * Pure: the index as read, the topic files present, and the audit's verdicts when there is one.
 * Each offer is one change the person ticks; fit-plan.ts applies a choice of them.
 *
 * Decisions (ours, docs/memory-rules.md §6.3):
 * - Only lines that reach the model are offered: inside the trimmed text, outside frontmatter,
 *   block comments and fenced code. A blank line next to a stripped comment stays, so removing it
 *   cannot change what the comment rule strips.
 * - One offer per entry, the first that applies: an exact duplicate (same text as an earlier
 *   entry), an entry linking the same topic file as an earlier one, an entry whose topic file is
 *   gone (§2.7), a note the audit judged stale or wrong from the start (§6.2), a long entry whose
 *   detail can move into its existing topic file. The earlier entry always stays.
 * - Removing an entry never deletes its topic file: the fit plan frees room in the index only.
 */
import type { Verdict } from '../../shared/model'
import type { FitCandidate, FitCategory } from '../../shared/model-fit'
import { stripForLoading } from '../markdown/strip'
import { crlfFlags, loadedHead, MEMORY_INDEX_NAME } from './cutoff'
import { fencedLines, isIndented, layoutOf, topicNameOf, type Layout } from './index-entry-at'
import { parseIndexEntries } from './index-entries'
import { dedent, shortHook } from './topic-text'

/** A verdict of the audit for the index entry starting at `line`. */
export interface FitVerdict {
  readonly line: number
  readonly verdict: Verdict
}

/** A topic file as read for editing. */
export interface FitTopic {
  readonly path: string
  readonly text: string
  readonly hash: string
}

/** An entry with all its disk lines (indented continuation lines included). */
export interface EntryBlock {
  readonly line: number
  readonly endLine: number
  readonly title: string
  readonly target: string | null
  readonly hook: string
  readonly topicName: string | null
}

/** What choosing an offer does to the files. */
export interface FitEdit {
  /** Disk lines removed from the index. */
  readonly remove: readonly number[]
  /** Disk lines given new content. */
  readonly replace?: { readonly line: number; readonly content: string }
  /** Text appended to a topic file (by its name relative to the folder). */
  readonly appendTo?: { readonly name: string; readonly text: string }
}

export interface FitOffer extends FitCandidate {
  readonly edit: FitEdit
}

/** The index read once: lines, what loads, entries with their blocks. */
export interface IndexScan {
  readonly layout: Layout
  /** Disk lines that load at session start now. */
  readonly loaded: ReadonlySet<number>
  /** Disk lines of the trimmed text that load as written on disk (not touched by stripping). */
  readonly plain: ReadonlySet<number>
  readonly fenced: ReadonlySet<number>
  readonly entries: readonly EntryBlock[]
}

/** An entry whose lines are longer than this (UTF-16 units) is offered as long (ours). */
export const FIT_LONG_ENTRY_CHARS = 160
/** Moving detail out must save at least this many characters on a one-line entry (ours). */
const FIT_MIN_SAVING = 30
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/
const ITEM_PREFIX = /^([ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\S/

/** Read the index once for planning (linear in its size). */
export function scanIndex(text: string): IndexScan {
  const layout = layoutOf(text)
  const stripped = stripForLoading(text)
  const head = loadedHead(stripped.lines, crlfFlags(stripped.text, stripped.lines.length))
  const loaded = new Set(stripped.lineMap.slice(head.lines - head.count, head.lines))
  const nonBlank = stripped.lines.map((l) => l.trim() !== '')
  const first = nonBlank.indexOf(true)
  const last = nonBlank.lastIndexOf(true)
  const plain = new Set<number>()
  for (let i = Math.max(0, first); i >= 0 && i <= last; i++) {
    const d = stripped.lineMap[i]
    if (layout.lines[d - 1]?.content === stripped.lines[i]) plain.add(d)
  }
  const fenced = fencedLines(layout.lines)
  const parsed = parseIndexEntries(stripped.text).map((e) => ({
    ...e,
    line: stripped.lineMap[e.line - 1],
  }))
  const linked = new Set(parsed.filter((e) => e.target !== null).map((e) => e.line))
  const entries: EntryBlock[] = []
  for (const e of parsed) {
    if (!plain.has(e.line) || !ITEM_PREFIX.test(layout.lines[e.line - 1].content)) continue
    let end = e.line
    while (
      end < layout.lines.length &&
      plain.has(end + 1) &&
      isIndented(layout.lines[end].content) &&
      !linked.has(end + 1)
    )
      end++
    entries.push({
      line: e.line,
      endLine: end,
      title: e.title,
      target: e.target,
      hook: e.hook,
      topicName: e.target === null ? null : topicNameOf(e.target),
    })
  }
  return { layout, loaded, plain, fenced, entries }
}

export interface FitCandidatesInput {
  readonly text: string
  /** Topic files present in the folder, relative to it (`x.md`, `sub/y.md`). */
  readonly topicNames: readonly string[]
  /** Texts of topic files linked by long entries (see `topicsToRead`), by name. */
  readonly topics: ReadonlyMap<string, FitTopic>
  /** The audit's verdicts for index entries, or null when no audit is available. */
  readonly verdicts: readonly FitVerdict[] | null
}

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim()
const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many)

function blockText(scan: IndexScan, e: EntryBlock): string {
  return scan.layout.lines
    .slice(e.line - 1, e.endLine)
    .map((l) => l.content)
    .join('\n')
}

function lines(from: number, to: number): number[] {
  const out: number[] = []
  for (let d = from; d <= to; d++) out.push(d)
  return out
}

/** Names of the topic files whose text a fit plan needs: those of entries long enough to shorten. */
export function topicsToRead(scan: IndexScan): string[] {
  return scan.entries
    .filter((e) => e.topicName !== null && blockText(scan, e).length > FIT_LONG_ENTRY_CHARS)
    .map((e) => e.topicName as string)
}

/** The long-entry offer for `e`, or null when shortening frees too little. */
function longOffer(scan: IndexScan, e: EntryBlock, topic: FitTopic | undefined): FitEdit | null {
  if (topic === undefined || e.topicName === null) return null
  const all = blockText(scan, e)
  if (all.length <= FIT_LONG_ENTRY_CHARS) return null
  const first = scan.layout.lines[e.line - 1].content
  const short = shortHook(e.hook)
  const at = e.hook === '' ? -1 : first.lastIndexOf(e.hook)
  const head = (at < 0 ? first : first.slice(0, at)).replace(/[\s—–:|-]+$/, '')
  const newLine = short === '' ? head : `${head} — ${short}`
  const more = dedent(scan.layout.lines.slice(e.line, e.endLine).map((l) => l.content))
  const saves = all.length - newLine.length
  if (saves < FIT_MIN_SAVING && e.endLine === e.line) return null
  const detail: string[] = []
  const known = norm(topic.text)
  if (e.hook !== '' && short !== e.hook && !known.includes(norm(e.hook))) detail.push(e.hook)
  detail.push(...more.filter((l) => l.trim() === '' || !known.includes(norm(l))))
  while (detail.length > 0 && detail[detail.length - 1].trim() === '') detail.pop()
  return {
    remove: lines(e.line + 1, e.endLine),
    replace: { line: e.line, content: newLine },
    ...(detail.length > 0 ? { appendTo: { name: e.topicName, text: detail.join('\n') } } : {}),
  }
}

/** Every change a fit plan can offer for this index, in file order. */
export function fitCandidates(scan: IndexScan, input: FitCandidatesInput): FitOffer[] {
  const { layout, loaded, plain, fenced } = scan
  const offers: FitOffer[] = []
  const offer = (
    category: FitCategory,
    from: number,
    to: number,
    title: string,
    detail: string,
    defaultOn: boolean,
    edit: FitEdit = { remove: lines(from, to) },
  ): void => {
    offers.push({
      id: `${category}:${from}`,
      category,
      line: from,
      endLine: to,
      title,
      detail,
      loaded: loaded.has(from),
      defaultOn,
      edit,
    })
  }
  const inBlock = new Set<number>()
  for (const e of scan.entries) for (let d = e.line; d <= e.endLine; d++) inBlock.add(d)

  // Blank and heading-only lines.
  const headings: { line: number; level: number }[] = []
  for (const d of plain) {
    if (fenced.has(d) || inBlock.has(d)) continue
    const content = layout.lines[d - 1].content
    if (content.trim() === '') {
      if (plain.has(d - 1) && plain.has(d + 1)) {
        offer(
          'blank',
          d,
          d,
          'blank line',
          'A blank line: one of the 200 lines, telling Claude nothing.',
          true,
        )
      }
      continue
    }
    const h = HEADING.exec(content)
    if (h) headings.push({ line: d, level: h[1].length })
  }
  // Each heading's section ends at the next heading of its level or higher (a stack, linear);
  // the entries under it are counted from the sorted entry lines by binary search.
  const entryStarts = scan.entries.map((e) => e.line)
  const before = (line: number): number => {
    let lo = 0
    let hi = entryStarts.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (entryStarts[mid] < line) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  const ends: number[] = new Array<number>(headings.length).fill(Number.MAX_SAFE_INTEGER)
  const open: number[] = []
  headings.forEach((h, i) => {
    while (open.length > 0 && headings[open[open.length - 1]].level >= h.level) {
      ends[open.pop() as number] = h.line
    }
    open.push(i)
  })
  headings.forEach((h, i) => {
    const under = before(ends[i]) - before(h.line + 1)
    const text = layout.lines[h.line - 1].content.replace(/^ {0,3}#+[ \t]*/, '').trim()
    offer(
      'heading',
      h.line,
      h.line,
      text === '' ? 'empty heading' : text,
      under === 0
        ? 'A heading with no entry under it.'
        : `A heading over ${under.toLocaleString('en')} ${plural(under, 'entry', 'entries')}: removing it frees a line; the entries stay.`,
      under === 0,
    )
  })

  // Entries: duplicates, missing topic files, judged notes, long ones.
  const present = new Set(input.topicNames)
  const verdicts = new Map((input.verdicts ?? []).map((v) => [v.line, v.verdict]))
  const byText = new Map<string, number>()
  const byTopic = new Map<string, number>()
  for (const e of scan.entries) {
    const key = norm(blockText(scan, e).replace(/^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/, ''))
    const same = byText.get(key)
    const sameTopic = e.topicName === null ? undefined : byTopic.get(e.topicName)
    if (!byText.has(key)) byText.set(key, e.line)
    if (e.topicName !== null && sameTopic === undefined) byTopic.set(e.topicName, e.line)
    const title = e.title
    if (same !== undefined) {
      offer(
        'duplicate',
        e.line,
        e.endLine,
        title,
        `The same entry as line ${same}, which stays.`,
        true,
      )
    } else if (sameTopic !== undefined) {
      offer(
        'duplicate',
        e.line,
        e.endLine,
        title,
        `Links ${e.topicName} like the entry on line ${sameTopic}, which stays; this entry's own words go.`,
        false,
      )
    } else if (
      e.topicName !== null &&
      e.topicName !== MEMORY_INDEX_NAME &&
      !present.has(e.topicName)
    ) {
      offer('dangling', e.line, e.endLine, title, `Links ${e.target}, which does not exist.`, true)
    } else if (verdicts.get(e.line) === 'stale' || verdicts.get(e.line) === 'never-matched') {
      const stale = verdicts.get(e.line) === 'stale'
      offer(
        'judged',
        e.line,
        e.endLine,
        title,
        `${stale ? 'The audit judged this note stale: the code it rests on changed since.' : 'The audit judged this note wrong from the start: what it names never matched the code.'}${e.topicName !== null ? ` Its topic file ${e.topicName} stays.` : ''}`,
        false,
      )
    } else {
      const edit = e.topicName !== null ? longOffer(scan, e, input.topics.get(e.topicName)) : null
      if (edit) {
        const moved = edit.appendTo
          ? `Its detail moves to the end of ${e.topicName}`
          : `${e.topicName} already says the rest`
        offer(
          'long',
          e.line,
          e.endLine,
          title,
          `${moved}; the entry keeps its link and first sentence.`,
          true,
          edit,
        )
      }
    }
  }
  return offers.sort((a, b) => a.line - b.line)
}
