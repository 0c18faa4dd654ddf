import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import {
  expandBraces,
  parseRule,
  pathsTrigger,
  ruleMatches,
  splitTopLevelCommas,
} from '../../../../src/core/load-order/rules'
import { CORPUS_ROOT, needsCorpus } from '../../../helpers/corpus'

const CORPUS = CORPUS_ROOT

describe('parseRule', () => {
  test('no frontmatter: unconditional, no warning', () => {
    expect(parseRule('# Rule\n\nDo this.\n')).toEqual({
      condition: { kind: 'unconditional' },
      warnings: [],
    })
  })

  test('paths as a YAML list', () => {
    const r = parseRule('---\npaths:\n  - "src/**/*.ts"\n  - lib/*.js\n---\nbody\n')
    expect(r).toEqual({
      condition: { kind: 'paths', patterns: ['src/**/*.ts', 'lib/*.js'] },
      warnings: [],
    })
  })

  test('paths as one comma-separated string, braces expanded', () => {
    const r = parseRule('---\npaths: "src/**/*.{ts,tsx}, docs/*.md"\n---\n')
    expect(r.condition).toEqual({
      kind: 'paths',
      patterns: ['src/**/*.ts', 'src/**/*.tsx', 'docs/*.md'],
    })
    expect(r.warnings).toEqual([])
  })

  test('a value of only ** means unconditional', () => {
    expect(parseRule('---\npaths: "**"\n---\n').condition).toEqual({ kind: 'unconditional' })
    expect(parseRule('---\npaths:\n  - "**"\n---\n').condition).toEqual({ kind: 'unconditional' })
    expect(parseRule('---\npaths: "**, src/**"\n---\n').condition).toEqual({
      kind: 'paths',
      patterns: ['**', 'src/**'],
    })
  })

  test('globs: without paths loads unconditionally and warns', () => {
    const r = parseRule('---\nglobs: src/**/*.ts\n---\n')
    expect(r.condition).toEqual({ kind: 'unconditional' })
    expect(r.warnings.map((w) => w.code)).toEqual(['globs-not-paths'])
  })

  test('unquoted globs that are invalid YAML are read like Claude Code does (quoted retry)', () => {
    expect(parseRule('---\npaths: **/*.ts\n---\n').condition).toEqual({
      kind: 'paths',
      patterns: ['**/*.ts'],
    })
    expect(parseRule('---\npaths: *.md, src/{a,b}/**\n---\n').condition).toEqual({
      kind: 'paths',
      patterns: ['*.md', 'src/a/**', 'src/b/**'],
    })
  })

  test('globs: beside paths: paths wins, no warning', () => {
    const r = parseRule('---\nglobs: x/**\npaths: src/**\n---\n')
    expect(r).toEqual({ condition: { kind: 'paths', patterns: ['src/**'] }, warnings: [] })
  })

  test('bad paths values load unconditionally with a warning', () => {
    expect(parseRule('---\npaths: 3\n---\n').warnings.map((w) => w.code)).toEqual(['paths-invalid'])
    expect(parseRule('---\npaths: ""\n---\n').warnings.map((w) => w.code)).toEqual(['paths-empty'])
    const bad = parseRule('---\npaths: [unclosed\n---\n')
    expect(bad.condition).toEqual({ kind: 'unconditional' })
    expect(bad.warnings.map((w) => w.code)).toEqual(['frontmatter-invalid'])
  })

  test('corpus: both easytrade rules use globs: and load unconditionally', (ctx) => {
    needsCorpus(ctx)
    for (const name of ['easytrade-tests.md', 'easytrade-typescript.md']) {
      const r = parseRule(readFileSync(`${CORPUS}/rules/${name}`, 'utf8'))
      expect(r.condition).toEqual({ kind: 'unconditional' })
      expect(r.warnings.map((w) => w.code)).toEqual(['globs-not-paths'])
    }
  })

  test('corpus: the same globs renamed to paths: become a comma-separated pattern list', (ctx) => {
    needsCorpus(ctx)
    const text = readFileSync(`${CORPUS}/rules/easytrade-typescript.md`, 'utf8').replace(
      /^globs:/m,
      'paths:',
    )
    const r = parseRule(text)
    expect(r.condition).toEqual({
      kind: 'paths',
      patterns: [
        'src/frontend/**/*.ts',
        'src/frontend/**/*.tsx',
        'src/loadgen/**/*.ts',
        'src/offerservice/**/*.ts',
      ],
    })
    expect(ruleMatches(r.condition, 'src/frontend/app/x.tsx')).toBe(true)
    expect(ruleMatches(r.condition, 'src/backend/x.ts')).toBe(false)
  })
})

describe('braces and commas', () => {
  test('splitTopLevelCommas keeps commas inside braces', () => {
    expect(splitTopLevelCommas('a/{b,c}/*.ts, d')).toEqual(['a/{b,c}/*.ts', ' d'])
  })

  test('expandBraces expands nested and multiple groups in order', () => {
    expect(expandBraces('{a,b}/{x,y}.md')).toEqual(['a/x.md', 'a/y.md', 'b/x.md', 'b/y.md'])
    expect(expandBraces('src/{a,{b,c}}.ts')).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts'])
    expect(expandBraces('lit{x}.md')).toEqual(['lit{x}.md'])
    expect(expandBraces('open{a,b')).toEqual(['open{a,b'])
  })
})

describe('ruleMatches (gitignore semantics)', () => {
  const cond = parseRule(
    '---\npaths:\n  - "src/**/*.ts"\n  - "*.md"\n  - "/top.txt"\n---\n',
  ).condition

  test('matches relative paths like .gitignore would', () => {
    expect(ruleMatches(cond, 'src/a/b.ts')).toBe(true)
    expect(ruleMatches(cond, 'src/b.ts')).toBe(true)
    expect(ruleMatches(cond, 'lib/b.ts')).toBe(false)
    expect(ruleMatches(cond, 'deep/down/README.md')).toBe(true) // no slash: any depth
    expect(ruleMatches(cond, 'top.txt')).toBe(true)
    expect(ruleMatches(cond, 'sub/top.txt')).toBe(false) // leading slash anchors
  })

  test('paths outside the base folder never match', () => {
    expect(ruleMatches(cond, '../src/a.ts')).toBe(false)
    expect(ruleMatches(cond, '/abs/a.md')).toBe(false)
    expect(ruleMatches(cond, '')).toBe(false)
  })

  test('unconditional matches everything; trigger text', () => {
    expect(ruleMatches({ kind: 'unconditional' }, 'x')).toBe(true)
    expect(pathsTrigger(cond)).toBe('paths: src/**/*.ts, *.md, /top.txt')
  })
})
