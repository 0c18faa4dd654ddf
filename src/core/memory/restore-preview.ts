/**
 * Where a lost line goes back and whether it will load (issue 15 item 2): the restore of
 * restore-line.ts, previewed as a plan, and for MEMORY.md the same restore moved above the load
 * cutoff (docs/memory-rules.md §2.1, §6.4). Pure; the caller applies the plan through the safe
 * write path (compare-and-swap on the hash the preview was computed from).
 */
import type { EditPlan } from '../../shared/model'
import type { RestorePreview } from '../../shared/model-fit'
import { stripForLoading } from '../markdown/strip'
import { splitLines } from '../text'
import { crlfFlags, loadedHead } from './cutoff'
import { planMoveEntryAboveCutoff, type EditSource } from './edit-plan'
import { planLineRestore } from './restore-line'

const QUOTE_MAX = 60

function quote(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim()
  return `“${t.length > QUOTE_MAX ? `${t.slice(0, QUOTE_MAX - 1)}…` : t}”`
}

/** Whether disk line `line` of `text` loads, and the first line past the cut (null: all loads). */
function loadState(text: string, line: number): { loads: boolean; cutoffLine: number | null } {
  const stripped = stripForLoading(text)
  const head = loadedHead(stripped.lines, crlfFlags(stripped.text, stripped.lines.length))
  const loaded = stripped.lineMap.slice(head.lines - head.count, head.lines)
  return {
    loads: loaded.includes(line),
    cutoffLine: head.limitHit === null ? null : (stripped.lineMap[head.lines] ?? null),
  }
}

/**
 * Preview restoring `line` into `source` (`versions`: the file's known contents, oldest first).
 * `isIndex`: the file is MEMORY.md, so the cut applies; topic files never load at start.
 */
export function previewLineRestore(
  source: EditSource,
  line: string,
  versions: readonly string[],
  placement: 'in-place' | 'above-cutoff',
  isIndex: boolean,
): RestorePreview {
  const name = source.path.split(/[\\/]/).pop() ?? source.path
  const refused = (reason: string): RestorePreview => ({
    placement,
    plan: {
      title: `Restore ${quote(line)}`,
      changes: [],
      problems: [{ path: source.path, reason }],
    },
    line: null,
    anchor: null,
    loads: null,
    cutoffLine: null,
    falls: [],
  })
  const r = planLineRestore(source.text, line, versions)
  if (r.kind === 'refused') return refused(r.reason)
  const change = (after: string): EditPlan['changes'] => [
    { path: source.path, expectedHash: source.hash, before: source.text, after },
  ]
  const anchor =
    r.anchor === 'end' ? 'at the end of the file' : `${r.anchor} ${quote(r.anchorText ?? '')}`
  if (!isIndex) {
    return {
      placement: 'in-place',
      plan: {
        title: `Restore ${quote(line)} at line ${r.line} of ${name}`,
        changes: change(r.text),
        problems: [],
      },
      line: r.line,
      anchor,
      loads: null,
      cutoffLine: null,
      falls: [],
    }
  }
  const inPlace = loadState(r.text, r.line)
  if (placement === 'in-place' || inPlace.loads) {
    return {
      placement,
      plan: {
        title: `Restore ${quote(line)} at line ${r.line} of ${name}`,
        changes: change(r.text),
        problems: [],
      },
      line: r.line,
      anchor,
      ...inPlace,
      falls: [],
    }
  }
  const moved = planMoveEntryAboveCutoff({ ...source, text: r.text }, r.line)
  const after = moved.changes[0]?.after
  if (typeof after !== 'string') {
    return refused(
      moved.problems[0]?.reason.startsWith(`line ${r.line} is not an index entry`)
        ? 'only an index entry can go above the cutoff, and this line is not one'
        : (moved.problems[0]?.reason ?? 'it cannot be placed above the cutoff'),
    )
  }
  const at = splitLines(after).findIndex((l) => l.trimEnd() === line.trimEnd()) + 1
  return {
    placement,
    plan: {
      title: `Restore ${quote(line)} above the load cutoff, at line ${at} of ${name}`,
      changes: change(after),
      problems: [],
      falls: moved.falls ?? [],
    },
    line: at,
    anchor: null,
    ...loadState(after, at),
    falls: moved.falls ?? [],
  }
}
