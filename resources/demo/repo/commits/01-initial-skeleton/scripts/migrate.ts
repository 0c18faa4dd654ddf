import { readdir, readFile } from 'node:fs/promises'
import { query, pool } from '../src/db/client'

const dir = new URL('../migrations/', import.meta.url)
for (const name of (await readdir(dir)).sort()) {
  await query(await readFile(new URL(name, dir), 'utf8'))
  console.log(`applied ${name}`)
}
await pool.end()
