import { beforeEach } from 'vitest'
import { query } from '../../src/db/client'

/** Every test starts from an empty cart and orders table (products stay seeded). */
beforeEach(async () => {
  await query('truncate carts, orders restart identity cascade')
})
