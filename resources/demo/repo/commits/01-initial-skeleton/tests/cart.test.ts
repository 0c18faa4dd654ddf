import { describe, expect, it } from 'vitest'
import { addItem, cartTotal } from '../src/cart/cart'

describe('cart', () => {
  it('merges quantities of the same SKU', () => {
    const cart = addItem(addItem({ id: 'c1', items: [] }, mug(1)), mug(2))
    expect(cart.items).toEqual([mug(3)])
  })

  it('adds tax', () => {
    expect(cartTotal({ id: 'c1', items: [mug(2)] }, 0.1)).toBe(2640)
  })
})

function mug(qty: number) {
  return { sku: 'MUG-001', name: 'Acme mug', price: 1200, qty }
}
