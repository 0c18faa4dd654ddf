/**
 * Options a note passes to a repository script it runs by its file (`uv run run_cpp_tests.py
 * -gamever <v> [-fixheader]`, `node scripts/build.mjs --watch`). A script's options are text of
 * its own file (argparse's `add_argument("-fixheader")`, a `case --watch)` arm): an option the
 * file held when the note was written and lacks now was dropped under the note (blind set EC
 * cs-r08). src/node/audit/option-flips.ts reads the file then and now. Pure.
 *
 * Decisions:
 * - Only words after the file's name on the same line count, up to the end of that command
 *   (`&&`, `;`, `|`, a `#` comment); brackets of optional parts and a value after `=` are cut.
 * - Options of fewer than three letters (`-v`, `-h`) and `--help` say too little to count.
 */
import type { Reference } from './reference'

/** Script files whose options are read from their own text. */
const SCRIPT_RE = /\.(?:py|js|mjs|cjs|ts|mts|sh|bash|ps1|rb|pl)$/i
const OPTION_RE = /^--?[A-Za-z][\w-]{2,}$/

export interface ScriptOption {
  /** The path reference's path, as the note's reference gives it. */
  readonly path: string
  /** The option as written, without brackets or value (`-fixheader`, `--watch`). */
  readonly option: string
}

/** Each option the note passes to a script file it names on the same line. */
export function scriptOptions(text: string, refs: readonly Reference[]): ScriptOption[] {
  const files = refs.filter(
    (r): r is Extract<Reference, { kind: 'path' }> =>
      r.kind === 'path' && !r.dir && !r.pattern && SCRIPT_RE.test(r.path),
  )
  if (files.length === 0) return []
  const out: ScriptOption[] = []
  for (const line of text.split(/\r?\n/))
    for (const f of files) {
      const at = line.indexOf(f.text)
      if (at === -1) continue
      const rest = line.slice(at + f.text.length).split(/\s(?:&&|\|\|?|;|#)|`/)[0]
      for (const raw of rest.split(/\s+/)) {
        const option = raw.replace(/^[[(]+|[\])|,]+$/g, '').replace(/=.*$/, '')
        if (!OPTION_RE.test(option) || option === '--help') continue
        if (!out.some((o) => o.path === f.path && o.option === option))
          out.push({ path: f.path, option })
      }
    }
  return out
}

/** Whether a script's text holds the option as a whole word (`-fix` is not `-fixheader`). */
export function holdsOption(script: string, option: string): boolean {
  const escaped = option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`).test(script)
}
