/**
 * A count a note gives beside a glob of files ("| Skills | 8 | `skills/*\/SKILL.md` |"): the
 * files the glob matched when the note was written, and now (issue 12: counts that changed;
 * blind set AA ab-t04, 8 skills then and 15 now). A glob is no checked reference (the audit
 * leaves patterns unchecked), so its counts are read from the note's own references here. The
 * glob is matched as tree-match.ts `matcher` matches a note's globs; the trees come from
 * prose-grep.ts `filesAt`, listed once per commit for every note that asks.
 */
import { countAgrees, countClaims } from '../../core/audit/count-claims'
import { short, tick } from '../../core/audit/reason-text'
import { extractReferences } from '../../core/audit/references'
import { listCounts, listFolder } from '../../core/audit/list-counts'
import { matcher } from './tree-match'
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
  const globs = text.includes('*')
    ? extractReferences(text).filter((r) => r.kind === 'path' && r.pattern)
    : []
  const claims = globs.length === 0 ? [] : countClaims(text, globs)
  const lists = listCounts(text)
  if (claims.length + lists.length === 0) return []
  const [before, now] = await Promise.all([filesAt(root, then), filesAt(root, head)])
  if (!before || !now) return []
  const out: string[] = []
  for (const list of lists) {
    const f = listFolder(list, before, now)
    if (!f || f.now === list.count) continue
    const folder = tick(f.folder === '' ? '.' : `${f.folder}/`)
    out.push(
      `the note counts ${list.written} (${list.items.slice(0, 3).join(', ')}, …): ${folder} held ${list.count} \`${f.ext}\` files when the note was written (${short(then)}), ${f.now} now`,
    )
  }
  for (const claim of claims) {
    const agrees = (n: number): boolean => countAgrees(claim.count, claim.approx === true, n)
    const count = (glob: string, files: readonly string[]): number => {
      const is = matcher(glob)
      return files.filter((f) => is(f)).length
    }
    let glob = claim.path
    if (count(glob, before) === 0) {
      // A partial glob (`routes/*.js` for `backend/routes/*.js`): the one folder it sits in
      // whose count agreed then (blind set AB: about 40 route modules then, 67 now).
      const agreeing = [...partialCounts(glob, before)].filter(([, n]) => agrees(n))
      if (agreeing.length !== 1) continue
      glob = `${agreeing[0][0]}/${glob}`
    }
    const [a, b] = [count(glob, before), count(glob, now)]
    if (!agrees(a) || agrees(b)) continue
    const where = glob === claim.path ? 'it' : tick(glob)
    out.push(
      `the note counts ${claim.written} beside ${tick(claim.path)}: ${where} matched ${a} files when the note was written (${short(then)}), ${b} now`,
    )
  }
  return out
}

/**
 * The files a glob with a folder and no `**` matches below each folder of a tree, by that
 * folder (`backend` → 43 for `routes/*.js`); the top folder is not one of them.
 */
function partialCounts(glob: string, files: readonly string[]): Map<string, number> {
  const out = new Map<string, number>()
  if (!glob.includes('/') || glob.includes('**') || /^[*?[{]/.test(glob)) return out
  const depth = glob.split('/').length
  const is = matcher(`**/${glob}`)
  for (const f of files) {
    const parts = f.split('/')
    if (parts.length <= depth || !is(f)) continue
    const folder = parts.slice(0, -depth).join('/')
    out.set(folder, (out.get(folder) ?? 0) + 1)
  }
  return out
}
