/**
 * TODO comments a note points at (“Per-role ACL restrictions are TODO — search for
 * `applyRoleAcl` TODO comments”): the names whose nearby TODO comments the note rests on. When
 * the code held such a comment beside the name when the note was written and holds none beside
 * it now, the work the note calls pending was likely done (src/node/audit/todo-flips.ts).
 * Blind set O: a per-role ACL the note called TODO, done since. Pure.
 *
 * Decisions:
 * - Only a sentence that says TODO or FIXME in capitals and says "comment": "TODO" alone is a
 *   plan item (absence-claims.ts and plan-claims.ts read those), and Spanish "todo" is "all".
 * - Only back-ticked names of that sentence: a plain word is English.
 * - A TODO comment is "beside" a name on the two lines above a line holding it, or below it
 *   within TODO_SPAN lines before another definition starts, in that file.
 */
import { findCodeSpans } from './code-spans'
import { cutFences } from './note-fences'

export const TODO_SPAN = 15

const SENTENCE_RE = /[^.!?\n]+(?:[.!?](?=\s|$)|\n|$)/g
const NAME_RE = /^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*(?:\(\))?$/

/** The back-ticked names of the note's sentences about TODO comments. */
export function todoNames(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const m of prose.matchAll(SENTENCE_RE)) {
    const s = m[0]
    if (!/\b(?:TODO|FIXME)\b/.test(s) || !/\bcomments?\b/i.test(s)) continue
    for (const span of findCodeSpans(s)) {
      const raw = s.slice(span.contentStart, span.contentEnd).trim()
      if (!NAME_RE.test(raw)) continue
      const name =
        raw
          .replace(/\(\)$/, '')
          .split(/\.|::|->/)
          .pop() ?? ''
      if (name.length >= 3 && !out.includes(name)) out.push(name)
    }
  }
  return out
}

/** A comment line holding TODO or FIXME in capitals. */
const TODO_LINE_RE = /(?:\/\/|#|\/\*|^\s*\*|--|<!--)[^\n]*\b(?:TODO|FIXME)\b/

/** A line that starts another function or method: the block before it has ended. */
const DEFINITION_RE =
  /^\s*(?:(?:export|public|private|protected|static|async|final|abstract|pub)\s+)*(?:function|def|func|fn|class|sub)\b/

/**
 * The TODO comments of a file's text beside a line holding `name`: on the two lines above it
 * (a comment on a definition), or below it within TODO_SPAN lines before another definition
 * starts (inside its body).
 */
export function todosBeside(text: string, name: string): { line: number; text: string }[] {
  const lines = text.split(/\r?\n/)
  const word = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`)
  const at = lines.flatMap((l, i) => (word.test(l) ? [i] : []))
  const inside = (j: number, i: number): boolean => {
    if (i < j || i - j > TODO_SPAN) return false
    for (let k = j + 1; k < i; k++) if (DEFINITION_RE.test(lines[k])) return false
    return true
  }
  return lines.flatMap((l, i) =>
    TODO_LINE_RE.test(l) && at.some((j) => (j > i && j - i <= 2) || inside(j, i))
      ? [{ line: i + 1, text: l.trim() }]
      : [],
  )
}
