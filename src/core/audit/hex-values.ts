/**
 * Hexadecimal values a note gives: a literal (`0x296`) or a colour (`#0a1628`). Pure:
 * src/node/audit/prose-candidates.ts checks each as text only code holds.
 */
import { cutFences } from './note-fences'

/** `0x296`, `0x7E0`: a hexadecimal literal of at least three digits, standing alone. */
const HEX_RE = /(?<![\w.$#])0[xX][0-9A-Fa-f]{3,16}(?![\w.])/g
/** `#0a1628`, `#3b82f6cc`: a colour written in hexadecimal. */
const COLOUR_RE = /(?<![\w&#])#(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{6})(?![\w-])/g

/**
 * Hexadecimal values a note gives, in prose or back-ticked ("the EPAS18 frame is 0x296"): as
 * distinctive as a name, so checked as text only code holds (src/node/audit/prose-candidates.ts).
 * Held by a code line when the note was written and by none now, the value moved (blind set U: a
 * CAN message id 0x296 the protocol header now defines as 0x298, in notes that back-tick nothing).
 */
export function hexValues(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const m of prose.matchAll(HEX_RE)) if (!out.includes(m[0])) out.push(m[0])
  // A colour of six or eight digits with a letter among them (`#0a1628`): an issue's number has
  // none. Blind set CA: a card's gradient, restyled since, its colours in no file now.
  for (const m of prose.matchAll(COLOUR_RE))
    if (/[a-f]/i.test(m[0]) && !out.includes(m[0])) out.push(m[0])
  return out
}
