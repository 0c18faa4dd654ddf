/** loadOrder through src/node/load-order/load-order.ts on real temp trees with real git, and on the shared corpus. */
import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { utf8Length } from '../../../../src/core/text'
import { loadOrder } from '../../../../src/node/load-order/load-order'
import { CORPUS_ROOT, FIXTURES_ROOT, needsCorpus } from '../../../helpers/corpus'
import { git } from '../../../helpers/git'
import { sf } from './in-memory-disk'

/** The homes of a temp tree: Claude at home/.claude, Codex at codex, managed at managed, HOME at home. */
const homesIn = (root: string) => ({
  claudeHome: join(root, 'home/.claude'),
  codexHome: join(root, 'codex'),
  managedDir: join(root, 'managed'),
  env: { HOME: join(root, 'home') },
})

describe('loadOrder (real disk, real git)', () => {
  let root: string
  const write = (rel: string, text: string | Buffer) => {
    const p = join(root, rel)
    mkdirSync(dirname(p), { recursive: true })
    writeFileSync(p, text)
  }
  const inside = (p: string) => p.startsWith(root + '/')

  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'load-order-')))
    write('managed/CLAUDE.md', 'managed\n')
    write('home/.claude/CLAUDE.md', 'user\n')
    write('home/.claude/settings.json', JSON.stringify({ claudeMdExcludes: ['**/excluded/**'] }))
    write('home/.claude/rules/style.md', 'style\n')
    write('home/notes.md', 'personal notes\n')
    write('codex/AGENTS.md', 'codex global\n')
    write(
      'codex/config.toml',
      'project_doc_max_bytes = 20\nproject_doc_fallback_filenames = ["TEAM.md"]\n',
    )
    write('repo/CLAUDE.md', '@AGENTS.md\n@~/notes.md\n@logo.png\n@gone.md\n')
    write('repo/AGENTS.md', 'repo agents: ten+ bytes\n') // 24 bytes
    write('repo/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))
    mkdirSync(join(root, 'repo/.claude/rules'), { recursive: true })
    // Our own Cursor-style `globs:` rule, so this runs without the shared corpus (the corpus twin is at the end).
    copyFileSync(`${FIXTURES_ROOT}/rules/globs-tests.md`, join(root, 'repo/.claude/rules/tests.md'))
    write('repo/.claude/rules/api.md', '---\npaths:\n  - "src/api/**"\n---\napi\n')
    symlinkSync('.', join(root, 'repo/.claude/rules/loop')) // a symlink loop must not hang
    write('repo/CLAUDE.local.md', 'local\n')
    write('repo/app/TEAM.md', 'team\n')
    write('repo/app/sub/CLAUDE.md', 'sub\n')
    write('repo/app/excluded/CLAUDE.md', 'excluded\n')
    write('repo/app/node_modules/pkg/CLAUDE.md', 'never\n')
    execFileSync('mkfifo', [join(root, 'repo/app/CLAUDE.local.md')]) // a FIFO must not block
    git(join(root, 'repo'), 'init', '-q')
    // Imports from repo/CLAUDE.md leave the launch folder repo/app: approved (docs/memory-rules.md §3.7).
    write(
      'home/.claude.json',
      JSON.stringify({
        projects: { [join(root, 'repo')]: { hasClaudeMdExternalIncludesApproved: true } },
      }),
    )
  })

  afterAll(() => {
    rmSync(root, { recursive: true, force: true })
  })

  test('Claude and Codex orders for a launch folder inside a git repository', async () => {
    const memory = {
      path: join(root, 'home/.claude/projects/x/memory/MEMORY.md'),
      lines: 3,
      chars: 40,
    }
    const r = await loadOrder({
      cwd: join(root, 'repo/app'),
      ...homesIn(root),
      memoryFile: memory,
    })
    const p = (rel: string) => join(root, rel)
    // The globs rule loads without its frontmatter: 7 lines, 241 UTF-16 units (243 bytes: an em dash).
    const fixtureRule = readFileSync(`${FIXTURES_ROOT}/rules/globs-tests.md`, 'utf8')
    const ruleBody = fixtureRule.slice(fixtureRule.indexOf('\n---\n') + 5)
    expect([ruleBody.split('\n').length - 1, ruleBody.length, utf8Length(ruleBody)]).toEqual([
      7, 241, 243,
    ])
    expect(r.cwd).toBe(p('repo/app'))
    expect(r.claude.startup.filter((s) => inside(s.path))).toEqual([
      sf(p('managed/CLAUDE.md'), 'managed', 1, 8),
      sf(p('home/.claude/CLAUDE.md'), 'user', 1, 5),
      sf(p('home/.claude/rules/style.md'), 'rule', 1, 6),
      sf(p('repo/CLAUDE.md'), 'project', 4, 42),
      sf(p('repo/AGENTS.md'), 'import', 1, 24, p('repo/CLAUDE.md')),
      sf(p('home/notes.md'), 'import', 1, 15, p('repo/CLAUDE.md')),
      sf(p('repo/.claude/rules/tests.md'), 'rule', 7, 241),
      sf(p('repo/CLAUDE.local.md'), 'local', 1, 6),
      { ...memory, scope: 'memory', importedBy: null },
    ])
    expect(r.claude.onDemand.filter((o) => inside(o.path))).toEqual([
      { path: p('repo/.claude/rules/api.md'), scope: 'rule', trigger: 'paths: src/api/**' },
      {
        path: p('repo/app/sub/CLAUDE.md'),
        scope: 'project',
        trigger: `reading a file under ${p('repo/app/sub')}`,
      },
    ])
    expect(r.claude.skipped.filter((s) => inside(s.path)).map((s) => [s.path, s.reason])).toEqual([
      [p('repo/logo.png'), 'binary'],
      [p('repo/gone.md'), 'import-missing'],
      [p('repo/app/CLAUDE.local.md'), 'not-a-file'],
      [p('repo/app/excluded/CLAUDE.md'), 'excluded'],
    ])
    expect(r.claude.warnings.filter((w) => inside(w.path)).map((w) => [w.path, w.code])).toEqual([
      [p('home/notes.md'), 'import-outside-repo'],
      [p('repo/.claude/rules/tests.md'), 'globs-not-paths'],
    ])

    expect(r.codex).toEqual({
      budgetBytes: 20,
      projectRoot: p('repo'),
      files: [
        {
          path: p('codex/AGENTS.md'),
          scope: 'global',
          bytes: 13,
          includedBytes: 13,
          truncated: false,
        },
        {
          path: p('repo/AGENTS.md'),
          scope: 'project',
          bytes: 24,
          includedBytes: 20,
          truncated: true,
        },
      ],
      dropped: [
        {
          path: p('repo/app/TEAM.md'),
          reason: 'budget-exhausted',
          detail: 'the 20-byte budget is used by files nearer the root',
        },
      ],
    })
    expect(r.problems).toEqual([])
  })

  test('bad settings JSON is a warning; the disable switch comes from the env passed in', async () => {
    write('home2/.claude/settings.json', '{ not json')
    write('home2/.claude/CLAUDE.md', 'user\n')
    const r = await loadOrder({
      cwd: join(root, 'repo'),
      claudeHome: join(root, 'home2/.claude'),
      codexHome: join(root, 'nocodex'),
      managedDir: join(root, 'nomanaged'),
      env: { HOME: join(root, 'home2'), CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1' },
    })
    expect(r.claude.warnings.filter((w) => inside(w.path)).map((w) => [w.path, w.code])).toEqual([
      [join(root, 'home2/.claude/settings.json'), 'settings-invalid-json'],
    ])
    expect(r.claude.startup.filter((s) => inside(s.path))).toEqual([])
    // Sorted: the rules folder is listed in raw filesystem order, which differs between machines.
    expect(
      r.claude.skipped
        .filter((s) => inside(s.path))
        .map((s) => [s.path, s.reason])
        .sort(),
    ).toEqual(
      [
        [join(root, 'home2/.claude/CLAUDE.md'), 'disabled'],
        [join(root, 'repo/CLAUDE.md'), 'disabled'],
        [join(root, 'repo/AGENTS.md'), 'disabled'],
        [join(root, 'repo/.claude/rules/api.md'), 'disabled'],
        [join(root, 'repo/.claude/rules/tests.md'), 'disabled'],
        [join(root, 'repo/CLAUDE.local.md'), 'disabled'],
        [join(root, 'repo/app/CLAUDE.local.md'), 'disabled'],
        [join(root, 'repo/app/excluded/CLAUDE.md'), 'disabled'],
        [join(root, 'repo/app/sub/CLAUDE.md'), 'disabled'],
      ].sort(),
    )
    // Codex with defaults: no home files, the repo root file whole.
    expect(r.codex.files.map((f) => [f.path, f.includedBytes])).toEqual([
      [join(root, 'repo/AGENTS.md'), 24],
    ])
  })
})

describe('loadOrder on the shared corpus', () => {
  test('the easytrade tests rule loads whole without its frontmatter and warns about globs:', async (ctx) => {
    needsCorpus(ctx)
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'load-order-corpus-')))
    try {
      const rule = join(root, 'repo/.claude/rules/tests.md')
      mkdirSync(dirname(rule), { recursive: true })
      copyFileSync(`${CORPUS_ROOT}/rules/easytrade-tests.md`, rule)
      git(join(root, 'repo'), 'init', '-q')
      const r = await loadOrder({
        cwd: join(root, 'repo'),
        ...homesIn(root),
      })
      // 22 lines, 866 UTF-16 units (it has em dashes).
      expect(r.claude.startup.filter((s) => s.path.startsWith(root + '/'))).toEqual([
        sf(rule, 'rule', 22, 866),
      ])
      expect(r.claude.warnings.filter((w) => w.path === rule).map((w) => w.code)).toEqual([
        'globs-not-paths',
      ])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
