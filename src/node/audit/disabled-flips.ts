/**
 * Names a note says are switched off (src/core/audit/disabled-claims.ts) that every code line
 * naming them (in the files the note names, when it names some) held only in a comment when the
 * note was written (the entry commented out), and
 * that a code line of one of those files holds outside a comment now: switched back on since
 * (blind set BO: sitemap entries the note gives as disabled, uncommented in the index since).
 */
import { isCommentLine } from '../../core/audit/name-loss'
import { tick } from '../../core/audit/reason-text'
import { disabledNames } from '../../core/audit/disabled-claims'
import { grepLines, LINES_PER_PATTERN, type CodeLine } from './prose-grep'

const shown = (t: string): string => {
  const x = t.trim()
  return tick(x.length > 80 ? `${x.slice(0, 79)}…` : x)
}

/** Reasons a name the note gives as switched off is on now (empty: none, or still off). */
export async function disabledFlips(
  root: string,
  then: string,
  text: string,
  /** Files the note names (resolved now): when it names any, only their lines count. */
  named: readonly string[],
): Promise<string[]> {
  const names = disabledNames(text)
  if (names.length === 0) return []
  const [before, now] = await Promise.all([
    grepLines(root, then, { code: names, manifest: [] }),
    grepLines(root, null, { code: names, manifest: [] }),
  ])
  if (!before || !now) return []
  const out: string[] = []
  for (const name of names) {
    const inNamed = (l: CodeLine): boolean => named.length === 0 || named.includes(l.path)
    const was: readonly CodeLine[] = (before.code.get(name) ?? []).filter(inNamed)
    // Off then: named by comments only (a list cut at its bound says nothing).
    if (was.length === 0 || was.length >= LINES_PER_PATTERN) continue
    if (!was.every((l) => isCommentLine(l.text))) continue
    const files = new Set(was.map((l) => l.path))
    const on = (now.code.get(name) ?? []).find((l) => files.has(l.path) && !isCommentLine(l.text))
    if (!on) continue
    const off = was[was.length - 1]
    out.push(
      `the note gives ${tick(name)} as switched off: when it was written every code line naming it was a comment (${tick(off.path)}:${off.line} ${shown(off.text)}); ${tick(on.path)}:${on.line} holds it as code now (${shown(on.text)})`,
    )
  }
  return out
}
