import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEMORY_MAX_CHARS, MEMORY_MAX_LINES } from '../../../../src/core/limits'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import { countLines, splitLines } from '../../../../src/core/text'
import {
  DemoError,
  defaultDemoDir,
  demoResourcesDir,
  materializeDemo,
  type DemoResult,
} from '../../../../src/node/app/demo'
import { clearRepoCache, findRepo } from '../../../../src/node/git/repo'
import { git } from '../../../helpers/git'

const resourcesDir = demoResourcesDir() ?? ''
let tmp: string
let demo: DemoResult
let memoryDir: string

/** Run git in a demo folder, isolated from the environment of whoever runs the tests. */

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(join(e.parentPath, e.name))
  }
  return out.sort()
}

interface Line {
  readonly [key: string]: unknown
}
const readJsonl = async (path: string): Promise<Line[]> =>
  splitLines(await readFile(path, 'utf8')).map((l) => JSON.parse(l) as Line)

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mc-demo-'))
  demo = await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir })
  memoryDir = join(demo.claudeHome, 'projects', encodeProjectDir(demo.repoRoot), 'memory')
})

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true })
})

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
    // The worktree's session writes to the main checkout's memory (memory-facts §1).
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

describe('materializeDemo: memory and transcripts', () => {
  it('has a MEMORY.md that runs past the line cutoff but not the character cutoff', async () => {
    const text = await readFile(join(memoryDir, 'MEMORY.md'), 'utf8')
    expect(countLines(text)).toBe(230)
    expect(countLines(text)).toBeGreaterThan(MEMORY_MAX_LINES)
    expect(text.length).toBeLessThan(MEMORY_MAX_CHARS)
    const tail = splitLines(text).slice(MEMORY_MAX_LINES)
    expect(tail.filter((l) => l.startsWith('- ['))).toEqual([
      '- [Payments retry](payments-retry.md) — chargeCard retries transport errors with one idempotency key per order',
      '- [Coupons](coupons.md) — percent and fixed discounts, applied before tax (branch feature/coupons)',
      '- [API conventions](api-conventions.md) — rate limit per client address, error shape, where routes live',
      '- [Payment webhooks](payment-webhooks.md) — how gateway events will reach the orders table',
    ])
  })

  it('has exactly one orphan topic file and one dangling entry', async () => {
    const text = await readFile(join(memoryDir, 'MEMORY.md'), 'utf8')
    const linked = [...text.matchAll(/\]\(([^)]+\.md)\)/g)].map((m) => m[1])
    const topics = (await readdir(memoryDir)).filter((n) => n !== 'MEMORY.md')
    expect(topics).toHaveLength(10)
    expect(topics.filter((t) => !linked.includes(t))).toEqual(['deploy-checklist.md'])
    expect(linked.filter((l) => !topics.includes(l))).toEqual(['payment-webhooks.md'])
  })

  it('gives topic files frontmatter, and one note Korean and emoji', async () => {
    for (const t of (await readdir(memoryDir)).filter((n) => n !== 'MEMORY.md')) {
      const text = await readFile(join(memoryDir, t), 'utf8')
      expect(text, t).toMatch(
        /^---\nname: .+\ndescription: .+\ntype: (user|feedback|project|reference)\noriginSessionId: [0-9a-f-]{36}\n/,
      )
      expect(text, t).toContain('**Why:**')
      expect(text, t).toContain('**How to apply:**')
    }
    const prefs = await readFile(join(memoryDir, 'team-preferences.md'), 'utf8')
    expect(prefs).toMatch(/[\uac00-\ud7a3]/)
    expect(prefs).toContain('🙏')
    expect(prefs).not.toContain('`')
  })

  it('writes only valid JSON lines whose cwd is a materialised folder', async () => {
    const cwds = new Set([demo.repoRoot, demo.worktreeRoot, join(demo.root, 'code', 'notes-site')])
    const transcripts = (await filesUnder(join(demo.claudeHome, 'projects'))).filter((f) =>
      f.endsWith('.jsonl'),
    )
    expect(transcripts).toHaveLength(7)
    for (const f of transcripts) {
      const folder = f.slice(join(demo.claudeHome, 'projects').length + 1).split(/[/\\]/)[0]
      for (const line of await readJsonl(f)) {
        if (line.cwd === undefined) continue
        expect(cwds.has(line.cwd as string), `${f}: ${String(line.cwd)}`).toBe(true)
        expect(encodeProjectDir(line.cwd as string)).toBe(folder)
        expect(
          typeof line.timestamp === 'string' && !Number.isNaN(Date.parse(line.timestamp)),
        ).toBe(true)
      }
    }
  })

  it('replays to the memory files on disk, and records the lost line', async () => {
    const ops = await memoryOps(demo)
    const byFile = new Map<string, MemOp[]>()
    for (const op of ops.filter((o) => o.ok))
      byFile.set(op.path, [...(byFile.get(op.path) ?? []), op])
    expect(byFile.size).toBe(13) // all 11 acme-shop memory files + 2 of notes-site
    for (const [path, list] of byFile) {
      const ok = [...list].sort((a, b) => a.timestamp.localeCompare(b.timestamp))
      const lastWrite = ok.map((o) => o.tool).lastIndexOf('Write')
      expect(lastWrite, path).toBeGreaterThanOrEqual(0)
      let content = ok[lastWrite].content ?? ''
      for (const e of ok.slice(lastWrite + 1)) {
        expect(content.split(e.oldString ?? '').length, path).toBe(2)
        content = content.replace(e.oldString ?? '', e.newString ?? '')
      }
      expect(content, path).toBe(await readFile(path, 'utf8'))
      // The file's mtime is the time of its last successful write.
      const mtime = (await stat(path)).mtimeMs
      expect(Math.abs(mtime - Date.parse(ok[ok.length - 1].timestamp)), path).toBeLessThan(2)
    }
    const index = join(memoryDir, 'MEMORY.md')
    const deploy = '- [Deploy checklist](deploy-checklist.md)'
    const adder = ops.find((o) => o.path === index && o.ok && o.newString?.includes(deploy))
    const dropper = ops.find(
      (o) =>
        o.path === index && o.ok && o.tool === 'Write' && o.timestamp > (adder?.timestamp ?? ''),
    )
    expect(adder?.cwd).toBe(demo.repoRoot)
    expect(dropper?.cwd).toBe(demo.worktreeRoot)
    expect(dropper?.sessionId).not.toBe(adder?.sessionId)
    expect(dropper?.content).not.toContain(deploy)
    expect(
      ops
        .filter((o) => !o.ok)
        .map((o) => `${o.tool} ${o.path.split(/[/\\]/).pop()}`)
        .sort(),
    ).toEqual(['Edit testing.md', 'Write payment-webhooks.md'])
  })

  it('dates transcripts by their last line', async () => {
    const transcripts = (await filesUnder(join(demo.claudeHome, 'projects'))).filter((f) =>
      f.endsWith('.jsonl'),
    )
    for (const f of transcripts) {
      const lines = await readJsonl(f)
      const last = [...lines].reverse().find((l) => typeof l.timestamp === 'string')
      expect(
        Math.abs((await stat(f)).mtimeMs - Date.parse(last?.timestamp as string)),
        f,
      ).toBeLessThan(2)
    }
  })
})

describe('materializeDemo: reuse and rebuild', () => {
  it('reuses an up-to-date demo', async () => {
    const sentinel = join(demo.root, 'sentinel.txt')
    await writeFile(sentinel, 'kept')
    const again = await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir })
    expect(again).toEqual({ ...demo, reused: true })
    expect(await readFile(sentinel, 'utf8')).toBe('kept')
  })

  it('rebuilds with force, at the same paths and with the same commit ids', async () => {
    const head = git(demo.repoRoot, 'rev-parse', 'main', 'feature/coupons')
    const again = await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir, force: true })
    expect(again).toEqual({ ...demo, reused: false })
    expect(await readdir(demo.root)).not.toContain('sentinel.txt')
    expect(git(demo.repoRoot, 'rev-parse', 'main', 'feature/coupons')).toBe(head)
    expect(git(demo.worktreeRoot, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature/coupons')
    expect((await readdir(join(tmp, 'demo'))).sort()).toEqual(['root'])
  })

  it('rebuilds when a template changes, and warns when placed inside a git repository', async () => {
    const res = join(tmp, 'resources-copy')
    await cp(resourcesDir, res, { recursive: true })
    const outer = join(tmp, 'outer-repo')
    await mkdir(outer)
    git(outer, 'init', '-q')
    const first = await materializeDemo({ targetDir: join(outer, 'demo'), resourcesDir: res })
    expect(first.reused).toBe(false)
    expect(first.warnings).toHaveLength(1)
    expect(first.warnings[0]).toContain(outer)
    await writeFile(join(res, 'codex-home', 'AGENTS.md'), '# changed\n')
    const second = await materializeDemo({ targetDir: join(outer, 'demo'), resourcesDir: res })
    expect(second.reused).toBe(false)
    expect(await readFile(join(second.codexHome, 'AGENTS.md'), 'utf8')).toBe('# changed\n')
    expect(
      (await materializeDemo({ targetDir: join(outer, 'demo'), resourcesDir: res })).reused,
    ).toBe(true)
  })

  it('removes what a killed build left behind', async () => {
    const stale = join(tmp, 'demo', '.staging-AbC123')
    await mkdir(join(stale, 'claude-home'), { recursive: true })
    await writeFile(join(tmp, 'demo', 'keep-me'), 'not ours')
    await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir, force: true })
    expect((await readdir(join(tmp, 'demo'))).sort()).toEqual(['keep-me', 'root'])
    await rm(join(tmp, 'demo', 'keep-me'))
  })

  it('names a target that is a file', async () => {
    await writeFile(join(tmp, 'a-file'), '')
    await expect(materializeDemo({ targetDir: join(tmp, 'a-file'), resourcesDir })).rejects.toThrow(
      `cannot use ${join(tmp, 'a-file')} as the demo folder`,
    )
  })

  it('rebuilds a demo whose repository was deleted', async () => {
    await rm(join(demo.worktreeRoot), { recursive: true, force: true })
    const again = await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir })
    expect(again.reused).toBe(false)
    expect(git(demo.worktreeRoot, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('feature/coupons')
  })
})

describe('materializeDemo: bad templates', () => {
  it('names the missing manifest', async () => {
    const empty = await mkdtemp(join(tmp, 'empty-'))
    const run = materializeDemo({ targetDir: join(tmp, 'never'), resourcesDir: empty })
    await expect(run).rejects.toBeInstanceOf(DemoError)
    await expect(run).rejects.toThrow(join(empty, 'demo.json'))
  })

  it('refuses manifest paths that leave the target', async () => {
    const res = join(tmp, 'resources-evil')
    await cp(resourcesDir, res, { recursive: true })
    const manifest = JSON.parse(await readFile(join(res, 'demo.json'), 'utf8')) as {
      repo: { dir: string }
    }
    manifest.repo.dir = '../escaped'
    await writeFile(join(res, 'demo.json'), JSON.stringify(manifest))
    await expect(
      materializeDemo({ targetDir: join(tmp, 'evil'), resourcesDir: res }),
    ).rejects.toThrow('not a plain relative path: ../escaped')
  })
})

describe('defaultDemoDir and demoResourcesDir', () => {
  it('uses XDG_CACHE_HOME, else ~/.cache', () => {
    expect(defaultDemoDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/h' })).toBe(
      join('/x/cache', 'memory-curator', 'demo'),
    )
    expect(defaultDemoDir({ XDG_CACHE_HOME: 'relative', HOME: '/h' })).toBe(
      join('/h', '.cache', 'memory-curator', 'demo'),
    )
  })

  it('honours MEMORY_CURATOR_RESOURCES', async () => {
    const res = join(tmp, 'env-resources')
    await mkdir(join(res, 'demo'), { recursive: true })
    await writeFile(join(res, 'demo', 'demo.json'), '{}')
    expect(demoResourcesDir({ MEMORY_CURATOR_RESOURCES: res })).toBe(join(res, 'demo'))
    expect(demoResourcesDir({ MEMORY_CURATOR_RESOURCES: join(res, 'demo') })).toBe(
      join(res, 'demo'),
    )
    expect(demoResourcesDir({ MEMORY_CURATOR_RESOURCES: join(tmp, 'nowhere') })).toBe(resourcesDir)
  })
})

interface MemOp {
  readonly path: string
  readonly tool: string
  readonly ok: boolean
  readonly timestamp: string
  readonly sessionId: string
  readonly cwd: string
  readonly content?: string
  readonly oldString?: string
  readonly newString?: string
}

/** Write/Edit calls on memory files with whether they succeeded, from every transcript. */
async function memoryOps(d: DemoResult): Promise<MemOp[]> {
  const ops: MemOp[] = []
  const transcripts = (await filesUnder(join(d.claudeHome, 'projects'))).filter((f) =>
    f.endsWith('.jsonl'),
  )
  for (const f of transcripts) {
    const lines = await readJsonl(f)
    const results = new Map<string, { isError: boolean; timestamp: string }>()
    for (const l of lines) {
      const content = (l.message as { content?: unknown } | undefined)?.content
      if (!Array.isArray(content)) continue
      for (const b of content as { type: string; tool_use_id?: string; is_error?: boolean }[]) {
        if (b.type === 'tool_result' && b.tool_use_id) {
          results.set(b.tool_use_id, {
            isError: b.is_error === true,
            timestamp: l.timestamp as string,
          })
        }
      }
    }
    for (const l of lines) {
      const content = (l.message as { content?: unknown } | undefined)?.content
      if (!Array.isArray(content)) continue
      for (const b of content as {
        type: string
        id?: string
        name?: string
        input?: Record<string, string>
      }[]) {
        if (b.type !== 'tool_use' || (b.name !== 'Write' && b.name !== 'Edit') || !b.input) continue
        if (!b.input.file_path.includes(`${join('', 'memory', '')}`)) continue
        const r = results.get(b.id ?? '')
        ops.push({
          path: b.input.file_path,
          tool: b.name,
          ok: r !== undefined && !r.isError,
          timestamp: r?.timestamp ?? (l.timestamp as string),
          sessionId: l.sessionId as string,
          cwd: l.cwd as string,
          content: b.input.content,
          oldString: b.input.old_string,
          newString: b.input.new_string,
        })
      }
    }
  }
  return ops
}
