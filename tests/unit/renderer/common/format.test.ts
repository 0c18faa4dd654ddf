import { describe, expect, it } from 'vitest'
import {
  countOf,
  formatBytes,
  formatDate,
  formatDateTime,
  formatNumber,
  formatRelative,
} from '../../../../src/renderer/common/format'

const ISO = '2026-12-01T17:43:15.524Z'

describe('numbers and dates in the locale', () => {
  it('puts thousands separators in numbers', () => {
    expect(formatNumber(50000)).toBe(new Intl.NumberFormat().format(50000))
    expect(formatNumber(1234567)).toMatch(/^1\D234\D567$/)
    expect(formatNumber(12.5, 1)).toBe(
      new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(12.5),
    )
    expect(countOf(1, 'note')).toBe('1 note')
    expect(countOf(2048, 'note')).toMatch(/^2\D048 notes$/)
    expect(formatBytes(512)).toBe('512 bytes')
    expect(formatBytes(2048)).toMatch(/^2 KB$/)
  })

  it('never shows a raw ISO stamp', () => {
    for (const text of [formatDate(ISO), formatDateTime(ISO)]) {
      expect(text).not.toContain('T17')
      expect(text).not.toContain('.524Z')
      expect(text).toContain('2026')
    }
    expect(formatDateTime(ISO)).toBe(
      new Date(ISO).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    )
  })

  it('says when a date is missing or invalid', () => {
    expect(formatDate(null)).toBe('unknown date')
    expect(formatDateTime('not a date', '—')).toBe('—')
  })

  it('says how long ago', () => {
    const now = Date.parse(ISO)
    expect(formatRelative(now - 3 * 24 * 3600_000, now)).toBe(
      new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-3, 'day'),
    )
  })
})
