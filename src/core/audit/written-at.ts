/**
 * When a note was written, and how we know: the source order lives in
 * src/node/audit/judge-notes.ts (transcript, frontmatter, git blame, file mtime); this
 * module reads frontmatter dates and words the reason line.
 */

/** When a note was written, and how we know. */
export interface WrittenAt {
  readonly iso: string
  readonly ms: number
  readonly source: 'transcript' | 'frontmatter' | 'git-blame' | 'mtime'
  /** The frontmatter key, when the source is frontmatter. */
  readonly key?: string
}

/** Name the source of a written-at time, as a reason line. */
export function writtenAtReason(w: WrittenAt | null): string {
  if (!w) return 'written-at unknown: changes since the note cannot be seen'
  switch (w.source) {
    case 'transcript':
      return `written-at ${w.iso} from the session transcript that wrote it`
    case 'frontmatter':
      return `written-at ${w.iso} from frontmatter \`${w.key ?? 'date'}\``
    case 'git-blame':
      return `written-at ${w.iso} from git blame (the last commit to these lines)`
    case 'mtime':
      return `written-at ${w.iso} from file mtime (coarse: any later edit moves it)`
  }
}

/** When the frontmatter of a topic file says it was written; newest-meaning keys first. */
export function frontmatterWrittenAt(
  data: Readonly<Record<string, unknown>> | null,
): WrittenAt | null {
  if (!data) return null
  const keys = [
    'updated',
    'updatedAt',
    'updated_at',
    'lastUpdated',
    'last_updated',
    'modified',
    'lastModified',
    'date',
    'created',
    'createdAt',
    'created_at',
    'timestamp',
  ]
  for (const key of keys) {
    const v = data[key]
    let ms = NaN
    if (v instanceof Date) ms = v.getTime()
    else if (typeof v === 'string') ms = Date.parse(v.trim())
    else if (typeof v === 'number') ms = v < 1e11 ? v * 1000 : v
    if (Number.isFinite(ms))
      return { iso: new Date(ms).toISOString(), ms, source: 'frontmatter', key }
  }
  return null
}
