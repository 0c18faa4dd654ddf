/**
 * When a change reached the note's branch. A line held at the commit a note was written on and
 * gone now left after the note, whatever the date of the commit that removed it: that commit may
 * sit on a branch made before the note and merged after it (blind set CF: a class removed on a
 * branch at 11:44, a note written on main at 11:53, the branch merged at 11:54). The merge that
 * brought it into HEAD's first-parent line is then the change's date for the note.
 */
import { runGit } from '../git/run'
import type { CodeChange } from './pickaxe'

const TIMEOUT_MS = 60_000
const MAX_BYTES = 16 * 1024 * 1024

/**
 * `change` when it came after `afterMs`; else the commit that merged it into HEAD's first-parent
 * line, when that came after `afterMs`; else `change` as it was (git could not say).
 */
export async function reachedAfter(
  root: string,
  change: CodeChange,
  afterMs: number,
): Promise<CodeChange> {
  if (change.ms > afterMs) return change
  const r = await runGit(
    ['log', '--first-parent', '--ancestry-path', '--format=%H%x1f%cI', `${change.sha}..HEAD`],
    { cwd: root, timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES },
  )
  const last = r.code === 0 ? r.stdout.trim().split('\n').pop() : undefined
  const [sha, date] = (last ?? '').split('\x1f')
  const ms = date ? Date.parse(date) : NaN
  return sha && ms > afterMs ? { sha, ms, date } : change
}
