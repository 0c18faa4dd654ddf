/**
 * What a note says a package script runs: "`pnpm build` (tsc)", "`npm test` (vitest)" (issue
 * 12: behaviour changed, names intact; blind set Z2: the build script went from `tsc` to a
 * `tsdown` chain while `pnpm build` stayed). Pure: src/node/audit/script-flips.ts reads the
 * script in package.json when the note was written and now.
 *
 * Decisions:
 * - Only a back-ticked run of a package script followed by a bracket; each word of the bracket
 *   is a tool the note says the script runs.
 * - A word counts only if the script held it (as a whole word) when the note was written: the
 *   bracket may say something else ("(watch mode)"), and then it is no claim.
 */
export interface ScriptBodyClaim {
  /** The command as written (`pnpm build`). */
  readonly written: string
  readonly script: string
  /** The words the note says the script runs. */
  readonly tools: readonly string[]
}

const CLAIM_RE =
  /`((?:npm|pnpm|yarn|bun)(?:\s+run)?\s+([A-Za-z][\w:.-]*))`\s*(?:[-—–:]\s*)?\(([^()\n]{2,60})\)/g
const TOOL_RE = /^[A-Za-z][\w.-]{1,30}$/

export function scriptBodyClaims(text: string): ScriptBodyClaim[] {
  const out: ScriptBodyClaim[] = []
  for (const m of text.matchAll(CLAIM_RE)) {
    const tools = m[3]
      .split(/[\s,+/&|;]+/)
      .map((w) => w.replace(/^[`'"]|[`'".]$/g, ''))
      .filter((w) => TOOL_RE.test(w))
    if (tools.length > 0 && !out.some((c) => c.script === m[2]))
      out.push({ written: m[1], script: m[2], tools })
  }
  return out
}

/** Whether a script's command line holds a word whole (`tsc` in `tsc -p x`, not in `tscw`). */
export function scriptHolds(body: string, word: string): boolean {
  const esc = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(?<![\\w-])${esc}(?![\\w-])`).test(body)
}
