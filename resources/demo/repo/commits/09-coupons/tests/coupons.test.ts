import { describe, expect, it } from 'vitest'
import { applyCoupon } from '../src/cart/coupons'

describe('applyCoupon', () => {
  it('takes a percentage off', () => {
    expect(applyCoupon(2500, { code: 'SPRING10', kind: 'percent', percent: 10 })).toBe(2250)
  })

  it('never goes below zero', () => {
    expect(applyCoupon(500, { code: 'FIVER', kind: 'fixed', amount: 1000 })).toBe(0)
  })
})
