import type { Money } from './money'

export type Coupon =
  | { readonly code: string; readonly kind: 'percent'; readonly percent: number }
  | { readonly code: string; readonly kind: 'fixed'; readonly amount: Money }

/** Apply a coupon to a subtotal; the result never goes below zero. */
export function applyCoupon(subtotal: Money, coupon: Coupon): Money {
  const discount =
    coupon.kind === 'percent' ? Math.round((subtotal * coupon.percent) / 100) : coupon.amount
  return Math.max(0, subtotal - discount)
}
