import pg from 'pg'

/** One pool per process; DATABASE_URL points at Postgres 16. */
export const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL ?? 'postgres://localhost:5432/acme_dev',
  max: 10,
})

export async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const result = await pool.query(sql, params)
  return result.rows as T[]
}
