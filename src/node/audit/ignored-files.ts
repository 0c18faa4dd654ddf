/**
 * Config behind ignored files (issue 12 item 6): a `.env`-style file a note names is checked
 * when it is present, though git ignores it. `git grep` never reads ignored files, so the
 * words a note's symbols need (`OPENAI_API_KEY`) are looked for in those files here.
 *
 * Decisions:
 * - Only files the notes name and that exist on disk untracked are read; a few, each capped.
 * - What is in them is never shown or stored: only whether each word occurs, as a whole word.
 */
import { readRepoFile } from './repo-file'

/** Named ignored files read, at most. */
const IGNORED_FILES_MAX = 20
/** Bytes read of each. */
const IGNORED_FILE_MAX_BYTES = 256 * 1024

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Add to `wordFiles` each present, untracked file (of `files`) that holds one of `terms` as a
 * whole word. Files that cannot be read are left out.
 */
export async function searchIgnoredFiles(
  root: string,
  files: readonly string[],
  terms: readonly string[],
  wordFiles: Map<string, readonly string[]>,
): Promise<void> {
  if (files.length === 0 || terms.length === 0) return
  const wanted = [...new Set(terms)]
  for (const rel of files.slice(0, IGNORED_FILES_MAX)) {
    const r = await readRepoFile(root, rel, { maxBytes: IGNORED_FILE_MAX_BYTES })
    if (!r.ok) continue
    for (const t of wanted) {
      if (!new RegExp(`(?<![\\w$])${escape(t)}(?![\\w$])`).test(r.text)) continue
      const had = wordFiles.get(t) ?? []
      if (!had.includes(rel)) wordFiles.set(t, [...had, rel])
    }
  }
}
