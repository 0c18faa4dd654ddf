import { describe, expect, it } from 'vitest'
import {
  isEmptyQuery,
  lineAt,
  matchingLines,
  parseSearchQuery,
  snippetAround,
} from '../../../../src/core/memory/search'

describe('parseSearchQuery', () => {
  it('splits filters from the text', () => {
    expect(parseSearchQuery('  Cart  totals verdict:STALE project:acme ')).toEqual({
      text: 'cart totals',
      verdicts: ['stale'],
      projects: ['acme'],
    })
    expect(parseSearchQuery('is:wrong').verdicts).toEqual(['never-matched'])
    // An unknown verdict is text, not a silent filter.
    expect(parseSearchQuery('verdict:old').text).toBe('verdict:old')
    expect(isEmptyQuery(parseSearchQuery('   '))).toBe(true)
  })
})

describe('matchingLines and lineAt', () => {
  const text = 'First line\r\nsecond CART line\nthird\ncart again'
  it('finds lines case-insensitively, 1-based, bounded', () => {
    expect(matchingLines(text, 'cart', 10)).toEqual([
      { line: 2, column: 7 },
      { line: 4, column: 0 },
    ])
    expect(matchingLines(text, 'cart', 1)).toHaveLength(1)
    expect(matchingLines(text, '', 10)).toEqual([])
    expect(lineAt(text, 1)).toBe('First line')
    expect(lineAt(text, 4)).toBe('cart again')
    expect(lineAt(text, 9)).toBe('')
  })
})

describe('snippetAround', () => {
  it('keeps short lines whole and cuts long ones around the match', () => {
    expect(snippetAround('short one', 6, 3)).toEqual({ text: 'short one', start: 6 })
    const long = 'a'.repeat(500) + 'NEEDLE' + 'b'.repeat(500)
    const s = snippetAround(long, 500, 6, 100)
    expect(s.text.startsWith('…')).toBe(true)
    expect(s.text.endsWith('…')).toBe(true)
    expect(s.text.slice(s.start, s.start + 6)).toBe('NEEDLE')
    expect(s.text.length).toBeLessThanOrEqual(102)
  })
})
