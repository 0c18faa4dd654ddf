import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { auditMemory } from '../../../../src/node/audit/audit'
import { noteDiffs } from '../../../../src/node/audit/note-diffs'
import { clearHistoryCache } from '../../../../src/node/git/history'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'mc-audit-')))
const repo = join(base, 'repo')
const mem = join(base, 'memory')
const shas: Record<string, string> = {}

function git(cwd: string, args: string[], date = '2026-01-01T12:00:00Z'): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args],
    {
      cwd,
      env: {
        ...process.env,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
        GIT_CONFIG_NOSYSTEM: '1',
      },
      encoding: 'utf8',
    },
  )
}

function write(root: string, rel: string, text: string | Buffer): void {
  const p = join(root, rel)
  mkdirSync(dirname(p), { recursive: true })
  writeFileSync(p, text)
}

function commit(label: string, date: string): void {
  git(repo, ['add', '-A'])
  git(repo, ['commit', '-q', '-m', label], date)
  shas[label] = git(repo, ['rev-parse', 'HEAD']).trim().slice(0, 7)
}

const TOTAL = [
  'export function computeTotal(items: Item[]): number {',
  '  let sum = 0',
  '  for (const item of items) {',
  '    sum += item.price * item.quantity',
  '  }',
  '  return sum',
  '}',
].join('\n')

const BIG = Array.from({ length: 5000 }, (_, i) => `export const value${i} = ${i} * 3 + 1`).join(
  '\n',
)

const topic = (body: string, date = '2026-03-10T00:00:00Z'): string =>
  `---\nname: t\ndescription: a note\ntype: project\nupdated: ${date}\n---\n${body}\n`

beforeAll(() => {
  mkdirSync(repo)
  git(repo, ['init', '-q', '-b', 'main'])
  write(repo, 'src/auth/session.ts', 'export function createSession() {\n  return 1\n}\n')
  write(
    repo,
    'src/a.ts',
    'export const helpers = 1\n// helper module with enough text to be renamed\n',
  )
  write(repo, 'src/billing/total.ts', `import type { Item } from './item'\n\n${TOTAL}\n`)
  write(repo, 'src/old.ts', 'export function parseLegacy() {\n  return 0\n}\n')
  write(repo, 'src/stable.ts', 'export const stableValue = 7\n')
  write(repo, 'src/edited.ts', 'export const RETRY_LIMIT = 3\nexport function retry() {}\n')
  write(repo, 'src/util.ts', 'export function legacyHelper() {}\nexport function keptHelper() {}\n')
  write(repo, 'src/big.ts', `${BIG}\n`)
  write(
    repo,
    'package.json',
    JSON.stringify(
      { name: 'x', scripts: { build: 'tsc', lint: 'eslint .', test: 'vitest' } },
      null,
      2,
    ),
  )
  write(
    repo,
    'Makefile',
    '.PHONY: deploy test\ndeploy: build\n\t./scripts/release.sh\ntest:\n\tnpm test\nVAR := 1\n',
  )
  write(repo, 'scripts/release.sh', '#!/bin/sh\necho release\n')
  write(repo, 'docs/my guide/ünï code.md', '# Guide\n')
  write(repo, 'assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3, 0, 255]))
  write(
    repo,
    'CLAUDE.md',
    '# Project\n\n- Build with `npm run build`.\n- Helpers live in `src/a.ts`.\n- `onlyInClaudeMd()` is named nowhere else.\n',
  )
  commit('c1', '2026-01-01T12:00:00Z')
  git(repo, ['mv', 'src/a.ts', 'src/b.ts'])
  commit('c2', '2026-02-01T12:00:00Z')
  git(repo, ['mv', 'src/auth/session.ts', 'src/auth/token-session.ts'])
  commit('c3', '2026-03-01T12:00:00Z')
  git(repo, ['mv', 'src/b.ts', 'src/c.ts'])
  git(repo, ['rm', '-q', 'src/old.ts'])
  write(
    repo,
    'package.json',
    JSON.stringify({ name: 'x', scripts: { build: 'tsc', test: 'vitest' } }, null, 2),
  )
  write(repo, 'src/util.ts', 'export function keptHelper() {}\n')
  commit('c4', '2026-03-05T12:00:00Z')
  write(
    repo,
    'src/billing/total.ts',
    `import type { Item } from './item'\n\n${TOTAL.replace('item.quantity', 'item.qty')}\n`,
  )
  write(repo, 'src/edited.ts', 'export const RETRY_LIMIT = 5\nexport function retry() {}\n')
  commit('c5', '2026-04-01T12:00:00Z')

  mkdirSync(mem)
  const entries = [
    [
      'Session handling',
      'session.md',
      'Sessions are created in `src/auth/session.ts` by `createSession()`.',
    ],
    ['Helpers', 'helpers.md', 'Helpers live in `src/a.ts`.'],
    ['Legacy parser', 'legacy.md', '`src/old.ts` holds the legacy parser.'],
    ['Scripts', 'scripts.md', 'Run `npm run lint` before pushing; `npm run build` compiles.'],
    ['Dates', 'dates.md', '`legacyHelper()` in src/util.ts formats dates.'],
    ['Stable', 'stable.md', '`src/stable.ts` exports `stableValue`.'],
    ['Retries', 'retries.md', 'Retries are handled in src/edited.ts.'],
    ['Team', 'team.md', 'The team prefers small pull requests and reviews on Fridays.'],
    ['Totals', 'totals.md', `Totals:\n\n\`\`\`ts\n${TOTAL}\n\`\`\``],
    [
      'Answer',
      'answer.md',
      'The answer helper:\n\n```js\nfunction neverWritten() {\n  return 42\n}\n```',
    ],
    ['Make', 'make.md', 'Deploy with `make deploy`; `make publish` uploads.'],
    ['Guide', 'guide.md', 'The guide is `docs/my guide/ünï code.md`.'],
    ['Logo', 'logo.md', 'The logo is `assets/logo.png`.'],
    ['Values', 'values.md', `All values:\n\n\`\`\`ts\n${BIG}\n\`\`\``],
    ['Links', 'links.md', 'See https://example.com/docs and branch `release/2.x`.'],
    ['Limit', 'limit.md', 'The limit is `const RETRY_LIMIT = 3` in the code.'],
    ['Release script', 'release.md', 'Release with `./scripts/release.sh`.'],
  ]
  const index = [
    '# Memory',
    '',
    ...entries.map(([t, f]) => `- [${t}](${f}) — about ${t.toLowerCase()}`),
    '- [Gone](gone.md) — dangling',
  ]
  writeFileSync(join(mem, 'MEMORY.md'), `${index.join('\n')}\n`)
  for (const [, f, body] of entries) writeFileSync(join(mem, f), topic(body))
  writeFileSync(join(mem, 'orphan.md'), topic('Orphaned: `src/c.ts` is the helper module.'))
})

afterAll(() => {
  rmSync(base, { recursive: true, force: true })
})

const byTitle = (notes: readonly AuditNote[], title: string): AuditNote => {
  const n = notes.find((x) => x.title === title)
  if (!n) throw new Error(`no note ${title}`)
  return n
}

describe('auditMemory on a scripted history', () => {
  let notes: readonly AuditNote[] = []
  let summary: Record<string, number> = {}
  let progress: [number, number][] = []

  beforeAll(async () => {
    clearHistoryCache()
    progress = []
    const r = await auditMemory({
      memoryDir: mem,
      repo,
      instructionFiles: [join(repo, 'CLAUDE.md')],
      onProgress: (d, t) => progress.push([d, t]),
    })
    notes = r.notes
    summary = r.summary
    expect(r.repo).toBe(repo)
    expect(r.problems).toEqual([])
  })

  it('follows a rename to its current path', () => {
    const n = byTitle(notes, 'Session handling')
    expect(n.verdict).toBe('stale')
    expect(n.line).toBe(3)
    expect(n.endLine).toBe(3)
    expect(n.file).toBe(join(mem, 'MEMORY.md'))
    expect(n.references).toEqual([
      {
        text: 'src/auth/session.ts',
        kind: 'path',
        status: 'moved',
        resolved: join(repo, 'src/auth/token-session.ts'),
        movedTo: join(repo, 'src/auth/token-session.ts'),
      },
      {
        text: 'createSession()',
        kind: 'symbol',
        status: 'ok',
        resolved: join(repo, 'src/auth/token-session.ts'),
        movedTo: null,
      },
    ])
    expect(n.reasons[0]).toBe(
      `\`src/auth/session.ts\` was renamed to \`src/auth/token-session.ts\` in ${shas.c3} on 2026-03-01`,
    )
    expect(n.writtenAt).toBe('2026-03-10T00:00:00.000Z')
    expect(n.reasons[n.reasons.length - 1]).toBe(
      'written-at 2026-03-10T00:00:00.000Z from frontmatter `updated`',
    )
  })

  it('follows a rename chain a → b → c', () => {
    const n = byTitle(notes, 'Helpers')
    expect(n.verdict).toBe('stale')
    expect(n.references[0].status).toBe('moved')
    expect(n.references[0].movedTo).toBe(join(repo, 'src/c.ts'))
    expect(n.reasons[0]).toBe(
      `\`src/a.ts\` was renamed to \`src/b.ts\` in ${shas.c2} on 2026-02-01, then to \`src/c.ts\` in ${shas.c4} on 2026-03-05`,
    )
  })

  it('reports a deleted file as missing, with the commit', () => {
    const n = byTitle(notes, 'Legacy parser')
    expect(n.verdict).toBe('stale')
    expect(n.references).toEqual([
      { text: 'src/old.ts', kind: 'path', status: 'missing', resolved: null, movedTo: null },
    ])
    expect(n.reasons[0]).toBe(`\`src/old.ts\` was deleted in ${shas.c4} on 2026-03-05`)
  })

  it('reports a removed package.json script', () => {
    const n = byTitle(notes, 'Scripts')
    expect(n.verdict).toBe('stale')
    expect(n.references).toEqual([
      { text: 'npm run lint', kind: 'command', status: 'missing', resolved: null, movedTo: null },
      {
        text: 'npm run build',
        kind: 'command',
        status: 'ok',
        resolved: join(repo, 'package.json'),
        movedTo: null,
      },
    ])
    expect(n.reasons[0]).toBe('`npm run lint`: no `lint` script in `package.json`')
  })

  it('reports a removed symbol while its file still exists', () => {
    const n = byTitle(notes, 'Dates')
    expect(n.verdict).toBe('stale')
    expect(n.references.map((r) => [r.text, r.kind, r.status])).toEqual([
      ['legacyHelper()', 'symbol', 'missing'],
      ['src/util.ts', 'path', 'ok'],
    ])
    expect(n.reasons[0]).toBe('`legacyHelper` is not found in the repository')
  })

  it('keeps an untouched note fresh', () => {
    const n = byTitle(notes, 'Stable')
    expect(n.verdict).toBe('fresh')
    expect(n.references.map((r) => [r.text, r.status, r.resolved])).toEqual([
      ['src/stable.ts', 'ok', join(repo, 'src/stable.ts')],
      ['stableValue', 'ok', join(repo, 'src/stable.ts')],
    ])
  })

  it('calls a note suspect when its file changed after it was written', () => {
    const n = byTitle(notes, 'Retries')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toBe(
      `\`src/edited.ts\` changed in ${shas.c5} on 2026-04-01, after the note was written`,
    )
  })

  it('calls a prose-only note unverifiable', () => {
    const n = byTitle(notes, 'Team')
    expect(n.verdict).toBe('unverifiable')
    expect(n.references).toEqual([])
    expect(n.reasons[0]).toBe('nothing checkable: no path, symbol, command or quoted code')
  })

  it('tells a quote with a small edit (changed) from a quote that is gone (missing)', () => {
    const changed = byTitle(notes, 'Totals')
    expect(changed.verdict).toBe('stale')
    expect(changed.references).toEqual([
      {
        text: `${TOTAL.split('\n')[0]} … (7 lines)`,
        kind: 'snippet',
        status: 'changed',
        resolved: join(repo, 'src/billing/total.ts'),
        movedTo: null,
      },
    ])
    expect(changed.reasons[0]).toMatch(
      /^quoted code `export function computeTotal.*` now appears only with changes in `src\/billing\/total.ts` \(lines 3–9, 93% alike\)$/,
    )
    const gone = byTitle(notes, 'Answer')
    expect(gone.verdict).toBe('stale')
    expect(gone.references.map((r) => [r.kind, r.status])).toEqual([['snippet', 'missing']])
    const inline = byTitle(notes, 'Limit')
    expect(inline.verdict).toBe('stale')
    expect(inline.references).toEqual([
      {
        text: 'const RETRY_LIMIT = 3',
        kind: 'snippet',
        status: 'changed',
        resolved: join(repo, 'src/edited.ts'),
        movedTo: null,
      },
    ])
  })

  it('checks make targets', () => {
    const n = byTitle(notes, 'Make')
    expect(n.verdict).toBe('stale')
    expect(n.references.map((r) => [r.text, r.status])).toEqual([
      ['make deploy', 'ok'],
      ['make publish', 'missing'],
    ])
    expect(n.reasons[0]).toBe('`make publish`: no `publish` target in `Makefile`')
  })

  it('handles paths with spaces and unicode, binary files and script files', () => {
    const guide = byTitle(notes, 'Guide')
    expect(guide.verdict).toBe('fresh')
    expect(guide.references[0].resolved).toBe(join(repo, 'docs/my guide/ünï code.md'))
    expect(byTitle(notes, 'Logo').verdict).toBe('fresh')
    const rel = byTitle(notes, 'Release script')
    expect(rel.verdict).toBe('fresh')
    expect(rel.references).toEqual([
      {
        text: './scripts/release.sh',
        kind: 'command',
        status: 'ok',
        resolved: join(repo, 'scripts/release.sh'),
        movedTo: null,
      },
    ])
  })

  it('checks a 5,000-line quote on its head without failing', () => {
    const n = byTitle(notes, 'Values')
    expect(n.verdict).toBe('fresh')
    expect(n.references[0].status).toBe('ok')
    expect(n.reasons[0]).toBe(
      'quoted code `export const value0 = 0 * 3 + 1` found in `src/big.ts` (only its first 2000 lines were compared)',
    )
  })

  it('does not check URLs and branches', () => {
    const n = byTitle(notes, 'Links')
    expect(n.verdict).toBe('unverifiable')
    expect(n.references).toEqual([
      {
        text: 'https://example.com/docs',
        kind: 'url',
        status: 'ok',
        resolved: null,
        movedTo: null,
      },
      { text: 'release/2.x', kind: 'branch', status: 'ok', resolved: null, movedTo: null },
    ])
    expect(n.reasons[0]).toBe(
      'nothing checkable: URLs and branch names are not checked against the code',
    )
  })

  it('audits orphan topics, dangling entries and instruction files', () => {
    const orphan = notes.find((n) => n.file === join(mem, 'orphan.md'))!
    expect(orphan).toMatchObject({ line: 1, endLine: 7, title: 't', verdict: 'fresh' })
    const dangling = byTitle(notes, 'Gone')
    expect(dangling.verdict).toBe('unverifiable')
    expect(dangling.reasons[0]).toBe('the topic file `gone.md` does not exist')
    const claude = notes.filter((n) => n.file === join(repo, 'CLAUDE.md'))
    expect(claude.map((n) => [n.line, n.verdict, n.writtenAt])).toEqual([
      [3, 'fresh', '2026-01-01T12:00:00.000Z'],
      [4, 'stale', '2026-01-01T12:00:00.000Z'],
      [5, 'stale', '2026-01-01T12:00:00.000Z'],
    ])
    // The note's own file is left out of the search, so it cannot vouch for itself.
    expect(claude[2].reasons[0]).toBe('`onlyInClaudeMd` is not found in the repository')
    expect(claude[0].reasons).toEqual([
      'written-at 2026-01-01T12:00:00.000Z from git blame (the last commit to these lines)',
    ])
  })

  it('counts every verdict and reports progress', () => {
    expect(summary).toEqual({ fresh: 7, suspect: 1, stale: 11, unverifiable: 3 })
    expect(notes.length).toBe(22)
    const [last] = progress.slice(-1)
    expect(last).toEqual([27, 27])
  })
})

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
    git(shop, ['init', '-q', '-b', 'main'])
    write(shop, '.gitignore', 'node_modules/\ndist/\n.env\n')
    write(shop, 'package.json', JSON.stringify({ scripts: { build: 'tsc', test: 'vitest' } }))
    write(shop, 'src/cart/money.ts', 'export const toCents = (n: number) => Math.round(n * 100)\n')
    write(shop, 'src/orders/receipt.ts', 'export function receipt() {\n  return 1\n}\n')
    write(shop, 'src/payments/charge.ts', 'export function charge() {\n  return 1\n}\n')
    write(shop, 'src/db.ts', 'export const url = process.env.DATABASE_URL\n')
    write(shop, 'tests/cart.test.ts', 'test("x", () => {})\n')
    write(shop, 'scripts/legacy.sh', '#!/bin/sh\necho legacy\n')
    const at = (d: string): void => {
      git(shop, ['add', '-A'])
      git(shop, ['commit', '-q', '-m', d], d)
      shopShas[d] = git(shop, ['rev-parse', 'HEAD']).trim().slice(0, 7)
    }
    at('2026-01-01T12:00:00Z')
    write(shop, 'src/orders/receipt.ts', 'export function receipt() {\n  return 2\n}\n')
    write(shop, 'src/payments/charge.ts', 'export function charge() {\n  return 2\n}\n')
    git(shop, ['rm', '-q', 'scripts/legacy.sh'])
    write(shop, 'README.md', 'Set DATABASE_URL before running anything.\n')
    at('2026-03-01T12:00:00Z')
    // feature/coupons is checked out in a second work tree, with a file main lacks.
    const wt = join(base, 'shop-coupons')
    git(shop, ['worktree', 'add', '-q', '-b', 'feature/coupons', wt])
    const coupons = (n: number): string =>
      `export function applyCoupon(subtotal: number, coupon: number): number {\n  return Math.max(${n}, subtotal - coupon)\n}\n`
    write(wt, 'src/cart/coupons.ts', coupons(0))
    git(wt, ['add', '-A'])
    git(wt, ['commit', '-q', '-m', 'coupons'], '2026-03-10T12:00:00Z')
    write(wt, 'src/cart/coupons.ts', coupons(1))
    git(wt, ['commit', '-q', '-am', 'coupons floor'], '2026-05-01T12:00:00Z')
    shopShas.floor = git(wt, ['rev-parse', 'HEAD']).trim().slice(0, 7)
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
    expect(line(4).references).toEqual([])
    expect(line(8).verdict).toBe('unverifiable')
    expect(line(8).references).toEqual([])
    expect(line(9).verdict).toBe('fresh')
    expect(line(9).references).toEqual([
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
    expect(line(5).references).toEqual([
      {
        text: 'money.ts',
        kind: 'path',
        status: 'ok',
        resolved: join(shop, 'src/cart/money.ts'),
        movedTo: null,
      },
    ])
    expect(line(5).reasons[0]).toBe('`money.ts` resolved to `src/cart/money.ts`')
    // The resolved file changed after the note: suspect, by its full path.
    expect(line(6).verdict).toBe('suspect')
    expect(line(6).reasons.slice(0, 2)).toEqual([
      '`receipt.ts` resolved to `src/orders/receipt.ts`',
      `\`src/orders/receipt.ts\` changed in ${shopShas['2026-03-01T12:00:00Z']} on 2026-03-01, after the note was written`,
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
    expect(n.references).toEqual([
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
    expect(n.verdict).toBe('suspect')
    expect(n.reasons.slice(0, 3)).toEqual([
      `\`src/cart/coupons.ts\` is on branch \`feature/coupons\` (work tree \`${wt}\`), not on the checked-out branch`,
      `\`applyCoupon(subtotal, coupon)\` is on branch \`feature/coupons\` (work tree \`${wt}\`), not on the checked-out branch`,
      `\`src/cart/coupons.ts\` changed in ${shopShas.floor} on 2026-05-01 on branch \`feature/coupons\`, after the note was written`,
    ])
    // A branch checked out nowhere cannot vouch for the note.
    expect(line(14).verdict).toBe('stale')
    expect(line(14).reasons[0]).toBe(
      '`src/cart/gift.ts` does not exist and git history has no record of it',
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
    expect(r.notes[0].reasons[0]).toBe('`dist/` is a build output folder; not checked')
    expect(r.notes[0].references.map((x) => [x.text, x.status])).toEqual([['src/a.ts', 'ok']])
  })
})

describe('writtenAt sources', () => {
  it('prefers the injected transcript provider, then falls back to file mtime', async () => {
    const m = join(base, 'mem-src')
    mkdirSync(m)
    writeFileSync(join(m, 'MEMORY.md'), '- [A](a.md) — a\n- [B](b.md) — b\n')
    writeFileSync(join(m, 'a.md'), 'Uses `src/stable.ts`.\n')
    writeFileSync(join(m, 'b.md'), 'Uses `src/edited.ts`.\n')
    const r = await auditMemory({
      memoryDir: m,
      repo,
      writtenAtFor: async (file) =>
        file.endsWith('a.md') ? { at: '2026-03-20T08:00:00Z', source: 'transcript' } : null,
    })
    const a = byTitle(r.notes, 'A')
    expect(a.writtenAt).toBe('2026-03-20T08:00:00.000Z')
    expect(a.reasons).toEqual([
      'written-at 2026-03-20T08:00:00.000Z from the session transcript that wrote it',
    ])
    const b = byTitle(r.notes, 'B')
    expect(b.verdict).toBe('fresh') // mtime is now, after every commit
    expect(b.reasons[b.reasons.length - 1]).toMatch(
      /from file mtime \(coarse: any later edit moves it\)$/,
    )
  })
})

describe('degraded repositories', () => {
  it('checks a plain folder without git, and reports missing paths plainly', async () => {
    const plain = join(base, 'plain')
    write(plain, 'src/x.ts', 'export function plainThing() {}\n')
    const m = join(base, 'mem-plain')
    mkdirSync(m)
    writeFileSync(join(m, 'MEMORY.md'), '- [X](x.md) — x\n- [Y](y.md) — y\n')
    writeFileSync(join(m, 'x.md'), topic('`src/x.ts` defines `plainThing()`.'))
    writeFileSync(join(m, 'y.md'), topic('`src/gone.ts` is gone.'))
    const r = await auditMemory({ memoryDir: m, repo: plain })
    expect(r.repo).toBe(plain)
    expect(byTitle(r.notes, 'X').verdict).toBe('suspect') // the file's mtime is after the frontmatter date
    expect(byTitle(r.notes, 'X').references.map((x) => x.status)).toEqual(['ok', 'ok'])
    const y = byTitle(r.notes, 'Y')
    expect(y.verdict).toBe('stale')
    expect(y.reasons[0]).toBe('`src/gone.ts` does not exist (no git history to tell where it went)')
  })

  it('calls everything unverifiable without a repository, and names a missing one', async () => {
    const r = await auditMemory({ memoryDir: mem, repo: null })
    expect(r.repo).toBeNull()
    expect(r.summary.unverifiable).toBe(r.notes.length)
    const missing = await auditMemory({ memoryDir: mem, repo: join(base, 'nope') })
    expect(missing.problems).toEqual([
      { path: join(base, 'nope'), reason: 'the repository folder does not exist' },
    ])
  })

  it('reports an unreadable memory folder as a problem', async () => {
    const r = await auditMemory({ memoryDir: join(base, 'no-memory'), repo })
    expect(r.notes).toEqual([])
    expect(r.problems[0].reason).toBe('cannot list the memory folder: ENOENT')
  })

  it('works in a shallow clone, saying history is cut', async () => {
    const shallow = join(base, 'shallow')
    git(base, ['clone', '-q', '--depth', '1', `file://${repo}`, shallow])
    clearHistoryCache()
    const r = await auditMemory({ memoryDir: mem, repo: shallow })
    const helpers = byTitle(r.notes, 'Helpers')
    expect(helpers.verdict).toBe('stale')
    expect(helpers.references[0]).toMatchObject({ status: 'missing', movedTo: null })
    expect(helpers.reasons[0]).toBe(
      '`src/a.ts` does not exist and git history has no record of it (shallow clone: older history is not available here)',
    )
    expect(byTitle(r.notes, 'Stable').verdict).toBe('fresh')
  })

  it('works on a detached HEAD', async () => {
    const det = join(base, 'detached')
    git(base, ['clone', '-q', repo, det])
    git(det, ['checkout', '-q', '--detach', 'HEAD~1'])
    const r = await auditMemory({ memoryDir: mem, repo: det })
    // At c4 the total.ts quote was still exact and edited.ts untouched.
    expect(byTitle(r.notes, 'Totals').verdict).toBe('fresh')
    expect(byTitle(r.notes, 'Retries').verdict).toBe('fresh')
    expect(byTitle(r.notes, 'Helpers').references[0].movedTo).toBe(join(det, 'src/c.ts'))
  })

  it('sees uncommitted changes made after the note', async () => {
    const wt = join(base, 'dirty')
    git(base, ['clone', '-q', repo, wt])
    write(wt, 'src/stable.ts', 'export const stableValue = 8\n')
    const r = await auditMemory({ memoryDir: mem, repo: wt })
    const n = byTitle(r.notes, 'Stable')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toBe(
      '`src/stable.ts` has uncommitted changes made after the note was written',
    )
  })

  it('stops when aborted', async () => {
    const ac = new AbortController()
    ac.abort()
    await expect(auditMemory({ memoryDir: mem, repo, signal: ac.signal })).rejects.toThrow()
  })
})

describe('noteDiffs', () => {
  const indexFile = (): string => join(mem, 'MEMORY.md')

  it('shows a renamed file then and now', async () => {
    const diffs = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 3 })
    expect(diffs.length).toBe(2)
    const [path] = diffs
    expect(path.before).toEqual({
      // At the commit before the note the file already had its new name.
      label: `src/auth/token-session.ts @ ${shas.c4} (2026-03-05)`,
      text: 'export function createSession() {\n  return 1\n}\n',
    })
    expect(path.after).toEqual({
      label: 'src/auth/token-session.ts (now)',
      text: 'export function createSession() {\n  return 1\n}\n',
    })
    expect(path.summary).toBe('no change')
  })

  it('shows the last commit at or before writtenAt for a file', async () => {
    const diffs = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 9 })
    expect(diffs[0].before!.label).toBe(`src/edited.ts @ ${shas.c4} (2026-03-05)`)
    expect(diffs[0].after!.text).toBe('export const RETRY_LIMIT = 5\nexport function retry() {}\n')
    expect(diffs[0].summary).toBe('+1 −1 lines')
  })

  it('shows a quote against its best match', async () => {
    const [d] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 11 })
    expect(d.before).toEqual({ label: 'quoted in the note', text: TOTAL })
    expect(d.after!.label).toBe('src/billing/total.ts:3-9')
    expect(d.summary).toBe('+1 −1 lines')
  })

  it('caps a 5,000-line quote and refuses binary files with a reason', async () => {
    const [values] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 16 })
    expect(values.before!.text.split('\n').length).toBe(2000)
    expect(values.summary).toBe('found as quoted (showing the first 2000 of 5000 lines)')
    const [logo] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 15 })
    expect(logo.before).toBeNull()
    expect(logo.after).toBeNull()
    expect(logo.summary).toBe(
      '`assets/logo.png` is a binary file; `assets/logo.png`: binary file (contains NUL bytes)',
    )
  })

  it('explains deleted files and missing symbols, and returns nothing for no note', async () => {
    const [old] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 5 })
    expect(old.before).toEqual({
      label: `src/old.ts @ ${shas.c4}^ (before it was deleted)`,
      text: 'export function parseLegacy() {\n  return 0\n}\n',
    })
    expect(old.after).toBeNull()
    expect(old.summary).toBe(`\`src/old.ts\` was deleted in ${shas.c4} on 2026-03-05`)
    const [sym] = await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 7 })
    expect(sym.summary).toBe('`legacyHelper` is not found in the repository')
    expect(await noteDiffs({ memoryDir: mem, repo, file: indexFile(), line: 1 })).toEqual([])
  })

  it('works for an instruction file line', async () => {
    const diffs = await noteDiffs({ memoryDir: mem, repo, file: join(repo, 'CLAUDE.md'), line: 4 })
    expect(diffs[0].reference.movedTo).toBe(join(repo, 'src/c.ts'))
    expect(diffs[0].before!.label).toBe(`src/a.ts @ ${shas.c1} (2026-01-01)`)
  })
})
