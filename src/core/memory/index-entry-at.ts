/**
 * An index file as lines on disk, and its entries located on those lines: each line keeps its
 * own break (`\n` or `\r\n`); new or moved lines take the file's first break, and the file's
 * final-newline state is kept. Lines are 1-based lines on disk as `splitLines` counts them.
 * Used by the edit plans (edit-plan.ts).
 */
import { closesFence, openFence, stripForLoading, type Fence } from '../markdown/strip'
import { parseIndexEntries, resolveIndexTarget } from './index-entries'
import { splitLinesWithEndings } from '../text'

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

const ITEM_PREFIX = /^([ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\S/

// ---- lines as on disk ------------------------------------------------------------------

export interface DiskLine {
  readonly content: string
  /** `\n`, `\r\n`, or '' on a last line without a break. */
  readonly eol: string
}

export interface Layout {
  readonly lines: readonly DiskLine[]
  /** The break new or moved lines get: the file's first, else `\n`. */
  readonly eol: string
  readonly finalNewline: boolean
}

/** Split like `splitLines` (a lone `\r` is not a break), keeping each line's break. */
export function layoutOf(text: string): Layout {
  const lines: DiskLine[] = splitLinesWithEndings(text)
  const first = lines.find((l) => l.eol !== '')
  return {
    lines,
    eol: first ? first.eol : '\n',
    finalNewline: lines.length > 0 && lines[lines.length - 1].eol !== '',
  }
}

/** Join lines back: every line but the last ends with a break; the last as the file did. */
export function render(lines: readonly DiskLine[], layout: Layout): string {
  let out = ''
  lines.forEach((l, i) => {
    const last = i === lines.length - 1
    const eol = l.eol === '' ? layout.eol : l.eol
    out += l.content + (last && !layout.finalNewline ? '' : eol)
  })
  return out
}

// ---- entries ---------------------------------------------------------------------------

/** `lines` without disk lines from…to. */
export function withoutLines(layout: Layout, from: number, to: number): string {
  return render(
    layout.lines.filter((_, i) => i + 1 < from || i + 1 > to),
    layout,
  )
}

/** The index's entries with disk line numbers, frontmatter and block comments left out (§2). */
export function diskEntries(
  text: string,
): { line: number; title: string; target: string | null; hook: string }[] {
  const stripped = stripForLoading(text)
  return parseIndexEntries(stripped.text).map((e) => ({ ...e, line: stripped.lineMap[e.line - 1] }))
}

/** Disk lines that sit inside a fenced code block (after the opening fence, through the closing one). */
export function fencedLines(lines: readonly DiskLine[]): Set<number> {
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

export const isIndented = (s: string): boolean => /^[ \t]/.test(s) && s.trim() !== ''

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
export function topicNameOf(target: string): string | null {
  const name = resolveIndexTarget(target)
  return name !== null && name.toLowerCase().endsWith('.md') ? name : null
}

// ---- plans -----------------------------------------------------------------------------
