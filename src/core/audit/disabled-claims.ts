/**
 * Things a note says are switched off in the code ("`sitemap-players.xml` and
 * `sitemap-venues.xml` exist but are **currently disabled** in the index"): the back-ticked names
 * of a line that says so. Pure. src/node/audit/disabled-flips.ts reads the code lines naming
 * each: only comments when the note was written (the entry commented out), code now (switched
 * back on), the note's "disabled" no longer holds (blind set BO).
 */
import { findCodeSpans } from './code-spans'
import { cutFences } from './note-fences'

/** A line saying something is off: disabled, commented out, switched or turned off. */
const DISABLED_RE =
  /\b(?:disabled|commented[ -]out|(?:switched|turned)[ -]off|not (?:yet )?(?:enabled|registered|wired up|mounted))\b/i
/** A name a span may give: one word, file name or route, no wildcard or space. */
const NAME_RE = /^[\w@./-]{4,80}$/

/** The back-ticked names of the note's lines that say something is off. */
export function disabledNames(text: string): string[] {
  const out: string[] = []
  for (const line of cutFences(text).prose.split('\n')) {
    if (!DISABLED_RE.test(line)) continue
    for (const s of findCodeSpans(line)) {
      const name = line.slice(s.contentStart, s.contentEnd).trim()
      if (NAME_RE.test(name) && /[A-Za-z]/.test(name) && !out.includes(name)) out.push(name)
    }
  }
  return out
}
