/**
 * Options a note passes to a script file it names (src/core/audit/script-options.ts) that the
 * file held when the note was written and lacks now: a reason the note is suspect
 * (claim-flips.ts), naming the file and the commit the note is read against.
 */
import { holdsOption, scriptOptions } from '../../core/audit/script-options'
import { short, tick } from '../../core/audit/reason-text'
import { showAt } from '../git/history'
import type { SaidNote } from './count-flips'
import { resolvedPath } from './repo-file'

const SHOW_MAX_BYTES = 2 * 1024 * 1024

/** Reasons an option the note passes to a script is gone from it (empty: none). */
export async function optionFlips(
  root: string,
  head: string,
  then: string,
  ask: SaidNote,
  factsRoot: string,
): Promise<string[]> {
  const options = scriptOptions(
    ask.text,
    ask.checked.map((c) => c.ref),
  )
  const out: string[] = []
  const texts = new Map<string, Promise<[string | null, string | null]>>()
  for (const o of options) {
    const rel = resolvedPath(ask.checked, o.path, factsRoot)
    if (rel === null) continue
    let both = texts.get(rel)
    if (!both) texts.set(rel, (both = readBoth(root, [then, head], rel)))
    const [before, now] = await both
    if (before === null || now === null) continue
    if (!holdsOption(before, o.option) || holdsOption(now, o.option)) continue
    out.push(
      `the note passes ${tick(o.option)} to ${tick(rel)}: the file held it when the note was written (${short(then)}), not now`,
    )
  }
  return out
}

/** A file's text at the note's commit and now (null: not there, or unreadable). */
async function readBoth(
  root: string,
  [then, head]: readonly [string, string],
  rel: string,
): Promise<[string | null, string | null]> {
  const [a, b] = await Promise.all([then, head].map((r) => showAt(root, r, rel, SHOW_MAX_BYTES)))
  return [a.ok ? a.text : null, b.ok ? b.text : null]
}
