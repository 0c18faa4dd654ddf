import { query, pool } from '../src/db/client'

const products = [
  { sku: 'MUG-001', name: 'Acme mug', price: 1200 },
  { sku: 'TEE-002', name: 'Acme t-shirt', price: 2500 },
  { sku: 'CAP-003', name: 'Acme cap', price: 1800 },
]

for (const p of products) {
  await query('insert into products (sku, name, price) values ($1, $2, $3) on conflict do nothing', [
    p.sku,
    p.name,
    p.price,
  ])
}
await pool.end()
console.log(`seeded ${products.length} products`)
