/**
 * TODO comments a note points at (src/core/audit/todo-pointers.ts) that the code held beside
 * their name when the note was written and holds beside it no more: the files holding the name
 * then, each read then and now.
 */
import { tick } from '../../core/audit/reason-text'
import { todoNames, todosBeside } from '../../core/audit/todo-pointers'
import { showAt } from '../git/history'
import { grepLines } from './prose-grep'
import { readRepoFile } from './repo-file'

const FILE_MAX_BYTES = 2 * 1024 * 1024
/** Files read per name, at most. */
const FILES_MAX = 4

const shown = (t: string): string => tick(t.length > 80 ? `${t.slice(0, 79)}…` : t)

/** Reasons the TODO comments a note points at are gone (empty: none pointed at, or kept). */
export async function todoFlips(root: string, then: string, text: string): Promise<string[]> {
  const names = todoNames(text)
  if (names.length === 0) return []
  const held = await grepLines(root, then, { code: names, manifest: [] })
  if (!held) return []
  const out: string[] = []
  for (const name of names) {
    const files = [...new Set((held.code.get(name) ?? []).map((l) => l.path))].slice(0, FILES_MAX)
    let before: { file: string; line: number; text: string } | null = null
    let kept = false
    for (const file of files) {
      const was = await showAt(root, then, file, FILE_MAX_BYTES)
      if (!was.ok) continue
      const todo = todosBeside(was.text, name)[0]
      if (!todo) continue
      before ??= { file, ...todo }
      // A file gone or unreadable now (a link out of the repository) says nothing.
      const now = await readRepoFile(root, file)
      if (!now.ok || todosBeside(now.text, name).length > 0) kept = true
    }
    if (before && !kept)
      out.push(
        `the note points at TODO comments beside ${tick(name)}: ${tick(before.file)}:${before.line} held ${shown(before.text)} when it was written; no TODO comment is beside it now (done since?)`,
      )
  }
  return out
}
