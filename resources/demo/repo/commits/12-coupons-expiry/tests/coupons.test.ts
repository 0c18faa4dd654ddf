import { describe, expect, it } from 'vitest'
import { applyCoupon } from '../src/cart/coupons'

describe('applyCoupon', () => {
  it('takes a percentage off', () => {
    expect(applyCoupon(2500, { code: 'SPRING10', kind: 'percent', percent: 10 })).toBe(2250)
  })

  it('never goes below zero', () => {
    expect(applyCoupon(500, { code: 'FIVER', kind: 'fixed', amount: 1000 })).toBe(0)
  })

  it('ignores an expired code', () => {
    const coupon = { code: 'XMAS', kind: 'fixed', amount: 500, expiresOn: '2025-12-31' } as const
    expect(applyCoupon(2500, coupon, new Date('2026-04-08'))).toBe(2500)
  })
})
