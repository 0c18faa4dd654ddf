/** `cutoff <MEMORY.md>` (docs/cli.md): what of a MEMORY.md loads at session start. */
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Command } from '../args'
import { cutoffFile } from '../../node/memory/cutoff-file'
import { emit, InputError } from '../input'
import { cutoffReport } from '../report'

export async function run(cmd: Extract<Command, { kind: 'cutoff' }>): Promise<number> {
  // cutoff only consults the homes: a --claude-home that does not exist is not an error here.
  const file = resolve(cmd.file)
  try {
    const st = await stat(file)
    if (st.isDirectory()) throw new InputError(`${file}: is a directory, not a MEMORY.md file`)
  } catch (err) {
    if (err instanceof InputError) throw err
    const code = (err as NodeJS.ErrnoException).code
    throw new InputError(
      `${file}: ${code === 'ELOOP' ? 'symlink loop' : code === 'ENOENT' ? 'no such file' : `cannot stat (${code})`}`,
    )
  }
  const r = await cutoffFile(file)
  emit(cmd.global.json, r, () => cutoffReport(r))
  return 0
}
