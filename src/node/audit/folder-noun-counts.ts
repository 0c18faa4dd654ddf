/**
 * Counts a note gives of a kind of item kept in a folder named after it ("44 skill", "12
 * migrations"; core/audit/folder-nouns.ts) that equalled that folder's entries when the note was
 * written and differ now. The trees come from prose-grep.ts `filesAt`, listed once per commit.
 */
import { folderNounCounts } from '../../core/audit/folder-nouns'
import { changedCounts, folderCounts, type Entry } from '../../core/audit/count-claims'
import { day, short, tick } from '../../core/audit/reason-text'
import { findCodeSpans } from '../../core/audit/code-spans'
import { cutFences } from '../../core/audit/note-fences'
import { historyRead } from '../git/history-read'
import { filesAt } from './prose-grep'

/** Claims read per note, and folders of one name compared per claim. */
const CLAIMS_MAX = 4
const FOLDERS_MAX = 3

/**
 * Every folder of a tree's file list with its direct entries (true: a folder), built once per
 * list (filesAt keeps one list per commit): a note's claims look folders up by name here, not
 * by splitting the tree's 5,000 paths again per claim (issue 16: that was 0.6 s of a cold audit).
 */
const folderIndex = new WeakMap<readonly string[], Map<string, Map<string, Folder>>>()

/** A folder: its path, its place among the tree's folders, and its direct entries. */
interface Folder {
  readonly dir: string
  readonly at: number
  readonly entries: Entry[]
}

/** A tree's folders by their own name, lower-cased: each folder's path and direct entries. */
function foldersOf(files: readonly string[]): Map<string, Map<string, Folder>> {
  const known = folderIndex.get(files)
  if (known) return known
  const kids = new Map<string, Map<string, boolean>>()
  for (const f of files) {
    let at = f.indexOf('/')
    while (at !== -1) {
      const next = f.indexOf('/', at + 1)
      const dir = f.slice(0, at)
      let k = kids.get(dir)
      if (!k) kids.set(dir, (k = new Map()))
      const kid = f.slice(at + 1, next === -1 ? undefined : next)
      k.set(kid, (k.get(kid) ?? false) || next !== -1)
      at = next
    }
  }
  const byName = new Map<string, Map<string, Folder>>()
  let at = 0
  for (const [dir, k] of kids) {
    const name = dir.slice(dir.lastIndexOf('/') + 1).toLowerCase()
    let named = byName.get(name)
    if (!named) byName.set(name, (named = new Map()))
    const entries = [...k].map(([kid, isDir]) => ({ name: kid, dir: isDir }))
    named.set(dir, { dir, at: at++, entries })
  }
  folderIndex.set(files, byName)
  return byName
}

/** Each folder whose name is one of `names`, with its direct entries, in a tree's file list. */
function foldersNamed(files: readonly string[], names: ReadonlySet<string>): Map<string, Entry[]> {
  const byName = foldersOf(files)
  const found = [...names].flatMap((n) => [...(byName.get(n)?.values() ?? [])])
  // In the order the tree lists them, as one pass over its paths would find them.
  return new Map(found.sort((a, b) => a.at - b.at).map((f) => [f.dir, f.entries]))
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

const extOf = (f: string): string => /\.([^./]+)$/.exec(f)?.[1] ?? ''
const stemOf = (f: string): string => f.slice(f.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '')

/** Back-ticked bare names read as folders per note, at most. */
const WORDS_MAX = 6

/** A note's back-ticked bare names (`sitemap`, `geo-check`): no slash, dot or space. */
function tickedNames(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const s of findCodeSpans(prose)) {
    const w = prose.slice(s.contentStart, s.contentEnd).trim()
    if (/^[A-Za-z][\w-]{2,40}$/.test(w) && !out.includes(w)) out.push(w)
  }
  return out.slice(0, WORDS_MAX)
}

/**
 * Back-ticked bare names that were a folder's name when the note was written (a function of
 * `supabase/functions/sitemap/`, listed as `sitemap`) and that no folder, nor a file of that name and
 * of a kind the folder held (`sitemap.ts`), has now: the folder went, and the note still lists it (blind set BO: an edge
 * function deleted since). Named with the commit that moved or deleted its first file.
 */
export async function folderWordFlips(
  root: string,
  head: string,
  then: string,
  text: string,
): Promise<string[]> {
  const words = tickedNames(text)
  if (words.length === 0) return []
  const [before, after] = await Promise.all([filesAt(root, then), filesAt(root, head)])
  if (!before || !after) return []
  const h = historyRead(root, head)
  const thenAt = h?.commits.find((c) => c.sha === then)
  const out: string[] = []
  for (const w of words) {
    const key = w.toLowerCase()
    const was = [...(foldersOf(before).get(key)?.values() ?? [])].filter(
      (f) => f.dir.slice(f.dir.lastIndexOf('/') + 1) === w,
    )
    if (was.length === 0) continue
    const still = [...(foldersOf(after).get(key)?.values() ?? [])].some(
      (f) => f.dir.slice(f.dir.lastIndexOf('/') + 1) === w,
    )
    // Several folders of that name then (`apps/wms/`, `apps/medusa/src/modules/wms/`): which one
    // the note meant does not matter when none is left (blind set CJ `ly-r10`). Named by the one
    // nearest the root.
    const dirs = was.map((f) => f.dir)
    const dir = dirs.reduce((a, b) => (a.split('/').length <= b.split('/').length ? a : b))
    const inside = (f: string): boolean => dirs.some((d) => f.startsWith(`${d}/`))
    // A file of that name and of a kind the folder held (`sitemap.ts` for `sitemap/index.ts`)
    // may be where it went: `public/sitemap.xml` is not.
    const kinds = new Set(before.filter(inside).map(extOf))
    const named = after.some((f) => stemOf(f) === w && kinds.has(extOf(f)))
    if (still || named) continue
    const first = before.find((f) => f.startsWith(`${dir}/`))
    const leave =
      first && thenAt
        ? h?.leaves
            .get(first)
            ?.filter((l) => l.order < thenAt.order)
            .at(-1)
        : undefined
    const how = leave
      ? `: ${tick(first!)} was ${leave.kind === 'renamed' ? `moved to ${tick(leave.to)}` : 'deleted'} in ${short(leave.sha)} on ${day(leave.date)}`
      : ''
    out.push(
      `${tick(w)} was the folder ${tick(`${dir}/`)} when the note was written (${short(then)}); no folder or file has that name now${how}`,
    )
  }
  return out
}
