/**
 * "Fit under the cutoff" (issue 15 item 8): one plan that frees room in the loaded head of
 * MEMORY.md (docs/memory-rules.md §2.1–2.2) with the offers the person ticked
 * (fit-candidates.ts), then moves the entries they chose above the cut, and the load figures
 * before and after, computed with the real cutoff (cutoff.ts). Pure: the caller reads the files
 * and applies `plan` through the safe write path (one compare-and-swap per file, undo).
 *
 * Decisions (ours, docs/memory-rules.md §6.3):
 * - Moved entries go right after the last line that loads now (kept, in file order), never
 *   between an entry and its continuation lines or inside fenced code.
 * - A move never pushes a line that loads now below the cut: the chosen moves are taken in the
 *   order given, as many as fit (the rest are `no-room`). Lines that only load thanks to the
 *   freed room may be displaced by chosen moves.
 */
import type { EditPlan, FallingLine, PlannedChange } from '../../shared/model'
import type {
  FitCategory,
  FitCategoryInfo,
  FitChoices,
  FitGauge,
  FitMove,
  FitPlan,
} from '../../shared/model-fit'
import { stripForLoading } from '../markdown/strip'
import { computeCutoff, crlfFlags, loadedHead } from './cutoff'
import type { EditSource } from './edit-plan'
import {
  fitCandidates,
  scanIndex,
  type FitOffer,
  type FitTopic,
  type EntryBlock,
  type FitVerdict,
  type IndexScan,
} from './fit-candidates'
import { isIndented, render, type DiskLine } from './index-entry-at'

export interface FitInput {
  readonly index: EditSource
  /** Topic files present in the folder, relative to it. */
  readonly topicNames: readonly string[]
  /** Topic files a long entry may append to, by name (read by the caller, see topicsToRead). */
  readonly topics: ReadonlyMap<string, FitTopic>
  /** The audit's verdicts for the index's entries, or null when none is available. */
  readonly verdicts: readonly FitVerdict[] | null
  /** Why there are no verdicts (shown on the judged category), when `verdicts` is null. */
  readonly noVerdicts: string | null
  /** The person's choice; null for the defaults. */
  readonly choices: FitChoices | null
}

/** Largest number of files one fit plan changes (the API's applyPlan takes at most 200). */
export const FIT_MAX_FILES = 200

const CATEGORIES: readonly FitCategory[] = [
  'blank',
  'heading',
  'duplicate',
  'dangling',
  'judged',
  'long',
]

interface Line extends DiskLine {
  /** Disk line of the original text, null for none. */
  readonly origin: number
}

function gauge(file: string, text: string, topicNames: readonly string[]): FitGauge {
  const c = computeCutoff({ file, text, totalBytes: 0, topicFiles: topicNames })
  return {
    totalLines: c.totalLines,
    loadedLines: c.loadedLines,
    loadedChars: c.loadedChars,
    loadedBytes: c.loadedBytes,
    limitHit: c.limitHit,
    firstUnloadedLine: c.firstUnloadedLine,
    entries: c.entries.length,
    entriesLoaded: c.entries.filter((e) => e.loaded).length,
  }
}

/** Origins (original disk lines) of the lines of `lines` that load. */
function loadedOrigins(
  lines: readonly Line[],
  layoutEol: string,
  finalNewline: boolean,
): Set<number> {
  const text = render(lines, { lines, eol: layoutEol, finalNewline })
  const stripped = stripForLoading(text)
  const head = loadedHead(stripped.lines, crlfFlags(stripped.text, stripped.lines.length))
  const out = new Set<number>()
  for (const d of stripped.lineMap.slice(head.lines - head.count, head.lines)) {
    out.add(lines[d - 1].origin)
  }
  return out
}

/** Where moved entries go in `lines`: after the last line that loads now, past continuations and fences. */
function insertionPoint(scan: IndexScan, lines: readonly Line[]): number {
  let p = 0
  lines.forEach((l, i) => {
    if (scan.loaded.has(l.origin)) p = i + 1
  })
  while (p < lines.length && (scan.fenced.has(lines[p].origin) || isIndented(lines[p].content))) p++
  return p
}

function describeChoice(counts: ReadonlyMap<FitCategory, number>, moved: number): string {
  const words: Record<FitCategory, [string, string]> = {
    blank: ['blank line', 'blank lines'],
    heading: ['heading', 'headings'],
    duplicate: ['duplicate entry', 'duplicate entries'],
    dangling: ['entry of a missing topic file', 'entries of missing topic files'],
    judged: ['stale or wrong note', 'stale or wrong notes'],
    long: ['long entry shortened', 'long entries shortened'],
  }
  const parts = CATEGORIES.filter((c) => (counts.get(c) ?? 0) > 0).map((c) => {
    const n = counts.get(c) ?? 0
    return `${n.toLocaleString('en')} ${words[c][n === 1 ? 0 : 1]}`
  })
  const what = parts.length > 0 ? `remove or shorten ${parts.join(', ')}` : 'nothing to remove'
  const move =
    moved > 0
      ? `; move ${moved.toLocaleString('en')} ${moved === 1 ? 'entry' : 'entries'} above the cut`
      : ''
  return `Fit MEMORY.md under the load cutoff: ${what}${move}`
}

/** The fit plan for `input`: offers, the choice applied, figures before and after, one edit plan. */
export function planFit(input: FitInput): FitPlan {
  const { index } = input
  const scan = scanIndex(index.text)
  const offers = fitCandidates(scan, {
    text: index.text,
    topicNames: input.topicNames,
    topics: input.topics,
    verdicts: input.verdicts,
  })
  const known = new Set(offers.map((o) => o.id))
  const chosenIds =
    input.choices === null
      ? offers.filter((o) => o.defaultOn).map((o) => o.id)
      : input.choices.chosen.filter((id) => known.has(id))
  const chosenSet = new Set(chosenIds)
  const unloaded = scan.entries.filter((e) => !scan.loaded.has(e.line))
  const unloadedAt = new Set(unloaded.map((e) => e.line))
  const wanted = [...new Set(input.choices?.move ?? [])].filter((l) => unloadedAt.has(l))

  // Removals and replacements; topic files appended to (at most FIT_MAX_FILES - 1 of them).
  const removed = new Set<number>()
  const replaced = new Map<number, string>()
  const appends = new Map<string, string[]>()
  const applied: FitOffer[] = []
  const problems: { path: string; reason: string }[] = []
  for (const o of offers) {
    if (!chosenSet.has(o.id)) continue
    const add = o.edit.appendTo
    if (add && !appends.has(add.name) && appends.size >= FIT_MAX_FILES - 1) {
      problems.push({
        path: index.path,
        reason: `at most ${FIT_MAX_FILES - 1} topic files change in one plan: “${o.title}” is left for the next one`,
      })
      continue
    }
    applied.push(o)
    for (const d of o.edit.remove) removed.add(d)
    if (o.edit.replace) replaced.set(o.edit.replace.line, o.edit.replace.content)
    if (add) appends.set(add.name, [...(appends.get(add.name) ?? []), add.text])
  }
  const kept: Line[] = scan.layout.lines.flatMap((l, i) =>
    removed.has(i + 1)
      ? []
      : [{ content: replaced.get(i + 1) ?? l.content, eol: l.eol, origin: i + 1 }],
  )

  // Moves: as many of the wanted entries as fit without pushing out a line that loads now.
  const unloadedBy = new Map(unloaded.map((e) => [e.line, e]))
  const blocks = wanted.filter((l) => !removed.has(l)).map((l) => unloadedBy.get(l) as EntryBlock)
  const { eol, finalNewline } = scan.layout
  const arrange = (k: number): Line[] => {
    const moving = new Set<number>()
    for (const b of blocks.slice(0, k)) for (let d = b.line; d <= b.endLine; d++) moving.add(d)
    const rest = kept.filter((l) => !moving.has(l.origin))
    const movedLines = kept.filter((l) => moving.has(l.origin))
    const p = insertionPoint(scan, rest)
    return [...rest.slice(0, p), ...movedLines, ...rest.slice(p)]
  }
  const fits = (k: number): boolean => {
    const lines = arrange(k)
    const now = loadedOrigins(lines, eol, finalNewline)
    for (const d of scan.loaded) if (!removed.has(d) && !now.has(d)) return false
    return blocks.slice(0, k).every((b) => now.has(b.line))
  }
  let lo = 0
  let hi = blocks.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (fits(mid)) lo = mid
    else hi = mid - 1
  }
  const final = arrange(lo)
  const after = render(final, { lines: final, eol, finalNewline })
  const nowLoaded = loadedOrigins(final, eol, finalNewline)
  const movedSet = new Set(blocks.slice(0, lo).map((b) => b.line))
  const wantedSet = new Set(wanted)

  const changes: PlannedChange[] = []
  if (after !== index.text) {
    changes.push({ path: index.path, expectedHash: index.hash, before: index.text, after })
  }
  for (const [name, texts] of appends) {
    const t = input.topics.get(name)
    if (!t) continue
    const tEol = t.text.includes('\r\n') ? '\r\n' : '\n'
    const body = t.text.replace(/(?:\r?\n)+$/, '')
    const added = texts.join('\n\n').split('\n').join(tEol)
    changes.push({
      path: t.path,
      expectedHash: t.hash,
      before: t.text,
      after: `${body}${tEol}${tEol}${added}${tEol}`,
    })
  }

  const entryAt = new Set(scan.entries.map((e) => e.line))
  const falls: FallingLine[] = [...scan.loaded]
    .filter((d) => !removed.has(d) && !nowLoaded.has(d))
    .map((d) => ({ line: d, text: scan.layout.lines[d - 1].content, entry: entryAt.has(d) }))
  const moves: FitMove[] = unloaded.map((e) => ({
    line: e.line,
    endLine: e.endLine,
    title: e.title,
    state: removed.has(e.line)
      ? 'removed'
      : movedSet.has(e.line)
        ? 'moved'
        : nowLoaded.has(e.line)
          ? 'loads'
          : wantedSet.has(e.line)
            ? 'no-room'
            : 'stays',
  }))
  const counts = new Map<FitCategory, number>()
  for (const o of applied) counts.set(o.category, (counts.get(o.category) ?? 0) + 1)
  const categories: FitCategoryInfo[] = CATEGORIES.map((c) => {
    const count = offers.filter((o) => o.category === c).length
    const judgedNote =
      input.verdicts === null
        ? input.noVerdicts
        : count === 0
          ? 'The last audit judged no entry of this index stale or wrong from the start.'
          : null
    return {
      category: c,
      count,
      available: c !== 'judged' || input.verdicts !== null,
      note: c === 'judged' ? judgedNote : null,
    }
  })
  const plan: EditPlan = {
    title: describeChoice(counts, lo),
    changes,
    problems,
    falls,
  }
  return {
    file: index.path,
    candidates: offers.map(({ edit: _edit, ...c }) => c),
    categories,
    choices: { chosen: chosenIds, move: wanted },
    moves,
    before: gauge(index.path, index.text, input.topicNames),
    after: gauge(index.path, after, input.topicNames),
    plan,
  }
}
