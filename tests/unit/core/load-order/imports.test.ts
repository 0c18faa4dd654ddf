import { readFileSync } from 'node:fs'
import { describe, expect, it, test } from 'vitest'
import { boundNesting, findImports, resolveImport } from '../../../../src/core/load-order/imports'
import {
  ancestorsRootFirst,
  dirnameOf,
  isInsidePath,
  joinPath,
  normalizePath,
  relativeInside,
} from '../../../../src/core/paths'
import { CORPUS_ROOT, needsCorpus } from '../../../helpers/corpus'

const CORPUS = CORPUS_ROOT

describe('findImports', () => {
  test('takes @path only from plain text, after a line start or whitespace', () => {
    const src = [
      '# Title', // 1
      '', // 2
      'See @a.md and `@b.md` and mail a@b.com', // 3
      '', // 4
      '- `@docs/x.md` - in a code span', // 5
      '- item @c.md', // 6
      '  continued @d.md#section', // 7
      '', // 8
      '```', // 9
      '@e.md', // 10
      '```', // 11
      '', // 12
      '    @f.md', // 13
      '', // 14
      '<div>', // 15
      '@g.md', // 16
      '</div>', // 17
      '', // 18
      '> quote @h.md', // 19
      '', // 20
      '**b**@i.md <!-- @j.md --> [link @k.md](x) @~/x.md', // 21
      '@/ @/abs/p.md @my\\ file.md @@x @#frag', // 22
      '',
    ].join('\n')
    expect(findImports(src)).toEqual([
      { raw: 'a.md', path: 'a.md', line: 3 },
      { raw: 'c.md', path: 'c.md', line: 6 },
      { raw: 'd.md#section', path: 'd.md', line: 7 },
      { raw: 'h.md', path: 'h.md', line: 19 },
      { raw: 'k.md', path: 'k.md', line: 21 },
      { raw: '~/x.md', path: '~/x.md', line: 21 },
      { raw: '/abs/p.md', path: '/abs/p.md', line: 22 },
      { raw: 'my\\ file.md', path: 'my file.md', line: 22 },
    ])
  })

  test('an e-mail address is not an import', () => {
    expect(findImports('Write to a@b.com or ops@example.org.\n')).toEqual([])
  })

  test('fenced code with tildes and inline code spans are ignored', () => {
    const src = '~~~\n@fenced.md\n~~~\n\nUse ``@double.md`` here, then @./real.md\n'
    expect(findImports(src)).toEqual([{ raw: './real.md', path: './real.md', line: 5 }])
  })

  test('CRLF line breaks give the same line numbers', () => {
    const src = 'one\r\n\r\n@first.md\r\nthen @../up.md\r\n'
    expect(findImports(src)).toEqual([
      { raw: 'first.md', path: 'first.md', line: 3 },
      { raw: '../up.md', path: '../up.md', line: 4 },
    ])
  })

  test('corpus: back-ticked @docs/… in taglib-wasm CLAUDE.local.md are code spans', (ctx) => {
    needsCorpus(ctx)
    const text = readFileSync(`${CORPUS}/instructions/taglib-wasm-CLAUDE.local.md.excerpt`, 'utf8')
    expect(text).toContain('`@docs/claude-guidelines/code-standards.md`')
    expect(findImports(text)).toEqual([])
  })

  test('corpus: simonw CLAUDE.md imports AGENTS.md', (ctx) => {
    needsCorpus(ctx)
    const text = readFileSync(`${CORPUS}/instructions/simonw-CLAUDE.md`, 'utf8')
    expect(findImports(text)).toEqual([{ raw: 'AGENTS.md', path: 'AGENTS.md', line: 1 }])
  })

  test('the same import twice is reported twice (the load order skips the repeat)', () => {
    expect(findImports('@a.md @a.md\n')).toEqual([
      { raw: 'a.md', path: 'a.md', line: 1 },
      { raw: 'a.md', path: 'a.md', line: 1 },
    ])
  })
})

describe('resolveImport and path helpers', () => {
  test('resolves relative, ./, ../, ~/ and absolute paths', () => {
    const from = '/r/sub/CLAUDE.md'
    expect(resolveImport(from, 'a.md', '/home/u')).toBe('/r/sub/a.md')
    expect(resolveImport(from, './docs/b.md', '/home/u')).toBe('/r/sub/docs/b.md')
    expect(resolveImport(from, '../c.md', '/home/u')).toBe('/r/c.md')
    expect(resolveImport(from, '~/notes/d.md', '/home/u')).toBe('/home/u/notes/d.md')
    expect(resolveImport(from, '/etc/x.md', '/home/u')).toBe('/etc/x.md')
    expect(resolveImport(from, '../../../../e.md', '/home/u')).toBe('/e.md')
  })

  test('normalizePath, joinPath, dirnameOf', () => {
    expect(normalizePath('/a//b/./c/../d/')).toBe('/a/b/d')
    expect(normalizePath('a/../../b')).toBe('../b')
    expect(joinPath('/a', '', 'b', '../c')).toBe('/a/c')
    expect(dirnameOf('/a/b.md')).toBe('/a')
    expect(dirnameOf('/b.md')).toBe('/')
  })

  test('isInsidePath refuses prefix siblings', () => {
    expect(isInsidePath('/root/x', '/root')).toBe(true)
    expect(isInsidePath('/root', '/root')).toBe(true)
    expect(isInsidePath('/root-evil/x', '/root')).toBe(false)
    expect(isInsidePath('/anything', '/')).toBe(true)
  })

  test('ancestorsRootFirst and relativeInside', () => {
    expect(ancestorsRootFirst('/a/b/c')).toEqual(['/', '/a', '/a/b', '/a/b/c'])
    expect(ancestorsRootFirst('/')).toEqual(['/'])
    expect(relativeInside('/a/b/c.md', '/a')).toBe('b/c.md')
    expect(relativeInside('/ab/c.md', '/a')).toBeNull()
    expect(relativeInside('/a', '/a')).toBe('')
  })
})

describe('deeply nested markdown (hostile instruction files)', () => {
  it('finds the imports of 2,600 nested list levels (6.8 MB) on their own lines', () => {
    // Before the clamp, marked's recursive list lexing ran this out of heap.
    const text = Array.from({ length: 2600 }, (_, i) => ' '.repeat(i * 2) + `- @f${i}.md`).join(
      '\n',
    )
    const found = findImports(text)
    expect(found).toHaveLength(2600)
    expect(found[2599]).toEqual({ raw: 'f2599.md', path: 'f2599.md', line: 2600 })
  })

  it('finds the imports of lines 4,000 blockquotes deep', () => {
    const text = Array.from({ length: 20 }, (_, i) => '> '.repeat(4000) + `@q${i}.md`).join('\n')
    const found = findImports(text)
    expect(found.map((f) => f.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
  })

  it('leaves ordinary files exactly as written', () => {
    const ordinary =
      '# T\n\n- a\n  - b @x.md\n    - c\n\n> quote @y.md\n>> deeper\n\n        code @z.md\n'
    expect(boundNesting(ordinary)).toBe(ordinary)
    expect(findImports(ordinary).map((f) => f.path)).toEqual(['x.md', 'y.md'])
  })
})
