/**
 * Nesting depth (CI, December 2026): `yaml` parses nesting by recursion, and 20,000 `[` in a
 * memory file's frontmatter, parsed near the stack limit, made V8 die with "RegExpCompiler
 * Allocation failed" — a fatal error no `catch` sees, which took a whole test worker down.
 * parseFrontmatter refuses deep nesting before the parser sees it.
 */
import { describe, expect, it } from 'vitest'
import { nestingDepth, parseFrontmatter } from '../../../../src/core/markdown/frontmatter'
import { FRONTMATTER_MAX_DEPTH } from '../../../../src/core/limits'
import { parseRule } from '../../../../src/core/load-order/rules'

const fm = (body: string): string => `---\n${body}\n---\nbody\n`
const refused = (body: string): void => {
  const r = parseFrontmatter(fm(body))
  expect(r.kind, body.slice(0, 60)).toBe('error')
  if (r.kind === 'error')
    expect(r.reason).toBe(`frontmatter nests deeper than ${FRONTMATTER_MAX_DEPTH} levels`)
}

describe('frontmatter nesting depth', () => {
  it('refuses deep flow, block and compact nesting with its reason', () => {
    refused('x: ' + '['.repeat(20_000) + ']'.repeat(20_000))
    refused('x: ' + '{a: '.repeat(500) + '1' + '}'.repeat(500))
    refused(Array.from({ length: 200 }, (_, i) => ' '.repeat(i) + `k${i}:`).join('\n') + ' 1')
    refused('x:\n' + '- '.repeat(300) + 'a')
  })

  it('is not fooled by quote characters inside plain scalars or by quoted closers', () => {
    refused("x: [it's, " + '['.repeat(5_000) + ']'.repeat(5_001))
    refused("x: [a-'b, " + '['.repeat(5_000) + ']'.repeat(5_001))
    refused('x: [' + '["]]]]]]]]", '.repeat(100) + ']'.repeat(101))
  })

  it('parses ordinary nesting and brackets inside quoted strings as YAML', () => {
    const quoted = parseFrontmatter(
      fm(`title: "${'['.repeat(200)}"\npaths: ['a/**', "b/{x,y}.ts"]`),
    )
    expect(quoted).toMatchObject({
      kind: 'ok',
      data: { title: '['.repeat(200), paths: ['a/**', 'b/{x,y}.ts'] },
    })
    const nested = 'a:\n  b:\n    - c: [1, [2, {d: 3}]]'
    expect(nestingDepth(nested)).toBeLessThanOrEqual(FRONTMATTER_MAX_DEPTH)
    expect(parseFrontmatter(fm(nested))).toMatchObject({
      kind: 'ok',
      data: { a: { b: [{ c: [1, [2, { d: 3 }]] }] } },
    })
    expect(nestingDepth('x: "[[[[[" # [[[[[\n# [[[[[')).toBe(1)
  })

  it('survives deep input at every stack depth (before the fix this killed the process)', () => {
    const deep = fm('x: ' + '['.repeat(20_000) + ']'.repeat(20_000))
    const at = (n: number): string => (n === 0 ? parseFrontmatter(deep).kind : at(n - 1))
    const kinds = new Set<string>()
    for (let depth = 0; depth < 3_000; depth += 3) kinds.add(at(depth))
    expect([...kinds]).toEqual(['error'])
    // Rules retry invalid YAML with globs quoted: the retry goes through the same guard.
    const rule = (n: number): string =>
      n === 0 ? parseRule(deep.replace('x:', 'paths:')).condition.kind : rule(n - 1)
    for (let depth = 0; depth < 3_000; depth += 30) expect(rule(depth)).toBe('unconditional')
  })
})
