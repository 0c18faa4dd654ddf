/**
 * Lists of bare lower-case names with no folder given (`| 🔴 CRITICAL | database, redis, qdrant,
 * jwt | Blocks startup |`): the names of one folder's files, found by the tree. Blind set AV: the
 * secrets a table lists are `infra/secrets/<name>.secret.example`; `qdrant`'s went with the vector
 * store. src/node/audit/prose-then.ts checks a name there when the note was written and in that
 * folder no more. Pure.
 *
 * Decisions:
 * - A whole table cell or a whole list item, four names or more, commas between them; a name
 *   written `a/b` is two. A sentence is not a list.
 * - The folder is the one holding most of the names as files (`qdrant.secret.example`) or as
 *   folders (`skills/qdrant/`), and it must hold two thirds of them and at least three: a few
 *   words a folder happens to share say nothing.
 */
import { cutFences } from './note-fences'
import { memberPaths } from './section-members'

const NAME = '[a-z][a-z0-9_-]*(?:/[a-z][a-z0-9_-]*)*'
const BARE_LIST_RE = new RegExp(
  String.raw`(?:^|\|)[ \t]*(?:[-*+][ \t]+)?(${NAME}(?:[ \t]*,[ \t]*${NAME}){3,})[ \t]*\.?[ \t]*(?=\||$)`,
  'gm',
)

/** The bare-name lists of a note's prose, each as its names. */
export function bareLists(text: string): string[][] {
  const out: string[][] = []
  for (const m of cutFences(text).prose.matchAll(BARE_LIST_RE)) {
    const names = [...new Set(m[1].split(/[ \t]*[,/][ \t]*/).map((x) => x.trim()))]
    if (names.length >= 4) out.push(names)
  }
  return out
}

/** The folder of these paths holding the names (see the decisions above), or null. */
export function listFolder(paths: Iterable<string>, names: readonly string[]): string | null {
  const want = new Set(names)
  const by = new Map<string, Set<string>>()
  const add = (dir: string, name: string): void => {
    if (!want.has(name)) return
    const set = by.get(dir)
    if (set) set.add(name)
    else by.set(dir, new Set([name]))
  }
  for (const p of paths) {
    const parts = p.split('/')
    add(parts.slice(0, -1).join('/'), parts[parts.length - 1].split('.')[0])
    if (parts.length >= 2) add(parts.slice(0, -2).join('/'), parts[parts.length - 2])
  }
  let best: string | null = null
  let most = 0
  for (const [dir, set] of by)
    if (set.size > most || (set.size === most && best !== null && dir.length < best.length)) {
      best = dir
      most = set.size
    }
  return best !== null && most >= 3 && most * 3 >= want.size * 2 ? best : null
}

/** Whether the folder of `paths` holding the list (listFolder) has this name in it. */
export function heldInList(
  paths: readonly string[],
  names: readonly string[],
  item: string,
): boolean {
  const folder = listFolder(paths, names)
  return folder !== null && memberPaths(paths, { folder, item }).length > 0
}
