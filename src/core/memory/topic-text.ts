/**
 * The text of a topic file an entry's detail is extracted into: whether a name can be one,
 * the short hook left on the index line, a title from a file name, dedented detail lines.
 */

/** Longest hook kept on an index line after extracting (our own choice, not an agent limit). */
const SHORT_HOOK_MAX = 120

/** Why `name` cannot be a new topic file, or null when it can. */
export function topicNameProblem(name: string): string | null {
  if (!name.endsWith('.md')) return `the topic file name ${JSON.stringify(name)} must end in .md`
  if (/[/\\]/.test(name))
    return `the topic file name ${JSON.stringify(name)} must be a plain file name, without folders`
  if (name.startsWith('.') || name.trim() !== name || name === '.md') {
    return `the topic file name ${JSON.stringify(name)} must not be hidden or start or end with spaces`
  }
  if (name.toLowerCase() === 'memory.md') return 'MEMORY.md is the index itself, not a topic file'
  return null
}

/** The first sentence of `text` on one line, cut at a word to at most SHORT_HOOK_MAX characters. */
export function shortHook(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim()
  const end = /[.!?](?=\s|$)/.exec(t)
  const s = end ? t.slice(0, end.index + 1) : t
  if (s.length <= SHORT_HOOK_MAX) return s
  let cut = s.slice(0, SHORT_HOOK_MAX - 1)
  const space = cut.lastIndexOf(' ')
  if (space > SHORT_HOOK_MAX / 2) cut = cut.slice(0, space)
  // Do not leave a code span open.
  if ((cut.match(/`/g) ?? []).length % 2 === 1) cut = cut.slice(0, cut.lastIndexOf('`'))
  return `${cut.trimEnd()}…`
}

/** A title from a file name: `build-setup.md` → `Build setup`. */
export function titleFromName(name: string): string {
  const stem = name.replace(/\.md$/, '').replace(/[-_]+/g, ' ').trim()
  return stem === '' ? name : stem[0].toUpperCase() + stem.slice(1)
}

/** Remove the indentation all non-blank lines share. */
export function dedent(lines: readonly string[]): string[] {
  const widths = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0)
  const min = widths.length > 0 ? Math.min(...widths) : 0
  return lines.map((l) => l.slice(Math.min(min, /^[ \t]*/.exec(l)?.[0].length ?? 0)))
}
