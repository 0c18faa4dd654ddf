import { describe, expect, it } from 'vitest'
import {
  JSON_MAX_DEPTH,
  memberOf,
  parseJsonSpans,
  JsonSpanError,
} from '../../../../src/core/hooks/json-spans'

describe('parseJsonSpans', () => {
  it('keeps where each value and member starts and ends', () => {
    const text = ' { "a" : [1, "x\\"y"], "b": {"c": null} } '
    const root = parseJsonSpans(text)
    expect(root.kind).toBe('object')
    const a = memberOf(root, 'a')!
    expect(text.slice(a.start, a.end)).toBe('"a" : [1, "x\\"y"]')
    expect(
      a.value.kind === 'array' && a.value.items.map((i) => text.slice(i.start, i.end)),
    ).toEqual(['1', '"x\\"y"'])
    const b = memberOf(root, 'b')!
    expect(text.slice(b.value.start, b.value.end)).toBe('{"c": null}')
    expect(text.slice(root.start, root.end)).toBe(text.trim())
  })

  it('agrees with JSON.parse on what is JSON', () => {
    for (const ok of ['{}', '[]', '"\\u00e9"', '-0.5e+3', 'true', '{"a":{"a":1},"a":2}'])
      expect(() => parseJsonSpans(ok)).not.toThrow()
    for (const bad of [
      '',
      '{',
      '{"a":1,}',
      '[1 2]',
      "{'a':1}",
      '{"a":1} x',
      '"\t"',
      '01',
      'NaN',
      '"\\x"',
    ])
      expect(() => parseJsonSpans(bad), bad).toThrow(JsonSpanError)
  })

  it('takes the last of repeated keys, as JSON.parse does', () => {
    const text = '{"a":1,"a":2}'
    const m = memberOf(parseJsonSpans(text), 'a')!
    expect(text.slice(m.value.start, m.value.end)).toBe('2')
  })

  it('refuses nesting deeper than its cap instead of overflowing the stack', () => {
    expect(() => parseJsonSpans('['.repeat(JSON_MAX_DEPTH + 2))).toThrow(/nested deeper/)
    expect(() => parseJsonSpans('['.repeat(100) + ']'.repeat(100))).not.toThrow()
  })
})
