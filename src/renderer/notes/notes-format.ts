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

/**
 * The line a reference's diff opens on: the lines a quote or a lost name held then (the basis's
 * `thenLines`), else, for a name or script, the first line of the before side holding it as a
 * whole word, else of the after side. `side` says which editor to scroll; undefined: the top.
 */
export function revealLine(d: {
  reference: { kind: string; text: string; compare?: { thenLines?: readonly [number, number] } }
  before: { text: string } | null
  after: { text: string } | null
}): { side: 'before' | 'after'; line: number } | undefined {
  const { reference: r } = d
  if (r.kind === 'snippet') return undefined
  const then = r.compare?.thenLines?.[0]
  if (then !== undefined) return { side: 'before', line: then }
  if (r.kind !== 'symbol' && r.kind !== 'command') return undefined
  // The last identifier of what the note wrote (`createSession()`, `Cart.applyCoupon`, `npm run lint`).
  const name = r.text.match(/[A-Za-z_$][\w$-]*(?=[^A-Za-z_$]*$)/)?.[0]
  if (!name) return undefined
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const word = new RegExp(`(^|[^\\w$])${escaped}($|[^\\w$-])`)
  for (const side of ['before', 'after'] as const) {
    const lines = d[side]?.text.split('\n') ?? []
    const i = lines.findIndex((l) => word.test(l))
    if (i >= 0) return { side, line: i + 1 }
  }
  return undefined
}
