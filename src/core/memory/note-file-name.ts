/**
 * Which file names are notes of a memory folder (docs/memory-rules.md §1.5): the case rule,
 * decided once for every feature — the listing (src/node/memory/memory-folder.ts) and the access
 * policy the window's calls pass (src/core/access-policy.ts).
 *
 * Decisions: a name ending in `.md` in any case (`NOTES.MD` counts: the agent reads any topic
 * file it is pointed at, and a person sees the same file).
 */
export function isNoteFileName(name: string): boolean {
  return name.length > 3 && name.toLowerCase().endsWith('.md')
}
