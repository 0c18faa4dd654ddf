/**
 * Defaults a note gives a setting: "`FFT_NANO_HEARTBEAT_EVERY` (default `30m`)", "`ASSISTANT_NAME`
 * defaults to `FarmFriend`" (issue 12 item 5: behaviour changed while the name survives; blind
 * set AE ff-t03, where the variable is still read but its default became `4h`). Pure:
 * src/node/audit/value-flips.ts greps the name's lines then and the files that hold it now.
 *
 * Decisions:
 * - The claim holds when it was written only if one code line then held the name and the value
 *   together (`process.env.X || '30m'`); a default the code set elsewhere then, or never, says
 *   nothing.
 * - It no longer holds when no code file that holds the name now holds the value anywhere: the
 *   value moved with the name or changed. A name held by no code file now is name-loss's to
 *   report (name-lines.ts), not this rule's.
 * - Values of one character, and `true`/`false`/`null`, are in every file: never taken. A value
 *   out of back-ticks is taken only with a digit or a sign in it (`30m`, `data/x.json`).
 */
import { findCodeSpans } from './code-spans'

export interface DefaultClaim {
  /** The setting: an identifier of at least three characters. */
  readonly name: string
  /** Its default, as the code would write it (a code span's content, or a bare token). */
  readonly value: string
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{2,}$/
/** The words after a name's span that give its default: `(default `, ` defaults to `, `, default: `. */
const LEAD_RE = /^\s*(?:\(|,|;|—|-)?\s*(?:the\s+)?defaults?(?:\s+(?:to|is|of))?\s*[:=]?\s*/i
/** A default out of back-ticks, after those words: `(default 30m)`, `defaults to 8080.` */
const BARE_RE = /^[\w./@:-]*\w/
const TRIVIAL = new Set(['true', 'false', 'null', 'none', 'nil', 'undefined', 'yes', 'no'])

/** The defaults a note gives named settings, each as the name in back-ticks and its value. */
export function defaultClaims(text: string): DefaultClaim[] {
  const spans = findCodeSpans(text)
  const out: DefaultClaim[] = []
  for (let k = 0; k < spans.length; k++) {
    const s = spans[k]
    const name = text.slice(s.contentStart, s.contentEnd).trim()
    if (!NAME_RE.test(name)) continue
    const next = spans[k + 1]
    const gap = text.slice(s.end, next?.start ?? text.length)
    const lead = LEAD_RE.exec(gap)
    if (!lead) continue
    const rest = gap.slice(lead[0].length)
    let value: string | null = null
    // Only the words before the next span: it is the default.
    if (next && rest === '') value = text.slice(next.contentStart, next.contentEnd).trim()
    else {
      const bare = BARE_RE.exec(rest)
      // A bare word is prose ("defaults to the first"): a bare value has a digit or a sign.
      if (bare && !lead[0].includes('\n') && /[\d./@:_-]/.test(bare[0])) value = bare[0]
    }
    if (value === null || value.length < 2 || TRIVIAL.has(value.toLowerCase())) continue
    out.push({ name, value })
  }
  return out
}

/** Whether a code line sets the name's default to the value: it holds both. */
export function setsDefault(c: DefaultClaim, line: string): boolean {
  return line.includes(c.value) && new RegExp(`(?<![\\w$])${c.name}(?![\\w$])`).test(line)
}
