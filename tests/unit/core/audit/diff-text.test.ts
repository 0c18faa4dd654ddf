import { describe, expect, it } from 'vitest'
import { capText, diffSummary } from '../../../../src/core/audit/diff-text'

describe('diff text', () => {
  it('summarises and caps diffs', () => {
    expect(diffSummary('a\nb\n', 'a\nc\nd\n')).toBe('+2 −1 lines')
    expect(diffSummary('same', 'same')).toBe('no change')
    const big = Array.from({ length: 5000 }, (_, i) => `l${i}`).join('\n')
    expect(capText(big)).toEqual({
      text: big.split('\n').slice(0, 2000).join('\n'),
      cut: 'showing the first 2000 of 5000 lines',
    })
  })
})
