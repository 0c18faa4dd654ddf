/**
 * Pathological texts for the reliability tests: inputs that are slow or explosive for naive
 * parsers (YAML alias bombs, bracket and backtick floods, deep paths, the replay bomb's edits).
 * Pure strings; the planted bad inputs reuse them as file contents.
 */

/** `n` lines made by `f`, each ending in a newline. */
export const lines = (n: number, f: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n'

/** YAML "billion laughs": nine levels of nine aliases (9^9 strings if expanded). */
export function aliasBomb(): string {
  const out = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  const names = 'abcdefghi'
  for (let i = 1; i < names.length; i++) {
    const prev = names[i - 1]!
    out.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(',')}]`)
  }
  return out.join('\n')
}

/** Named pathological texts: run through every pure parser, and planted as files below. */
export const PATHOLOGICAL_TEXTS: readonly { readonly id: string; readonly text: string }[] = [
  { id: 'nested-brackets-50k', text: '['.repeat(50_000) + 'x' + ']('.repeat(25_000) + '\n' },
  { id: 'nested-brackets-lines', text: lines(2000, () => '- ' + '['.repeat(30) + 'a](b.md)') },
  { id: 'emphasis-50k', text: '*'.repeat(50_000) + 'a' + '_'.repeat(50_000) + '\n' },
  { id: 'emphasis-mixed', text: '*_'.repeat(30_000) + 'x\n' },
  {
    id: 'open-comment',
    text: '# Memory\n\n<!-- never closed\n' + lines(5000, (i) => `- [n${i}](n${i}.md) — hook`),
  },
  { id: 'backticks-50k', text: '`'.repeat(50_000) + '\n' + '```\n'.repeat(5000) },
  {
    id: 'backtick-runs',
    text: lines(5000, (i) => '`'.repeat((i % 40) + 1) + ' @a.md ' + '`'.repeat(((i + 7) % 40) + 1)),
  },
  {
    id: 'at-imports-50k',
    text: Array.from({ length: 50_000 }, (_, i) => `@f${i}.md`).join(' ') + '\n',
  },
  { id: 'links-100k', text: '[a](b) '.repeat(100_000) + '\n' },
  { id: 'html-tags', text: '<div>'.repeat(30_000) + '\n' + '<a href="'.repeat(10_000) + '\n' },
  { id: 'single-line-2mb', text: 'x'.repeat(2 * 1024 * 1024) },
  { id: 'crlf-and-cr', text: '- [a](a.md)\r\n'.repeat(5000) + '\r'.repeat(50_000) },
  { id: 'nul-bytes', text: '# Memory\n\u0000\u0000- [a](a.md)\u0000\n' },
  { id: 'lone-surrogates', text: '# \uD800 memory \uDFFF\n- [\uD83D](x.md) — \uFFFF\n' },
  { id: 'frontmatter-alias-bomb', text: `---\n${aliasBomb()}\n---\nbody\n` },
  {
    id: 'frontmatter-unclosed',
    text: '---\nname: x\ndescription: never closed\n' + lines(3000, (i) => `line ${i}`),
  },
  {
    id: 'frontmatter-deep',
    text: '---\nx: ' + '['.repeat(20_000) + ']'.repeat(20_000) + '\n---\n',
  },
  { id: 'frontmatter-huge', text: '---\n' + lines(20_000, (i) => `k${i}: v${i}`) + '---\n' },
  { id: 'paths-brace-bomb', text: '---\npaths: "' + '{a,b}'.repeat(40) + '"\n---\nrule\n' },
  {
    id: 'regex-backtrack',
    text: '`' + 'a/'.repeat(20_000) + '`\n' + '"' + ' '.repeat(50_000) + '\n',
  },
]

/**
 * The replay bomb of issue 11 item 8: one ~4 KB MultiEdit of 40 `replace_all` edits `x`→`xx`,
 * after a Write of `x`. Replayed naively the text doubles 40 times (2^40 characters) and V8
 * dies with a fatal error that no try/catch sees.
 */
export const REPLAY_BOMB_EDITS = 40
export function replayBombInput(): {
  readonly edits: { old_string: string; new_string: string; replace_all: boolean }[]
} {
  return {
    edits: Array.from({ length: REPLAY_BOMB_EDITS }, () => ({
      old_string: 'x',
      new_string: 'xx',
      replace_all: true,
    })),
  }
}

/** Backticks on one line, after text so it is no fence: the quadratic input of the old code-span regex. */
export function backtickFlood(count: number): string {
  return `x ${'`'.repeat(count)}\n`
}

/** `a/a/a/…/x.ts` with `depth` components: each too many for a path lookup (issue 11, item 8). */
export function deepPath(depth: number): string {
  return `${'a/'.repeat(depth)}x.ts`
}
