/**
 * A count a note gives with the list it counts ("String algorithms: 12 total (KMP, Boyer-Moore,
 * …)", "kmp, boyer_moore, …, trie = 11 modules"), where the listed names are a folder's files:
 * the count is that folder's, compared when the note was written and now (issue 12: counts that
 * changed; blind set AD zu-r09: 12 string algorithms then, 19 files since). Pure: the node layer
 * (src/node/audit/glob-counts.ts) lists the trees.
 *
 * Decisions:
 * - The list has as many names as the count, at least three, each short and bare (words,
 *   hyphens, underscores): a list of a different length counts something else.
 * - A name matches a file's stem in any case, with spaces, hyphens and underscores alike
 *   (`Boyer-Moore` is `boyer_moore.zig`).
 * - The folder is the one holding two thirds of the names as files when the note was written,
 *   whose files of that kind (index files aside: `mod.rs`, `index.ts`) numbered the count then.
 */

export interface ListCount {
  readonly count: number
  /** As written ("12 total", "11 modules"). */
  readonly written: string
  readonly items: readonly string[]
}

/** "12 total (a, b, c)", "12 algorithms (a, b, c)". */
const COUNT_THEN_LIST_RE =
  /\b(\d{1,3})[ \t]+((?:total|[a-z]+(?:[ \t][a-z]+)?))[ \t]*\(([^()\n]+)\)/g
/** "a, b, c = 11 modules". */
const LIST_THEN_COUNT_RE = /:[ \t]*([^:=\n]+?)[ \t]*=[ \t]*(\d{1,3})[ \t]+([a-z]+)/g
const ITEM_RE = /^[A-Za-z][\w -]{0,38}[A-Za-z0-9]$/
/** Stems of a folder's index files, which are no member of what it lists. */
const INDEX_STEMS = new Set(['mod', 'index', 'root', 'lib', 'main', '__init__'])

/** The counts a note gives with their lists. */
export function listCounts(text: string): ListCount[] {
  const out: ListCount[] = []
  const add = (count: number, written: string, list: string): void => {
    const items = list
      .split(',')
      .map((x) => x.trim().replace(/^`(.*)`$/, '$1'))
      .filter((x) => x !== '')
    if (count < 3 || items.length !== count || !items.every((x) => ITEM_RE.test(x))) return
    out.push({ count, written, items })
  }
  for (const m of text.matchAll(COUNT_THEN_LIST_RE)) add(Number(m[1]), `${m[1]} ${m[2]}`, m[3])
  for (const m of text.matchAll(LIST_THEN_COUNT_RE)) add(Number(m[2]), `${m[2]} ${m[3]}`, m[1])
  return out
}

const norm = (name: string): string => name.toLowerCase().replace(/[\s_-]+/g, '')

/** A tree's files by folder: each folder's direct files as [stem, extension]. */
function byFolder(files: readonly string[]): Map<string, [string, string][]> {
  const out = new Map<string, [string, string][]>()
  for (const f of files) {
    const slash = f.lastIndexOf('/')
    const name = f.slice(slash + 1)
    const dot = name.lastIndexOf('.')
    if (dot <= 0) continue
    const dir = slash < 0 ? '' : f.slice(0, slash)
    const list = out.get(dir) ?? []
    list.push([name.slice(0, dot), name.slice(dot)])
    out.set(dir, list)
  }
  return out
}

/** How many files of one extension a folder holds, index files aside. */
function filesOf(entries: readonly [string, string][] | undefined, ext: string): number {
  return (entries ?? []).filter(([stem, e]) => e === ext && !INDEX_STEMS.has(stem)).length
}

/**
 * The folder a list counted when the note was written and how many such files it holds now;
 * null when no folder's files were the list then.
 */
export function listFolder(
  claim: ListCount,
  then: readonly string[],
  now: readonly string[],
): { readonly folder: string; readonly ext: string; readonly now: number } | null {
  const wanted = new Set(claim.items.map(norm))
  let best: { folder: string; ext: string; hits: number } | null = null
  for (const [folder, entries] of byFolder(then)) {
    const hit = entries.filter(([stem]) => wanted.has(norm(stem)))
    if (hit.length * 3 < wanted.size * 2 || (best && hit.length <= best.hits)) continue
    best = { folder, ext: hit[0][1], hits: hit.length }
  }
  if (!best || filesOf(byFolder(then).get(best.folder), best.ext) !== claim.count) return null
  const later = byFolder(now).get(best.folder)
  if (!later) return null
  return { folder: best.folder, ext: best.ext, now: filesOf(later, best.ext) }
}
