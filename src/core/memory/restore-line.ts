/**
 * Where to put back a line a parallel session's write removed (docs/memory-rules.md §6.4 "One writer per
 * page"): beside the neighbours it had in the last version of the file that still held it.
 * Pure; the caller writes the result through the safe write path.
 */
import { diffArrays } from 'diff'
import { splitLines } from '../text'

export type RestorePlan =
  | {
      readonly kind: 'insert'
      /** The whole new text: the current text with exactly one line added. */
      readonly text: string
      /** 1-based line the restored text occupies in `text`. */
      readonly line: number
      /** How the place was chosen: after/before a surviving neighbour, or at the end of the file. */
      readonly anchor: 'after' | 'before' | 'end'
      /** The neighbour's text (null for `end`). */
      readonly anchorText: string | null
    }
  | { readonly kind: 'refused'; readonly reason: string }

/** A line and the break that ends it (`''` for a last line without one). */
interface Segment {
  readonly content: string
  readonly eol: string
}

function segments(text: string): Segment[] {
  const out: Segment[] = []
  const re = /\r?\n/g
  let start = 0
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push({ content: text.slice(start, m.index), eol: m[0] })
    start = m.index + m[0].length
  }
  if (start < text.length) out.push({ content: text.slice(start), eol: '' })
  return out
}

/** Lines compare without trailing whitespace, as lost-line detection does (core/replay). */
const same = (a: string, b: string): boolean => a.trimEnd() === b.trimEnd()

/**
 * Plan re-inserting `line` into `current`. `versions` are the file's known contents, oldest
 * first; the last one holding the line gives its neighbours. The line goes after the nearest
 * preceding neighbour that still exists in `current`, else before the nearest following one,
 * else at the end. Refused when the line is blank, spans lines, or is already present.
 */
export function planLineRestore(
  current: string,
  line: string,
  versions: readonly string[],
): RestorePlan {
  if (/[\r\n]/.test(line))
    return { kind: 'refused', reason: 'the text to restore spans several lines' }
  if (line.trim() === '') return { kind: 'refused', reason: 'the text to restore is blank' }
  const curLines = splitLines(current)
  const present = curLines.findIndex((l) => same(l, line))
  if (present >= 0) {
    return { kind: 'refused', reason: `the line is already in the file (line ${present + 1})` }
  }

  let place: { index: number; anchor: 'after' | 'before' | 'end'; anchorText: string | null } = {
    index: curLines.length,
    anchor: 'end',
    anchorText: null,
  }
  for (let v = versions.length - 1; v >= 0; v--) {
    const oldLines = splitLines(versions[v])
    const k = findLast(oldLines, (l) => same(l, line))
    if (k < 0) continue
    const found = neighbourPlace(oldLines, k, curLines)
    if (found) place = found
    break
  }

  const segs = segments(current)
  const eol = current.includes('\r\n') ? '\r\n' : '\n'
  const inserted: Segment = { content: line, eol }
  if (place.index >= segs.length && segs.length > 0 && segs[segs.length - 1].eol === '') {
    // The file ends without a line break: end its last line, keep the new last line unterminated.
    const last = segs[segs.length - 1]
    segs[segs.length - 1] = { content: last.content, eol }
    segs.push({ content: line, eol: '' })
  } else segs.splice(place.index, 0, inserted)
  return {
    kind: 'insert',
    text: segs.map((s) => s.content + s.eol).join(''),
    line: place.index + 1,
    anchor: place.anchor,
    anchorText: place.anchorText,
  }
}

/** Where line `k` of `oldLines` belongs in `curLines`, by its nearest surviving neighbour. */
function neighbourPlace(
  oldLines: readonly string[],
  k: number,
  curLines: readonly string[],
): { index: number; anchor: 'after' | 'before'; anchorText: string } | null {
  // Lines the diff keeps in place map exactly (even blank ones); others match by text if unique enough.
  const mapped = new Map<number, number>()
  let o = 0
  let c = 0
  for (const part of diffArrays([...oldLines], [...curLines])) {
    const n = part.value.length
    if (part.added) c += n
    else if (part.removed) o += n
    else {
      for (let i = 0; i < n; i++) mapped.set(o + i, c + i)
      o += n
      c += n
    }
  }
  const whereIs = (j: number): number => {
    const m = mapped.get(j)
    if (m !== undefined) return m
    if (oldLines[j].trim() === '') return -1
    return curLines.findIndex((l) => same(l, oldLines[j]))
  }
  for (let j = k - 1; j >= 0; j--) {
    const at = whereIs(j)
    if (at >= 0) return { index: at + 1, anchor: 'after', anchorText: curLines[at] }
  }
  for (let j = k + 1; j < oldLines.length; j++) {
    const at = whereIs(j)
    if (at >= 0) return { index: at, anchor: 'before', anchorText: curLines[at] }
  }
  return null
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i
  return -1
}
