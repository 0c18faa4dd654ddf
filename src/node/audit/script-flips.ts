/**
 * What a note says a package script runs, against the root package.json when the note was
 * written and now (src/core/audit/script-bodies.ts): a tool the script ran then and no longer
 * runs makes the note suspect, quoting the script now.
 */
import { scriptBodyClaims, scriptHolds } from '../../core/audit/script-bodies'
import { short, tick } from '../../core/audit/reason-text'
import { showAt } from '../git/history'

const SHOW_MAX_BYTES = 1024 * 1024

/** One reason per script whose tools, as the note gives them, it ran then and not now. */
export async function scriptFlips(
  root: string,
  head: string,
  then: string,
  text: string,
): Promise<string[]> {
  const claims = scriptBodyClaims(text)
  if (claims.length === 0) return []
  const [before, now] = await Promise.all([scriptsAt(root, then), scriptsAt(root, head)])
  if (!before || !now) return []
  const out: string[] = []
  for (const c of claims) {
    const was = before[c.script]
    const is = now[c.script]
    if (typeof was !== 'string' || typeof is !== 'string') continue
    const left = c.tools.filter((t) => scriptHolds(was, t) && !scriptHolds(is, t))
    if (left.length === 0) continue
    const body = is.length > 80 ? `${is.slice(0, 77)}…` : is
    out.push(
      `the note says ${tick(c.written)} runs ${left.map(tick).join(', ')}: package.json's \`${c.script}\` script did when the note was written (${short(then)}) and no longer does (now ${tick(body)})`,
    )
  }
  return out
}

/** The root package.json's scripts at a commit; null when unreadable. */
export async function scriptsAt(
  root: string,
  rev: string,
): Promise<Record<string, unknown> | null> {
  const shown = await showAt(root, rev, 'package.json', SHOW_MAX_BYTES)
  if (!shown.ok) return null
  try {
    const scripts = (JSON.parse(shown.text) as { scripts?: unknown }).scripts
    return scripts !== null && typeof scripts === 'object'
      ? (scripts as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}
