/**
 * Counts a note gives of a kind of item kept in a folder named after it ("44 skill", "12
 * migrations"; core/audit/folder-nouns.ts) that equalled that folder's entries when the note was
 * written and differ now. The trees come from prose-grep.ts `filesAt`, listed once per commit.
 */
import { folderNounCounts } from '../../core/audit/folder-nouns'
import { changedCounts, folderCounts, type Entry } from '../../core/audit/count-claims'
import { short, tick } from '../../core/audit/reason-text'
import { filesAt } from './prose-grep'

/** Claims read per note, and folders of one name compared per claim. */
const CLAIMS_MAX = 4
const FOLDERS_MAX = 3

/** Each folder whose name is one of `names`, with its direct entries, in a tree's file list. */
function foldersNamed(files: readonly string[], names: ReadonlySet<string>): Map<string, Entry[]> {
  const kids = new Map<string, Map<string, boolean>>()
  for (const f of files) {
    const parts = f.split('/')
    for (let i = 0; i < parts.length - 1; i++) {
      if (!names.has(parts[i].toLowerCase())) continue
      const dir = parts.slice(0, i + 1).join('/')
      let k = kids.get(dir)
      if (!k) kids.set(dir, (k = new Map()))
      k.set(parts[i + 1], (k.get(parts[i + 1]) ?? false) || i + 2 < parts.length)
    }
  }
  return new Map([...kids].map(([d, k]) => [d, [...k].map(([name, dir]) => ({ name, dir }))]))
}

export async function folderNounFlips(
  root: string,
  head: string,
  then: string,
  text: string,
): Promise<string[]> {
  const claims = folderNounCounts(text).slice(0, CLAIMS_MAX)
  if (claims.length === 0) return []
  const [before, after] = await Promise.all([filesAt(root, then), filesAt(root, head)])
  if (!before || !after) return []
  const out: string[] = []
  for (const claim of claims) {
    const names = new Set(claim.names)
    const thenDirs = foldersNamed(before, names)
    const nowDirs = foldersNamed(after, names)
    const held = [...thenDirs].filter(([, es]) =>
      [...folderCounts(es).values()].includes(claim.count),
    )
    for (const [dir, es] of held.slice(0, FOLDERS_MAX)) {
      const ch = changedCounts(
        claim.count,
        folderCounts(es),
        folderCounts(nowDirs.get(dir) ?? []),
      )[0]
      if (!ch) continue
      out.push(
        `the note counts ${claim.written}: ${tick(`${dir}/`)} held ${ch.then} ${ch.what} when the note was written (${short(then)}), ${ch.now} now`,
      )
      break
    }
  }
  return out
}
