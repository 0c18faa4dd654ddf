import { cartTotal, type Cart } from '../cart/cart'
import { query } from '../db/client'

export const TAX_RATE = 0.1

export interface Order {
  readonly id: number
  readonly cartId: string
  readonly total: number
}

/**
 * Create the order for a cart. The unique `cart_id` column makes this idempotent:
 * a double-clicked checkout returns the order that already exists.
 */
export async function createOrder(cart: Cart): Promise<Order> {
  const total = cartTotal(cart, TAX_RATE)
  const [row] = await query<Order>(
    `insert into orders (cart_id, total) values ($1, $2)
     on conflict (cart_id) do update set cart_id = excluded.cart_id
     returning id, cart_id as "cartId", total`,
    [cart.id, total],
  )
  return row
}
