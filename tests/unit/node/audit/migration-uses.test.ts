/**
 * A database function's call site renamed (`upsert_customers` → `upsert_customers_v2`) while
 * twenty migrations still create the old name: the migrations are history, not uses, so the
 * note saying the sync calls the old function is suspect (hidden set G, docs/eval-audit.md). A
 * name that as many code files use is still not changed by one of its uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('a name only migrations hold now, on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('mig')
  let notes: readonly AuditNote[] = []
  const fn = (name: string, i: number): string =>
    `CREATE OR REPLACE FUNCTION ${name}(rows jsonb) RETURNS void AS $$ SELECT ${i} $$;\n`

  beforeAll(async () => {
    write(repo, 'supabase/migrations/20260101_base.sql', fn('upsert_customers', 0))
    write(
      repo,
      'supabase/functions/sync/index.ts',
      "export async function sync(db, rows) {\n  await db.rpc('upsert_customers', { rows });\n  await db.rpc('log_sync', {});\n}\n",
    )
    for (let i = 1; i <= 5; i++)
      write(
        repo,
        `src/report${i}.ts`,
        `export const r${i} = (db) => db.rpc('log_sync', { i: ${i} });\n`,
      )
    commit('c1', '2026-01-01T12:00:00Z')
    for (let i = 1; i <= 5; i++)
      write(repo, `supabase/migrations/2026020${i}_fix.sql`, fn('upsert_customers', i))
    write(repo, 'supabase/migrations/20260210_v2.sql', fn('upsert_customers_v2', 9))
    write(
      repo,
      'supabase/functions/sync/index.ts',
      "export async function sync(db, rows) {\n  await db.rpc('upsert_customers_v2', { rows });\n  await db.rpc('log_sync', { at: Date.now() });\n}\n",
    )
    commit('v2', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Clients', '- **Clients**: `upsert_customers` RPC called on every sync'],
        ['Log', '- Reports write a row with the `log_sync` RPC.'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls the note suspect, naming the commit that changed the call', () => {
    const n = byTitle(notes, 'Clients')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('`upsert_customers`')
    expect(n.reasons[0]).toContain(sha.v2)
  })

  it('keeps a name many code files use fresh when one use changed', () => {
    expect(byTitle(notes, 'Log').verdict).toBe('fresh')
  })
})
