/**
 * A count a note gives beside a glob of files ("| Skills | 8 | `skills/*\/SKILL.md` |"): the
 * files the glob matched when the note was written, and now (issue 12: counts that changed;
 * blind set AA ab-t04, 8 skills then and 15 now). A glob is no checked reference (the audit
 * leaves patterns unchecked), so its counts are read from the note's own references here. The
 * glob is matched as prose-candidates.ts `matcher` matches a note's globs; the trees come from
 * prose-grep.ts `filesAt`, listed once per commit for every note that asks.
 */
import { countClaims } from '../../core/audit/count-claims'
import { short, tick } from '../../core/audit/reason-text'
import { extractReferences } from '../../core/audit/references'
import { matcher } from './prose-candidates'
import { filesAt } from './prose-grep'

/**
 * The reasons counts beside a note's globs flag it: a glob matched the number of files the
 * note gives at the note's commit, and a different number now. A number it did not match then
 * counted something else and says nothing.
 */
export async function globCountFlips(
  root: string,
  head: string,
  then: string,
  text: string,
): Promise<string[]> {
  if (!text.includes('*')) return []
  const globs = extractReferences(text).filter((r) => r.kind === 'path' && r.pattern)
  const claims = globs.length === 0 ? [] : countClaims(text, globs)
  if (claims.length === 0) return []
  const [before, now] = await Promise.all([filesAt(root, then), filesAt(root, head)])
  if (!before || !now) return []
  const out: string[] = []
  for (const claim of claims) {
    const is = matcher(claim.path)
    const count = (files: readonly string[]): number => files.filter((f) => is(f)).length
    const [a, b] = [count(before), count(now)]
    if (a !== claim.count || b === a) continue
    out.push(
      `the note counts ${claim.written} beside ${tick(claim.path)}: it matched ${a} files when the note was written (${short(then)}), ${b} now`,
    )
  }
  return out
}
