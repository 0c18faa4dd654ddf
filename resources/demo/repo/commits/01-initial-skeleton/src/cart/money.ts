/** Amounts are integer cents everywhere; only the edges format them. */
export type Money = number

/** Format cents as a price string, e.g. 1999 → "$19.99". */
export function formatPrice(cents: Money, currency = 'USD'): string {
  const sign = currency === 'EUR' ? '€' : '$'
  return `${sign}${(cents / 100).toFixed(2)}`
}
