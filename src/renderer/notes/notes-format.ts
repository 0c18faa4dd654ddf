/** How notes are shown: where a date came from, which reasons to list, paths and renames in a note's own words. */
import type { AuditNote, AuditReference } from '../../shared/model'

/** Where `writtenAt` came from, in words (the audit names the source; the reason line says the same). */
export function writtenAtSource(note: AuditNote): string | null {
  switch (note.writtenAtSource) {
    case 'transcript':
      return 'the session transcript that wrote it'
    case 'frontmatter':
      return 'the topic file’s frontmatter'
    case 'git-blame':
      return 'git blame (the last commit to these lines)'
    case 'mtime':
      return 'the file’s modification time (coarse: any later edit moves it)'
    default:
      return null
  }
}

/** The reasons worth showing as findings (the written-at line is shown on its own). */
export function findingReasons(note: AuditNote): readonly string[] {
  return note.reasons.filter((r) => !r.startsWith('written-at '))
}

/**
 * For a reference git saw renamed: the replacement text, written the way the note wrote
 * it (relative to the repository when the note used a relative path). Null when no rename.
 */
export function renameReplacement(
  ref: AuditReference,
  repoRoot: string | null,
): { from: string; to: string } | null {
  if (!ref.movedTo || ref.kind !== 'path') return null
  let to = ref.movedTo
  if (repoRoot && !ref.text.startsWith('/')) {
    const root = repoRoot.endsWith('/') ? repoRoot : `${repoRoot}/`
    if (to.startsWith(root)) to = to.slice(root.length)
    if (ref.text.startsWith('./')) to = `./${to}`
  }
  return to === ref.text ? null : { from: ref.text, to }
}

/** The path shown for a file: relative to the memory folder or the repository when inside one. */
export function shortPath(path: string, roots: readonly (string | null)[]): string {
  for (const root of roots) {
    if (!root) continue
    const r = root.endsWith('/') ? root : `${root}/`
    if (path.startsWith(r)) return path.slice(r.length)
  }
  return path
}

/**
 * The reference tab to open first: one that no longer holds and has something to compare,
 * else any with text on a side, else one that no longer holds, else the first.
 */
export function firstDiffTab(
  diffs: readonly { reference: { status: string }; before: unknown; after: unknown }[],
): number {
  const hasText = (d: (typeof diffs)[number]): boolean => d.before !== null || d.after !== null
  const broken = (d: (typeof diffs)[number]): boolean => d.reference.status !== 'ok'
  const order = [(d: (typeof diffs)[number]) => broken(d) && hasText(d), hasText, broken]
  for (const test of order) {
    const i = diffs.findIndex(test)
    if (i >= 0) return i
  }
  return 0
}
