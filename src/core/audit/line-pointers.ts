/**
 * A line a note points at in a file (`app.ts:42`, "`types/supabase.ts` line ~4664"): what that
 * line held when the note was written, and where it is now. Pure. Line pointers rot with every
 * edit above them; a pointer whose line moved far, or left the file, sends the reader to the
 * wrong place (blind set L: a generated types file grew from ~4,700 lines to ~7,300).
 *
 * Decisions:
 * - Only a line that says something is followed: at least three letters or digits in a row,
 *   once in the file then (a `}` or a repeated line cannot be traced).
 * - The same text within LINE_SLACK lines of the pointer now is the line still there.
 * - Moved means exactly one line holds that text now; several say nothing.
 */

/** Lines around a pointer that still count as the place it points at. */
export const LINE_SLACK = 5

/** A path reference of a note and the line it points at. */
export interface LinePointer {
  /** The path as the note writes it. */
  readonly text: string
  readonly line: number
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The line each path reference points at: written as `path:N`, or the path followed by "line
 * N" in a few languages (`línea ~4664`, `ligne 12`, `Zeile 3`, `L42`).
 */
export function linePointers(
  text: string,
  paths: readonly { readonly text: string; readonly line: number | null }[],
): LinePointer[] {
  const out: LinePointer[] = []
  for (const p of paths) {
    if (p.line !== null) {
      out.push({ text: p.text, line: p.line })
      continue
    }
    const m = new RegExp(
      `${escapeRe(p.text)}\`?\\**\\s*[,(]?\\s*(?:lines?|l[íi]nea|ligne|zeile|l\\.?)\\s*[~≈]?\\s*(\\d{1,6})\\b`,
      'i',
    ).exec(text)
    if (m) out.push({ text: p.text, line: Number(m[1]) })
  }
  return out
}

/**
 * How the line a pointer named stands now: null when it is still there (or cannot be traced);
 * else the text it held and the one line holding that text now (null: none does).
 */
export function pointerMoved(
  thenText: string,
  nowText: string,
  line: number,
): { readonly held: string; readonly nowLine: number | null } | null {
  const then = thenText.split(/\r?\n/).map((l) => l.trim())
  const held = then[line - 1]
  if (held === undefined || !/[\p{L}\p{N}_]{3}/u.test(held)) return null
  if (then.filter((l) => l === held).length !== 1) return null
  const now = nowText.split(/\r?\n/).map((l) => l.trim())
  const lo = Math.max(0, line - 1 - LINE_SLACK)
  if (now.slice(lo, line + LINE_SLACK).includes(held)) return null
  const at = now.flatMap((l, i) => (l === held ? [i + 1] : []))
  if (at.length > 1) return null
  return { held, nowLine: at[0] ?? null }
}
