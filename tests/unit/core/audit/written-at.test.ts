import { describe, expect, it } from 'vitest'
import { frontmatterWrittenAt, writtenAtReason } from '../../../../src/core/audit/written-at'

describe('written-at', () => {
  it('takes written-at from frontmatter keys, newest meaning first', () => {
    expect(
      frontmatterWrittenAt({ created: '2026-01-01', updated: '2026-03-10T08:00:00Z' }),
    ).toEqual({
      iso: '2026-03-10T08:00:00.000Z',
      ms: Date.parse('2026-03-10T08:00:00Z'),
      source: 'frontmatter',
      key: 'updated',
    })
    expect(frontmatterWrittenAt({ timestamp: 1767225600 })?.iso).toBe('2026-01-01T00:00:00.000Z')
    expect(frontmatterWrittenAt({ date: 'soon' })).toBeNull()
    expect(writtenAtReason({ iso: 'x', ms: 0, source: 'mtime' })).toBe(
      'written-at x from file mtime (coarse: any later edit moves it)',
    )
  })
})
