/**
 * Comments and test titles cite only documents in the repository, and every
 * `docs/<page>.md §N` they cite exists (docs/architecture.md §4.9). The check itself is
 * scripts/docs/citations.mjs; scripts/docs/recite.mjs rewrites old citations.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  anchorsOf,
  citationProblems,
  codeFiles,
  docsCitations,
  formatProblem,
  outsideCitations,
  proseRanges,
} from '../../../scripts/docs/citations.mjs'

const root = join(__dirname, '..', '..', '..')

describe('citations in the repository', () => {
  const problems = citationProblems(root)

  it('cite no document outside the repository', () => {
    const outside = problems.filter((p) => p.kind === 'outside').map(formatProblem)
    expect(outside, 'run node scripts/docs/recite.mjs').toEqual([])
  })

  it('cite only docs pages and sections that exist', () => {
    expect(problems.filter((p) => p.kind === 'docs').map(formatProblem)).toEqual([])
  })

  it('are looked for in src, tests, scripts and the root config files', () => {
    const files = codeFiles(root)
    expect(files).toContain('src/core/limits.ts')
    expect(files).toContain('tests/unit/docs/citations.test.ts')
    expect(files).toContain('scripts/docs/recite.mjs')
    expect(files).toContain('eslint.config.js')
    expect(files.some((f) => f.includes('node_modules'))).toBe(false)
  })
})

describe('finding prose in a code file', () => {
  const source = [
    '/** Header (see here). */',
    "const a = 'not a comment // here' // trailing",
    'const re = /\\/\\/ not either/',
    'const t = `/* nor ${a} this */`',
    "describe('a title', () => { it(`another`, () => {}) })",
    "call('an ordinary string')",
    '// last',
  ].join('\n')
  const texts = proseRanges('x.ts', source).map((p) => p.text)

  it('keeps comments and test titles, in order', () => {
    expect(texts).toEqual([
      '/** Header (see here). */',
      '// trailing',
      "'a title'",
      '`another`',
      '// last',
    ])
  })

  it('reads JSX files without taking text for comments', () => {
    const jsx = 'export const A = () => <p>http://example.com {/* real */}</p>\n'
    expect(proseRanges('a.tsx', jsx).map((p) => p.text)).toEqual(['/* real */'])
  })
})

describe('recognising citations', () => {
  const outside = [
    '(memory-facts §2)',
    '(shared/docs/cli-contract.md)',
    '../shared/docs/x.md',
    '(stack-notes.md)',
    '(architecture.md habit 1)',
    '[seed 003]',
  ]
  it.each(outside)('flags %s', (text) => {
    expect(outsideCitations(text)).not.toEqual([])
  })

  const ours = [
    'docs/memory-rules.md §2.2',
    'docs/architecture.md §4.1',
    '../shared/corpus/rules',
    '/r/app/docs/architecture.md',
    'a link to [the layers](architecture.md) from a sibling page',
  ]
  it.each(ours)('lets %s be', (text) => {
    expect(outsideCitations(text)).toEqual([])
  })

  it('reads the sections a docs citation names', () => {
    const text = 'a (docs/memory-rules.md §1–§4, §5 and §6.4) b docs/cli.md c /x/docs/y.md'
    expect(docsCitations(text).map((c) => [c.page, c.sections])).toEqual([
      ['memory-rules.md', ['1', '4', '5', '6.4']],
      ['cli.md', []],
    ])
  })

  it('takes a path with a #fragment for an example, not a citation', () => {
    expect(docsCitations('the text after `@`, e.g. `docs/a.md#setup`')).toEqual([])
  })

  it('reads the section list across a comment line break', () => {
    const text = '(docs/memory-rules.md\n * §5, §6.4 "One writer per page")'
    expect(docsCitations(text)[0].sections).toEqual(['5', '6.4'])
  })

  it('takes a page section anchor from a heading that starts with §', () => {
    const md = '# Title\n\n## §1 One\n\n### §1.10 Ten\n\nSee §9 in prose.\n'
    expect([...anchorsOf(md)]).toEqual(['1', '1.10'])
  })
})
