/**
 * The members of a note's folder lists as the tree when the note was written shows them
 * (src/node/audit/prose-then.ts): a bare list's folder, found by its names (core/audit/bare-lists.ts),
 * and whether a labelled list was mostly in its folder then.
 */
import { listFolder } from '../../core/audit/bare-lists'
import { memberPaths } from '../../core/audit/section-members'
import type { Prepared } from './prepare-notes'
import type { Member } from './prose-candidates'

/** A bare list's name as a member of the folder holding the list then, when it is not there now. */
export function listMemberThen(p: Prepared, files: readonly string[], x: Member): Member | null {
  const folder = listFolder(files, x.siblings ?? [])
  const now = [...(p.state?.tracked ?? []), ...(p.state?.trackedDirs ?? [])]
  if (folder === null || memberPaths(now, { folder, item: x.item }).length > 0) return null
  const text = `${folder}/${x.item}`
  return { folder, item: x.item, ref: { kind: 'path', text, path: text, line: null, dir: false } }
}

/** A labelled list's member: two thirds of its list were in such a folder then, or it says nothing. */
export function mostlyHeld(files: readonly string[], m: Member): boolean {
  if (!m.siblings) return true
  const held = m.siblings.filter((item) => memberPaths(files, { ...m, item }).length > 0)
  return held.length * 3 >= m.siblings.length * 2
}
