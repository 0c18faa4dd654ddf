import { describe, expect, it } from 'vitest'
import { parseIndexEntries, resolveIndexTarget } from '../../../../src/core/memory/index-entries'

describe('parseIndexEntries', () => {
  it('parses the 2.1.x entry format with its hook', () => {
    const text = '# Memory\n\n## Project\n- [Build setup](build-setup.md) — npm ci before tests\n'
    expect(parseIndexEntries(text)).toEqual([
      { line: 4, title: 'Build setup', target: 'build-setup.md', hook: 'npm ci before tests' },
    ])
  })

  it('accepts *, + and numbered bullets, indentation and other separators', () => {
    const text = [
      '* [Star](star.md) - with hyphen',
      '+ [Plus](plus.md): with colon',
      '    - [Nested](nested.md) – en dash',
      '1. [Numbered](num.md)',
      '\t- [Tab](tab.md) | pipe',
    ].join('\n')
    expect(parseIndexEntries(text)).toEqual([
      { line: 1, title: 'Star', target: 'star.md', hook: 'with hyphen' },
      { line: 2, title: 'Plus', target: 'plus.md', hook: 'with colon' },
      { line: 3, title: 'Nested', target: 'nested.md', hook: 'en dash' },
      { line: 4, title: 'Numbered', target: 'num.md', hook: '' },
      { line: 5, title: 'Tab', target: 'tab.md', hook: 'pipe' },
    ])
  })

  it('finds a link that is not first, angle-bracket targets, fragments and bracketed titles', () => {
    const text = [
      '- See [Deploy](deploy.md) before releasing',
      '- [My note](<my note.md>) — spaces',
      '- [Section](topic.md#how-to-apply) — fragment',
      '- [Fix [urgent] bug](fix-bug.md) — nested brackets',
      '- [draft] then [Real](real.md)',
      '- [Titled](t.md "a title") — with link title',
      '- [Parens](a_(b).md)',
      '- [Escaped \\] bracket](esc.md)',
    ].join('\n')
    expect(parseIndexEntries(text)).toEqual([
      { line: 1, title: 'Deploy', target: 'deploy.md', hook: 'before releasing' },
      { line: 2, title: 'My note', target: 'my note.md', hook: 'spaces' },
      { line: 3, title: 'Section', target: 'topic.md#how-to-apply', hook: 'fragment' },
      { line: 4, title: 'Fix [urgent] bug', target: 'fix-bug.md', hook: 'nested brackets' },
      { line: 5, title: 'Real', target: 'real.md', hook: '' },
      { line: 6, title: 'Titled', target: 't.md', hook: 'with link title' },
      { line: 7, title: 'Parens', target: 'a_(b).md', hook: '' },
      { line: 8, title: 'Escaped \\] bracket', target: 'esc.md', hook: '' },
    ])
  })

  it('keeps items without a link as entries with target null', () => {
    expect(
      parseIndexEntries('- plain note about `npm test`\n- ![img](pic.png) only an image\n'),
    ).toEqual([
      { line: 1, title: 'plain note about `npm test`', target: null, hook: '' },
      { line: 2, title: '![img](pic.png) only an image', target: null, hook: '' },
    ])
  })

  it('ignores links in code spans, lines in code fences, thematic breaks and non-items', () => {
    const text = [
      '- `[not](a-link.md)` but [yes](yes.md)', // 1
      '```md', // 2
      '- [In fence](fenced.md)', // 3
      '```', // 4
      '~~~~', // 5
      '- [Tilde](tilde.md)', // 6
      '~~~', // 7 shorter: does not close
      '~~~~', // 8 closes
      '- - -', // 9 thematic break
      '* * *', // 10
      '[Loose](loose.md) not a list item', // 11
      '-[NoSpace](nospace.md)', // 12
      '-', // 13 empty item
      '- [After](after.md)', // 14
    ].join('\n')
    expect(parseIndexEntries(text)).toEqual([
      { line: 1, title: 'yes', target: 'yes.md', hook: '' },
      { line: 14, title: 'After', target: 'after.md', hook: '' },
    ])
  })

  it('counts \\r\\n as one line break', () => {
    expect(parseIndexEntries('# T\r\n\r\n- [A](a.md) — x\r\n- b\r\n')).toEqual([
      { line: 3, title: 'A', target: 'a.md', hook: 'x' },
      { line: 4, title: 'b', target: null, hook: '' },
    ])
  })

  it('stays linear on hostile lines (unclosed links, backticks, angle brackets)', () => {
    const hostile = ['[x]('.repeat(50_000), '[x](<'.repeat(40_000), 'a`b``c```'.repeat(20_000)]
    const started = Date.now()
    const entries = parseIndexEntries(hostile.map((h) => `- ${h}`).join('\n'))
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(entries.map((e) => e.target)).toEqual([null, null, null])
  })

  it('rejects angle destinations holding < and over-nested parentheses', () => {
    expect(parseIndexEntries('- [A](<a<b>.md) [B](b.md)\n')[0].target).toBe('b.md')
    const deep = '('.repeat(33) + 'x' + ')'.repeat(33)
    expect(parseIndexEntries(`- [A](${deep}) [B](b.md)\n`)[0].target).toBe('b.md')
    const ok = '('.repeat(32) + 'x' + ')'.repeat(32)
    expect(parseIndexEntries(`- [A](${ok})\n`)[0].target).toBe(ok)
  })

  it('treats an unclosed fence as running to the end', () => {
    expect(parseIndexEntries('- [A](a.md)\n```\n- [B](b.md)\n')).toEqual([
      { line: 1, title: 'A', target: 'a.md', hook: '' },
    ])
  })
})

describe('resolveIndexTarget', () => {
  it.each([
    ['topic.md', 'topic.md'],
    ['./topic.md', 'topic.md'],
    ['sub/x.md', 'sub/x.md'],
    ['sub/../x.md', 'x.md'],
    ['topic.md#why', 'topic.md'],
    ['topic.md?plain=1', 'topic.md'],
    ['my%20note.md', 'my note.md'],
    ['bad%zzescape%20x.md', 'bad%zzescape x.md'],
    ['caf%C3%A9.md', 'café.md'],
  ])('%s → %s', (target, expected) => {
    expect(resolveIndexTarget(target)).toBe(expected)
  })

  it.each([
    'https://example.com/x.md',
    'mailto:a@b.c',
    'file:///x.md',
    '//host/x.md',
    '#fragment-only',
    '',
    '/abs/x.md',
    '~/x.md',
    '../outside.md',
    'C:\\x.md',
  ])('%s names no topic file', (target) => {
    expect(resolveIndexTarget(target)).toBeNull()
  })
})
