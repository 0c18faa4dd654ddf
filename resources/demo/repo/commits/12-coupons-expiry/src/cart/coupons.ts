import type { Money } from './money'

interface CouponBase {
  readonly code: string
  /** ISO date after which the code is rejected; absent = never expires. */
  readonly expiresOn?: string
}

export type Coupon =
  | (CouponBase & { readonly kind: 'percent'; readonly percent: number })
  | (CouponBase & { readonly kind: 'fixed'; readonly amount: Money })

/** Apply a coupon to a subtotal; the result never goes below zero. Expired codes change nothing. */
export function applyCoupon(subtotal: Money, coupon: Coupon, today = new Date()): Money {
  if (coupon.expiresOn && today.toISOString().slice(0, 10) > coupon.expiresOn) return subtotal
  const discount =
    coupon.kind === 'percent' ? Math.round((subtotal * coupon.percent) / 100) : coupon.amount
  return Math.max(0, subtotal - discount)
}
