/**
 * A name as a whole word of a line of code (src/node/audit/candidate-lines.ts, pickaxe.ts):
 * identifier characters on neither side, but a constant's shell sigil before it, and a
 * constant's prefix may run on.
 */
import { escapeRe, isPrefixName } from './prose-names'

/** `$` before a constant's name: a shell's (or a Makefile's, PHP's) sigil, not part of the name. */
const SIGIL_OK = '(?<=^|[^\\w$]|(?:^|[^\\w$])\\$)'

/**
 * A name as a whole word of a code line (no identifier character beside it), a constant's prefix
 * at a word's start; a constant's (`SKIP_LINT`) after a shell's `$` too (`"$SKIP_LINT"`: blind
 * set AJ, a hook's variable read as gone from the code).
 */
export function wordRe(name: string): RegExp {
  const before = /^[A-Z][A-Z0-9_]*$/.test(name) ? SIGIL_OK : '(?<![\\w$])'
  // A prefix (`METATRON_`) is held by the names it starts (`METATRON_DB_URL`).
  const after = isPrefixName(name) ? '' : '(?![\\w$])'
  return new RegExp(`${before}${escapeRe(name)}${after}`)
}
