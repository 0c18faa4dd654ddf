import type { Cart } from '../cart/cart'
import { formatPrice } from '../cart/money'

/** Plain-text receipt, one line per item plus the total. */
export function renderReceipt(cart: Cart, total: number): string {
  const lines = cart.items.map(
    (item) => `${item.qty} × ${item.name.padEnd(20)} ${formatPrice(item.price * item.qty)}`,
  )
  return [...lines, `Total ${formatPrice(total)}`].join('\n')
}
