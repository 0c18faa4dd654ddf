import type { Money } from './money'

export interface CartItem {
  readonly sku: string
  readonly name: string
  /** Unit price in cents. */
  readonly price: Money
  readonly qty: number
}

export interface Cart {
  readonly id: string
  readonly items: readonly CartItem[]
}

/** Add an item, merging quantities when the SKU is already in the cart. */
export function addItem(cart: Cart, item: CartItem): Cart {
  const existing = cart.items.find((i) => i.sku === item.sku)
  if (!existing) return { ...cart, items: [...cart.items, item] }
  return {
    ...cart,
    items: cart.items.map((i) => (i.sku === item.sku ? { ...i, qty: i.qty + item.qty } : i)),
  }
}

/** Total in cents including tax at `rate` (0.1 = 10 %). */
export function cartTotal(cart: Cart, rate: number): Money {
  const subtotal = cart.items.reduce((sum, item) => sum + item.price * item.qty, 0)
  return Math.round(subtotal * (1 + rate))
}
