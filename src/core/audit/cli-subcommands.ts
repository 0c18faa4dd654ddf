/**
 * The subcommands of the repository's own command-line tool a note runs (`ops sync pull`,
 * `mytool rm <name>`): a tool whose subcommands live one per file under its package's `cli/` or
 * `commands/` folder (`ops/cli/sync.py`, `mytool/src/commands/rm.ts`), the layout click, typer,
 * commander and oclif projects share. Each is checked as a member of those folders
 * (src/node/audit/prose-candidates.ts `Member`): a file there when the note was written and none
 * now, the subcommand is gone (blind set AA gs-r05: `ops sync pull` after the sync stack was
 * retired). Pure.
 *
 * Decisions:
 * - The first word of the span names the tool and must name a folder of the repository's layout
 *   too (checked by the folder path itself); any other tool (`git pull`, `npm ci`) matches no
 *   file and says nothing.
 * - The subcommand is the second word when it is a bare lower-case word; an option (`--force`),
 *   a placeholder (`<name>`) or a path is no subcommand.
 */
import { findCodeSpans } from './code-spans'
import { cutFences } from './note-fences'

/** Folders, under the tool's own folder, that hold one file per subcommand. */
export const SUBCOMMAND_FOLDERS = ['cli', 'commands', 'src/cli', 'src/commands'] as const

const COMMAND_RE = /^([a-z][a-z0-9_-]{1,30})[ \t]+([a-z][a-z0-9_-]{1,30})(?:[ \t].*)?$/

/** Each tool and subcommand a note's code spans run. */
export function cliSubcommands(text: string): { tool: string; sub: string }[] {
  const { prose } = cutFences(text)
  const out: { tool: string; sub: string }[] = []
  for (const s of findCodeSpans(prose)) {
    const m = COMMAND_RE.exec(
      prose
        .slice(s.contentStart, s.contentEnd)
        .trim()
        .replace(/^\$\s+/, ''),
    )
    if (!m || m[1] === m[2]) continue
    if (!out.some((x) => x.tool === m[1] && x.sub === m[2])) out.push({ tool: m[1], sub: m[2] })
  }
  return out
}
