/** materializeDemo: the folders it writes and the git repository (commits, worktree) it builds. */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import { clearRepoCache, findRepo } from '../../../../src/node/git/repo'
import { git } from '../../../helpers/git'
import {
  resourcesDir,
  filesUnder,
  buildDemo,
  removeDemo,
  demo,
  tmp,
  memoryDir,
} from './demo-fixture'

beforeAll(buildDemo)
afterAll(removeDemo)

describe('materializeDemo: layout', () => {
  it('finds the templates next to the code', () => {
    expect(resourcesDir).toMatch(/[/\\]resources[/\\]demo$/)
  })

  it('returns the folders under <target>/root', () => {
    const root = join(tmp, 'demo', 'root')
    expect(demo).toEqual({
      root,
      claudeHome: join(root, 'claude-home'),
      codexHome: join(root, 'codex-home'),
      managedDir: join(root, 'managed'),
      repoRoot: join(root, 'code', 'acme-shop'),
      worktreeRoot: join(root, 'code', 'acme-shop-coupons'),
      reused: false,
      warnings: [],
    })
  })

  it('writes nothing beside the target folder and leaves no staging behind', async () => {
    expect(await readdir(tmp)).toEqual(['demo'])
    expect((await readdir(join(tmp, 'demo'))).sort()).toEqual(['root'])
  })

  it('fills in every placeholder', async () => {
    for (const f of await filesUnder(demo.root)) {
      if (f.includes(`${join('acme-shop', '.git')}`)) continue
      const text = await readFile(f, 'utf8')
      expect(text.includes('{{'), f).toBe(false)
    }
  })

  it('names project folders after the real paths', async () => {
    const projects = (await readdir(join(demo.claudeHome, 'projects'))).sort()
    expect(projects).toEqual(
      [
        encodeProjectDir(demo.repoRoot),
        encodeProjectDir(demo.worktreeRoot),
        encodeProjectDir(join(demo.root, 'code', 'notes-site')),
        encodeProjectDir(join(demo.root, 'code', 'old-prototype')),
      ].sort(),
    )
    // The worktree's session writes to the main checkout's memory (docs/memory-rules.md §1.5).
    const wtFolder = join(demo.claudeHome, 'projects', encodeProjectDir(demo.worktreeRoot))
    expect((await readdir(wtFolder)).every((n) => n.endsWith('.jsonl'))).toBe(true)
    const old = join(
      demo.claudeHome,
      'projects',
      encodeProjectDir(join(demo.root, 'code', 'old-prototype')),
    )
    expect(await readdir(old)).toEqual(['memory'])
  })

  it('has the user, codex and managed instruction files', async () => {
    expect((await stat(join(demo.claudeHome, 'CLAUDE.md'))).isFile()).toBe(true)
    expect((await stat(join(demo.codexHome, 'AGENTS.md'))).isFile()).toBe(true)
    expect((await stat(join(demo.managedDir, 'CLAUDE.md'))).isFile()).toBe(true)
  })
})

describe('materializeDemo: the git repository', () => {
  it('has the commits of main in order, with fixed dates', () => {
    const log = git(demo.repoRoot, 'log', '--reverse', '--format=%s', 'main').split('\n')
    expect(log).toEqual([
      'Initial shop skeleton',
      'Add agent instructions and architecture notes',
      'Cart: round tax once per line',
      'Payments: charge cards with retry',
      'Orders: idempotent createOrder and plain-text receipts',
      'Auth: rename session module to token-session',
      'Remove the legacy catalogue import',
      'Money: replace formatPrice with Intl-based formatMoney',
      'Payments: five retries with jittered backoff',
      'API: per-client rate limiting',
    ])
    expect(git(demo.repoRoot, 'log', '-1', '--format=%aI|%cI|%an <%ae>', 'main')).toBe(
      '2026-04-06T11:25:00+02:00|2026-04-06T11:25:00+02:00|Sam Ortiz <sam@acme-shop.example>',
    )
    expect(git(demo.repoRoot, 'log', '--format=%s', 'main..feature/coupons').split('\n')).toEqual([
      'Coupons: ignore expired codes',
      'Coupons: percent and fixed-amount discounts',
    ])
    expect(git(demo.repoRoot, 'status', '--porcelain')).toBe('')
  })

  it('records the rename, the deletion and the removed script and symbol', () => {
    const follow = git(
      demo.repoRoot,
      'log',
      '--follow',
      '--name-status',
      '--format=',
      '--',
      'src/auth/token-session.ts',
    )
    expect(follow).toMatch(/^R\d+\tsrc\/auth\/session\.ts\tsrc\/auth\/token-session\.ts$/m)
    expect(git(demo.repoRoot, 'log', '--diff-filter=D', '--name-only', '--format=')).toBe(
      'scripts/legacy-import.sh',
    )
    const first = git(demo.repoRoot, 'rev-list', '--max-parents=0', 'HEAD')
    expect(git(demo.repoRoot, 'show', `${first}:package.json`)).toContain('"import:legacy"')
    expect(git(demo.repoRoot, 'show', 'HEAD:package.json')).not.toContain('import:legacy')
    expect(
      git(demo.repoRoot, 'grep', '-c', 'formatPrice', first, '--', 'src/cart/money.ts'),
    ).toMatch(/:1$/)
    expect(() => git(demo.repoRoot, 'grep', '-q', 'formatPrice', 'HEAD')).toThrow()
    expect(git(demo.repoRoot, 'ls-files', '-s', 'scripts')).not.toContain('legacy-import.sh')
    expect(git(demo.repoRoot, 'ls-tree', first, 'scripts/legacy-import.sh')).toMatch(/^100755 /)
  })

  it('keeps CLAUDE.local.md untracked and ignored', async () => {
    expect((await stat(join(demo.repoRoot, 'CLAUDE.local.md'))).isFile()).toBe(true)
    expect(git(demo.repoRoot, 'check-ignore', 'CLAUDE.local.md')).toBe('CLAUDE.local.md')
    expect(git(demo.repoRoot, 'ls-files', '.claude/rules')).toBe(
      '.claude/rules/api-handlers.md\n.claude/rules/testing.md',
    )
  })

  it('has a linked worktree on the feature branch sharing the main repository', async () => {
    const common = git(demo.worktreeRoot, 'rev-parse', '--path-format=absolute', '--git-common-dir')
    expect(common).toBe(join(demo.repoRoot, '.git'))
    expect(git(demo.worktreeRoot, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature/coupons')
    expect((await stat(join(demo.worktreeRoot, 'src', 'cart', 'coupons.ts'))).isFile()).toBe(true)
    clearRepoCache()
    expect(await findRepo(demo.worktreeRoot)).toEqual({
      toplevel: demo.worktreeRoot,
      mainRoot: demo.repoRoot,
      isLinkedWorktree: true,
    })
  })

  it('backs the note verdicts the demo promises', async () => {
    const repo = demo.repoRoot
    const cart = await readFile(join(repo, 'src', 'cart', 'cart.ts'), 'utf8')
    expect(cart).toContain('const lineTax = roundCents(lineNet * rate)') // cart-totals: fresh
    const notes = await readFile(join(memoryDir, 'cart-totals.md'), 'utf8')
    expect(notes).toContain('const lineTax = roundCents(lineNet * rate)')
    // payments-retry is suspect: its file changed in a commit after the note was written.
    const noteAt = (await stat(join(memoryDir, 'payments-retry.md'))).mtimeMs
    const changedAt = Date.parse(
      git(repo, 'log', '-1', '--format=%cI', '--', 'src/payments/charge.ts'),
    )
    expect(changedAt).toBeGreaterThan(noteAt)
    // api-conventions is fresh: written after the last change of what it names.
    const apiAt = (await stat(join(memoryDir, 'api-conventions.md'))).mtimeMs
    const routesAt = Date.parse(git(repo, 'log', '-1', '--format=%cI', '--', 'packages/api'))
    expect(apiAt).toBeGreaterThan(routesAt)
  })
})
