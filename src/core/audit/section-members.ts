/**
 * A section whose heading names a folder (`## Skills (\`.claude/skills/\`)`), then lists the
 * folder's entries as a table or a list whose rows start with a bold or back-ticked bare name
 * (`| **php-pro** | Writing PHP … |`): each name is a member of that folder, checked like the
 * one-line folder lists of prose-names.ts `folderMembers` (src/node/audit/prose-then.ts: a file
 * or folder there when the note was written and in no folder of that name now). Blind set O: a
 * skills table whose skills were replaced. Pure.
 *
 * Decisions:
 * - Only a heading that holds exactly one back-ticked folder (ending in `/`) opens a section; the
 *   next heading closes it. A heading naming two folders says which rows go where no better than
 *   the rows do.
 * - A row counts only when its first cell (or the list item's start) is marked as a name, bold or
 *   back-ticked: a table's header row and plain words ("Skill", "etc") are not entries.
 * - At least two rows, as for a one-line list: one bold word under a heading is as likely a
 *   remark as an entry.
 */
import { cutFences } from './note-fences'

const HEADING_RE = /^[ \t]{0,3}#{1,6}[ \t]+(.*)$/
const FOLDER_SPAN_RE = /`([^`\s]+\/)`/g
/** `| **name** |`, `| \`name\` |`, `- **name** — …`, `* \`name\`: …` */
const ROW_RE =
  /^[ \t]*(?:\|[ \t]*|[-*+][ \t]+)(\*\*|`)([A-Za-z_][\w.-]*)\1(?=[ \t]*(?:\||[:\u2013\u2014-]|$|[ \t]))/

export function sectionMembers(text: string): { folder: string; items: string[] }[] {
  const out: { folder: string; items: string[] }[] = []
  let folder: string | null = null
  let items: string[] = []
  const close = (): void => {
    if (folder !== null && items.length >= 2) out.push({ folder, items: [...new Set(items)] })
    folder = null
    items = []
  }
  for (const line of cutFences(text).prose.split('\n')) {
    const h = HEADING_RE.exec(line)
    if (h) {
      close()
      const folders = [...h[1].matchAll(FOLDER_SPAN_RE)].map((m) => m[1])
      if (folders.length === 1) folder = folders[0].replace(/^\.\//, '')
      continue
    }
    if (folder === null) continue
    const row = ROW_RE.exec(line)
    if (row) items.push(row[2])
  }
  close()
  return out
}

/** `**Commands**: celebrate, memlog, new-task`, `- **Agents:** architect, dba, pm`. */
const LABEL_LIST_RE =
  /^[ \t]*(?:[-*+][ \t]+)?\*\*([A-Za-z][\w-]*)(:?)\*\*[ \t]*(:?)[ \t]*(\S[^\n]*)$/gm
/** One listed member: a file or folder name without its extension. */
const BARE_NAME_RE = /^[A-Za-z_][\w.-]*$/

/**
 * Lists a bold one-word label introduces (`**Commands**: celebrate, memlog, sync, triage`): the
 * label, lower-cased, as the folder the names are members of (`commands/sync.md`), as
 * {@link sectionMembers} does for a heading's folder. Blind set AA ab-r07: a command file
 * deleted since. The label only guesses the folder, so the node layer checks the members only
 * where most of them were in a folder of that name when the note was written
 * (src/node/audit/prose-then.ts).
 *
 * Decisions:
 * - At least three names, every one of them bare (no spaces, no prose): "**Stack**: React 19
 *   with Vite" is a sentence, not a listing.
 */
export function labelMembers(text: string): { folder: string; items: string[] }[] {
  const out: { folder: string; items: string[] }[] = []
  for (const m of cutFences(text).prose.matchAll(LABEL_LIST_RE)) {
    if (m[2] === '' && m[3] === '') continue
    const items = m[4]
      .replace(/[.;]+\s*$/, '')
      .split(/\s*,\s*/)
      .map((x) => x.trim().replace(/^`(.*)`$/, '$1'))
    if (items.length < 3 || !items.every((x) => BARE_NAME_RE.test(x))) continue
    out.push({ folder: m[1].toLowerCase(), items: [...new Set(items)] })
  }
  return out
}

/** What an agent's tool folder holds, by the word a note calls one entry (`the x skill`). */
const KIND_FOLDERS: Readonly<Record<string, string>> = {
  skill: 'skills',
  agent: 'agents',
  subagent: 'agents',
  command: 'commands',
  workflow: 'workflows',
}
const KINDS = Object.keys(KIND_FOLDERS).join('|')
/**
 * Folders whose entries run the same way: a command moved into a skill (`commands/review.md`
 * to `skills/review/SKILL.md`) still runs as `/review`, so the note still holds.
 */
const SAME_KIND: Readonly<Record<string, readonly string[]>> = {
  commands: ['skills'],
  skills: ['commands'],
}
/** "`memory-sync` skill", "the `reviewer` subagent", "skill `x`", "the `/deploy` command". */
const KIND_RE = new RegExp(
  String.raw`\`\/?([A-Za-z_][\w.-]*)\`[ \t]+(?:slash[ \t]+)?(${KINDS})s?\b|\b(${KINDS})[ \t]+\`\/?([A-Za-z_][\w.-]*)\``,
  'gi',
)

/**
 * Entries of an agent's tool folders a note names with their kind (`use the \`memory-sync\`
 * skill`): a member of a `skills/` (`agents/`, `commands/`, `workflows/`) folder, checked like
 * {@link sectionMembers}: there when the note was written and in no folder of that name now
 * (blind set AC cx-r14: a skill deleted and replaced by another).
 */
export function kindMembers(
  text: string,
): { folder: string; items: string[]; also?: readonly string[] }[] {
  const out: { folder: string; items: string[]; also?: readonly string[] }[] = []
  for (const m of cutFences(text).prose.matchAll(KIND_RE)) {
    const item = m[1] ?? m[4]
    const folder = KIND_FOLDERS[(m[2] ?? m[3]).toLowerCase()]
    const had = out.find((x) => x.folder === folder)
    if (had) {
      if (!had.items.includes(item)) had.items.push(item)
    } else {
      const also = SAME_KIND[folder]
      out.push({ folder, items: [item], ...(also ? { also } : {}) })
    }
  }
  return out
}

/** A bold kebab-case name: `**cn-brief-summary**`, `**ads-route**`. */
const BOLD_ENTRY_RE = /\*\*([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\*\*/g

/**
 * Bold kebab-case names (a skills table's `| **cn-brief-summary** | … |`), as entries of an
 * agent's tool folders, checked like {@link kindMembers}: they count only where such a folder had
 * the entry when the note was written (blind sets DS pa-t08, pa-t09 and DN oi-r14: skills deleted
 * under their rows).
 */
export function boldEntries(
  text: string,
): { folder: string; items: string[]; also?: readonly string[] }[] {
  const items = [...new Set([...cutFences(text).prose.matchAll(BOLD_ENTRY_RE)].map((m) => m[1]))]
  if (items.length === 0) return []
  return ['skills', 'commands', 'agents'].map((folder) => {
    const also = SAME_KIND[folder]
    return { folder, items, ...(also ? { also } : {}) }
  })
}

/** The paths of `paths` that are the member: `<…/>folder/item[.ext][/…]`. */
export function memberPaths(
  paths: Iterable<string>,
  m: { readonly folder: string; readonly item: string },
): string[] {
  const esc = (x: string): string => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const re = new RegExp(`(?:^|/)${esc(m.folder)}/${esc(m.item)}(?:\\.[^/]+)?(?:/|$)`)
  const out: string[] = []
  for (const p of paths) if (re.test(p)) out.push(p)
  return out
}
