import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { auditMemory } from '../../../../src/node/audit/audit'
import { noteDiffs } from '../../../../src/node/audit/note-diffs'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { base, plain, removeBase, write } from './scripted-repo'
import { git, gitAt } from '../../../helpers/git'

afterAll(removeBase)

describe('reference resolution without false verdicts (issue 4)', () => {
  const shop = join(base, 'shop')
  const shopMem = join(base, 'mem-shop')
  let notes: readonly AuditNote[] = []
  const shopShas: Record<string, string> = {}
  const line = (n: number): AuditNote => {
    const found = notes.find((x) => x.line === n && x.file === join(shopMem, 'MEMORY.md'))
    if (!found) throw new Error(`no note at line ${n}`)
    return found
  }

  beforeAll(async () => {
    mkdirSync(shop)
    git(shop, 'init', '-q', '-b', 'main')
    write(shop, '.gitignore', 'node_modules/\ndist/\n.env\n')
    write(shop, 'package.json', JSON.stringify({ scripts: { build: 'tsc', test: 'vitest' } }))
    write(shop, 'src/cart/money.ts', 'export const toCents = (n: number) => Math.round(n * 100)\n')
    write(shop, 'src/orders/receipt.ts', 'export function receipt() {\n  return 1\n}\n')
    write(shop, 'src/payments/charge.ts', 'export function charge() {\n  return 1\n}\n')
    write(shop, 'src/db.ts', 'export const url = process.env.DATABASE_URL\n')
    write(shop, 'tests/cart.test.ts', 'test("x", () => {})\n')
    write(shop, 'scripts/legacy.sh', '#!/bin/sh\necho legacy\n')
    const at = (d: string): void => {
      git(shop, 'add', '-A')
      gitAt(d, shop, 'commit', '-q', '-m', d)
      shopShas[d] = git(shop, 'rev-parse', 'HEAD').trim().slice(0, 7)
    }
    at('2026-01-01T12:00:00Z')
    write(shop, 'src/orders/receipt.ts', 'export function receipt() {\n  return 2\n}\n')
    write(shop, 'src/payments/charge.ts', 'export function charge() {\n  return 2\n}\n')
    git(shop, 'rm', '-q', 'scripts/legacy.sh')
    write(shop, 'README.md', 'Set DATABASE_URL before running anything.\n')
    at('2026-03-01T12:00:00Z')
    // feature/coupons is checked out in a second work tree, with a file main lacks.
    const wt = join(base, 'shop-coupons')
    git(shop, 'worktree', 'add', '-q', '-b', 'feature/coupons', wt)
    const coupons = (n: number): string =>
      `export function applyCoupon(subtotal: number, coupon: number): number {\n  return Math.max(${n}, subtotal - coupon)\n}\n`
    write(wt, 'src/cart/coupons.ts', coupons(0))
    git(wt, 'add', '-A')
    gitAt('2026-03-10T12:00:00Z', wt, 'commit', '-q', '-m', 'coupons')
    write(wt, 'src/cart/coupons.ts', coupons(1))
    gitAt('2026-05-01T12:00:00Z', wt, 'commit', '-q', '-am', 'coupons floor')
    shopShas.floor = git(wt, 'rev-parse', 'HEAD').trim().slice(0, 7)
    // A built dist/ folder is not on this machine; `.env` is local.
    mkdirSync(shopMem)
    const index = [
      '# Memory', //                                                              1
      '- `npm run build` only type-checks and emits to `dist/`.', //             2
      '- 2026-01-13: fixed the vitest include glob that picked up dist/.', //   3
      '- Branch names: feature/<topic>, fix/<topic>.', //                        4
      '- Dana: never call toFixed on money outside money.ts.', //               5
      '- receipt.ts renders one line per item.', //                              6
      '- Handlers are thin and call into src/.', //                              7
      '- Use `git worktree add ../shop-<topic> -b feature/<topic>` for parallel work.', // 8
      '- Run one file with `npx vitest run tests/cart.test.ts`.', //            9
      '- Point `DATABASE_URL` at its own database (e.g. `acme_coupons`).', //   10
      '- Reimport with legacy.sh.', //                                           11
      '- Secrets go in `.env`, never in code.', //                               12
      '- [Coupons](coupons.md) — discounts, on branch feature/coupons', //     13
      '- Gift cards live in `src/cart/gift.ts` on branch `feature/gifts`.', //   14
    ]
    writeFileSync(join(shopMem, 'MEMORY.md'), `${index.join('\n')}\n`)
    writeFileSync(
      join(shopMem, 'coupons.md'),
      'Coupons live in `src/cart/coupons.ts` on branch `feature/coupons`;\n`applyCoupon(subtotal, coupon)` applies them.\n',
    )
    clearHistoryCache()
    const r = await auditMemory({
      memoryDir: shopMem,
      repo: shop,
      writtenAtFor: async (file) => ({
        at: file.endsWith('coupons.md') ? '2026-04-01T00:00:00Z' : '2026-02-01T00:00:00Z',
        source: 'transcript',
      }),
    })
    expect(r.problems).toEqual([])
    notes = r.notes
  })

  it('skips a git-ignored build folder instead of calling it missing', () => {
    expect(line(2).verdict).toBe('fresh')
    expect(line(2).references.map((r) => [r.text, r.status])).toEqual([['npm run build', 'ok']])
    expect(line(2).reasons[0]).toBe('`dist/` is ignored by git (build output); not checked')
    expect(line(3).verdict).toBe('unverifiable')
    expect(line(3).reasons[0]).toBe('`dist/` is ignored by git (build output); not checked')
    expect(line(12).verdict).toBe('unverifiable')
    expect(line(12).reasons[0]).toBe('`.env` is ignored by git; not checked')
  })

  it('reads placeholders and quoted command lines as patterns, not paths or code', () => {
    expect(line(4).verdict).toBe('unverifiable')
    expect(plain(line(4).references)).toEqual([])
    expect(line(8).verdict).toBe('unverifiable')
    expect(plain(line(8).references)).toEqual([])
    expect(line(9).verdict).toBe('fresh')
    expect(plain(line(9).references)).toEqual([
      {
        text: 'tests/cart.test.ts',
        kind: 'path',
        status: 'ok',
        resolved: join(shop, 'tests/cart.test.ts'),
        movedTo: null,
      },
    ])
  })

  it('resolves bare file names to the tracked file, and follows them in history', () => {
    expect(line(5).verdict).toBe('fresh')
    expect(plain(line(5).references)).toEqual([
      {
        text: 'money.ts',
        kind: 'path',
        status: 'ok',
        resolved: join(shop, 'src/cart/money.ts'),
        movedTo: null,
      },
    ])
    expect(line(5).reasons[0]).toBe('`money.ts` resolved to `src/cart/money.ts`')
    // The resolved file changed after the note, but no line with the note's names did:
    // fresh, no longer suspect (issue 12 item 4).
    expect(line(6).verdict).toBe('fresh')
    expect(line(6).reasons.slice(0, 2)).toEqual([
      '`receipt.ts` resolved to `src/orders/receipt.ts`',
      'written-at 2026-02-01T00:00:00.000Z from the session transcript that wrote it',
    ])
    expect(line(11).verdict).toBe('stale')
    expect(line(11).reasons[0]).toBe(
      `\`scripts/legacy.sh\` was deleted in ${shopShas['2026-03-01T12:00:00Z']} on 2026-03-01`,
    )
  })

  it('does not call a folder note suspect for changes inside the folder', () => {
    expect(line(7).verdict).toBe('fresh')
    expect(line(7).references.map((r) => [r.text, r.status, r.resolved])).toEqual([
      ['src/', 'ok', join(shop, 'src')],
    ])
  })

  it('does not take an example value as a symbol the code must hold', () => {
    expect(line(10).verdict).toBe('fresh')
    // Resolved to the code that uses it, not to the README that mentions it.
    expect(line(10).references.map((r) => [r.text, r.resolved])).toEqual([
      ['DATABASE_URL', join(shop, 'src/db.ts')],
    ])
  })

  it('checks a note naming a branch in the work tree that has it checked out', async () => {
    const wt = join(base, 'shop-coupons')
    const n = line(13)
    expect(plain(n.references)).toEqual([
      { text: 'feature/coupons', kind: 'branch', status: 'ok', resolved: null, movedTo: null },
      {
        text: 'src/cart/coupons.ts',
        kind: 'path',
        status: 'ok',
        resolved: join(wt, 'src/cart/coupons.ts'),
        movedTo: null,
      },
      {
        text: 'applyCoupon(subtotal, coupon)',
        kind: 'symbol',
        status: 'ok',
        resolved: join(wt, 'src/cart/coupons.ts'),
        movedTo: null,
      },
    ])
    // The branch's commit after the note changed a line without `applyCoupon`: fresh, no
    // longer suspect (issue 12 item 4).
    expect(n.verdict).toBe('fresh')
    expect(n.reasons.slice(0, 2)).toEqual([
      `\`src/cart/coupons.ts\` is on branch \`feature/coupons\` (work tree \`${wt}\`), not on the checked-out branch`,
      `\`applyCoupon(subtotal, coupon)\` is on branch \`feature/coupons\` (work tree \`${wt}\`), not on the checked-out branch`,
    ])
    // A branch checked out nowhere cannot vouch for the note.
    // It never existed in this repository's history: wrong from the start, not stale (issue 12).
    expect(line(14).verdict).toBe('never-matched')
    expect(line(14).reasons[0]).toBe(
      'wrong from the start: `src/cart/gift.ts` does not exist and git history has no record of it',
    )
    // Its diff compares the branch's file then and now.
    const diffs = await noteDiffs({
      memoryDir: shopMem,
      repo: shop,
      file: join(shopMem, 'MEMORY.md'),
      line: 13,
      writtenAtFor: async () => ({ at: '2026-04-01T00:00:00Z', source: 'transcript' }),
    })
    const d = diffs.find((x) => x.reference.kind === 'path')!
    expect(d.before?.label).toMatch(/^src\/cart\/coupons\.ts @ [0-9a-f]{7} \(2026-03-10\)$/)
    expect(d.after?.label).toBe('src/cart/coupons.ts (now)')
    expect(d.summary).toBe('+1 −1 lines')
  })

  it('skips build output in a folder without git too', async () => {
    const plain = join(base, 'plain-shop')
    write(plain, 'src/a.ts', 'export const a = 1\n')
    const m = join(base, 'mem-plain-shop')
    mkdirSync(m)
    writeFileSync(join(m, 'MEMORY.md'), '- Builds go to dist/ from src/a.ts.\n')
    const r = await auditMemory({ memoryDir: m, repo: plain })
    expect(r.notes[0].reasons[0]).toBe('`dist/` is a build or runtime output folder; not checked')
    expect(r.notes[0].references.map((x) => [x.text, x.status])).toEqual([['src/a.ts', 'ok']])
  })
})
