/** Amounts are integer cents everywhere; only the edges format them. */
export type Money = number

/** Format cents for display with the locale's currency rules, e.g. 1999 → "$19.99". */
export function formatMoney(cents: Money, currency = 'USD', locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100)
}
