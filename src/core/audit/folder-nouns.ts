/**
 * A count of a kind of item the repository keeps in a folder named after it, given in prose with
 * no path: "44 skill … 22 agent" beside `core/skills/` and `core/agents/` (blind set BF `vf-r06`,
 * `vf-t06`: 44 and 22 when the note was written, 45 and 23 since), "12 migrations". Pure:
 * src/node/audit/folder-noun-counts.ts finds the folders by name in the tree the note was
 * written on and counts their entries then and now (count-claims.ts `folderCounts`).
 *
 * Decisions:
 * - The noun, singular or plural, is the folder's name (`skill`, `skills`, `categories`); a
 *   count counts only where such a folder held exactly that many entries (or files, or folders)
 *   when the note was written, so a count of anything else says nothing.
 * - Counts under 3 match folders by chance; units and words no folder is named for are left
 *   out (noun-counts.ts NOT_COUNTED, and measures such as `px`).
 */
import { cutFences } from './note-fences'
import { NOT_COUNTED } from './noun-counts'

export interface FolderNounCount {
  readonly count: number
  /** As written ("44 skill"). */
  readonly written: string
  /** Folder names it may count, lower case (`skill`, `skills`). */
  readonly names: readonly string[]
}

const COUNT_RE = /(?<![\w.$#/:@~§¶,-])(\d{1,4})[ \t]+([A-Za-z][a-z]{2,})\b(?![ \t]*[/(:=%]|[.,]\d)/g

const BOUND_BEFORE_RE =
  /\b(?:max(?:imum)?|min(?:imum)?|up to|at (?:most|least)|limit(?:ed)?(?: to| of)?|cap(?:ped)?(?: at)?|no more than|(?:fewer|less|more) than)[ \t]*[:=]?[ \t]*$/i

export function folderNounCounts(text: string): FolderNounCount[] {
  const prose = cutFences(text).prose.replace(/`[^`\n]*`/g, (m) => ' '.repeat(m.length))
  const out: FolderNounCount[] = []
  for (const m of prose.matchAll(COUNT_RE)) {
    const count = Number(m[1])
    const word = m[2].toLowerCase()
    if (count < 3 || NOT_COUNTED.has(word) || NOT_COUNTED.has(`${word}s`)) continue
    // "Max 3 tasks", "up to 5 agents": a limit the code keeps, not how many the folder holds
    // (blind set BY: a pool's limit of 3 read as a folder's 3 files).
    if (BOUND_BEFORE_RE.test(prose.slice(Math.max(0, m.index - 20), m.index))) continue
    const singular = word.endsWith('ies')
      ? `${word.slice(0, -3)}y`
      : word.endsWith('s')
        ? word.slice(0, -1)
        : word
    const plural = singular.endsWith('y') ? `${singular.slice(0, -1)}ies` : `${singular}s`
    const names = [...new Set([word, singular, plural])]
    if (!out.some((c) => c.count === count && c.names.includes(word)))
      out.push({ count, written: `${m[1]} ${m[2]}`, names })
  }
  return out
}
