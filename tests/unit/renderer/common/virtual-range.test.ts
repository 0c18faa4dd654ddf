import { describe, expect, it } from 'vitest'
import { scrollToShow, windowRange } from '../../../../src/renderer/common/virtual-range'

describe('windowRange', () => {
  it('draws the rows in view plus the overscan, never past the ends', () => {
    expect(windowRange(50_000, 40, 0, 400, 5)).toEqual({ start: 0, end: 16 })
    expect(windowRange(50_000, 40, 4000, 400, 5)).toEqual({ start: 95, end: 116 })
    expect(windowRange(50_000, 40, 40 * 49_990, 400, 5)).toEqual({ start: 49_985, end: 50_000 })
  })
  it('draws nothing for an empty list and everything for a short one', () => {
    expect(windowRange(0, 40, 0, 400, 5)).toEqual({ start: 0, end: 0 })
    expect(windowRange(3, 40, 0, 400, 5)).toEqual({ start: 0, end: 3 })
  })
  it('clamps a scroll position beyond the end (a filter shortened the list)', () => {
    const r = windowRange(10, 40, 40_000, 400, 2)
    expect(r.end).toBe(10)
    expect(r.start).toBeLessThan(10)
  })
})

describe('scrollToShow', () => {
  it('scrolls only when the row is out of view, by the least amount', () => {
    expect(scrollToShow(5, 40, 0, 400)).toBeNull()
    expect(scrollToShow(20, 40, 0, 400)).toBe(440)
    expect(scrollToShow(2, 40, 400, 400)).toBe(80)
  })
})
