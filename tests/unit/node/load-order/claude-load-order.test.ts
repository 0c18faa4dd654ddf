/** claudeLoadOrder on an in-memory disk: scopes, imports, rules, excludes, limits. */
import { describe, expect, test } from 'vitest'
import { claudeLoadOrder, type ClaudeLoadInput } from '../../../../src/core/load-order/claude'
import { CORE_INPUT } from '../../../helpers/load-order-input'
import { memPort, sf } from './in-memory-disk'

const BASE: ClaudeLoadInput = CORE_INPUT

describe('claudeLoadOrder (in memory)', () => {
  test('scopes in order: managed, user, root-to-cwd folders, then MEMORY.md; on-demand below', async () => {
    const port = memPort({
      '/m/CLAUDE.md': 'managed\n',
      '/m/rules/z.md': 'mz\n',
      '/h/.claude/CLAUDE.md': 'user\nline 2\n',
      '/h/.claude/rules/u.md': 'u\n',
      '/CLAUDE.md': 'root\n',
      '/r/CLAUDE.md': '<!-- a block comment\nspanning lines -->\nrepo\n',
      '/r/.claude/CLAUDE.md': 'dot claude\n',
      '/r/.claude/rules/b.md': 'b\n',
      '/r/.claude/rules/a.md': 'a\n',
      '/r/.claude/rules/sub/c.md': 'c\n',
      '/r/.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nts only\n',
      '/r/.claude/rules/g.md': '---\nglobs: src/**\n---\nG\n',
      '/r/.claude/rules/all.md': '---\npaths: "**"\n---\nall\n',
      '/r/CLAUDE.local.md': 'local\n',
      '/r/AGENTS.md': 'agents\n',
      '/r/app/CLAUDE.md': 'app\n',
      '/r/app/sub/CLAUDE.md': 'sub\n',
      '/r/app/sub/deeper/CLAUDE.local.md': 'deeper\n',
      '/r/app/node_modules/x/CLAUDE.md': 'never\n',
      '/r/app/.hidden/CLAUDE.md': 'never\n',
      '/r/app/pkg/.claude/CLAUDE.md': 'pkg\n',
      '/r/app/pkg/.claude/rules/p.md': '---\npaths: "*.ts, lib/{a,b}.js"\n---\np\n',
      '/r/app/pkg/AGENTS.md': 'pkg agents\n',
    })
    const mem = { path: '/h/.claude/projects/-r/memory/MEMORY.md', lines: 12, chars: 345 }
    const r = await claudeLoadOrder({ ...BASE, memoryFile: mem }, port)
    expect(r.startup).toEqual([
      sf('/m/CLAUDE.md', 'managed', 1, 8),
      sf('/m/rules/z.md', 'rule', 1, 3),
      sf('/h/.claude/CLAUDE.md', 'user', 2, 12),
      sf('/h/.claude/rules/u.md', 'rule', 1, 2),
      sf('/CLAUDE.md', 'project', 1, 5),
      sf('/r/CLAUDE.md', 'project', 1, 5),
      sf('/r/.claude/CLAUDE.md', 'project', 1, 11),
      sf('/r/.claude/rules/a.md', 'rule', 1, 2),
      sf('/r/.claude/rules/all.md', 'rule', 1, 4),
      sf('/r/.claude/rules/b.md', 'rule', 1, 2),
      sf('/r/.claude/rules/g.md', 'rule', 1, 2),
      sf('/r/.claude/rules/sub/c.md', 'rule', 1, 2),
      sf('/r/CLAUDE.local.md', 'local', 1, 6),
      sf('/r/app/CLAUDE.md', 'project', 1, 4),
      { path: mem.path, scope: 'memory', importedBy: null, lines: 12, chars: 345 },
    ])
    expect(r.onDemand).toEqual([
      { path: '/r/.claude/rules/ts.md', scope: 'rule', trigger: 'paths: src/**/*.ts' },
      {
        path: '/r/app/pkg/.claude/CLAUDE.md',
        scope: 'project',
        trigger: 'reading a file under /r/app/pkg',
      },
      {
        path: '/r/app/pkg/.claude/rules/p.md',
        scope: 'rule',
        trigger: 'paths: *.ts, lib/a.js, lib/b.js (under /r/app/pkg)',
      },
      {
        path: '/r/app/sub/CLAUDE.md',
        scope: 'project',
        trigger: 'reading a file under /r/app/sub',
      },
      {
        path: '/r/app/sub/deeper/CLAUDE.local.md',
        scope: 'local',
        trigger: 'reading a file under /r/app/sub/deeper',
      },
    ])
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['/r/AGENTS.md', 'agents-md-shadowed'],
      ['/r/app/pkg/AGENTS.md', 'agents-md-shadowed'],
    ])
    expect(r.warnings.map((w) => [w.path, w.code])).toEqual([
      ['/r/.claude/rules/g.md', 'globs-not-paths'],
    ])
  })

  test('imports: right after the importer, 4 hops load and the 5th is skipped; code spans ignored', async () => {
    const port = memPort({
      '/r/app/CLAUDE.md':
        '@docs/one.md\n`@docs/code.md`\n```\n@docs/fenced.md\n```\nmail a@b.com\n@missing.md\n@img.png\n',
      '/r/app/docs/one.md': '@two.md\n',
      '/r/app/docs/two.md': '@./three.md\n',
      '/r/app/docs/three.md': '@four.md\n',
      '/r/app/docs/four.md': '@five.md\n',
      '/r/app/docs/five.md': 'five\n',
      '/r/app/docs/code.md': 'never\n',
      '/r/app/docs/fenced.md': 'never\n',
      '/r/app/img.png': { kind: 'binary' },
      '/r/app/CLAUDE.local.md': 'local\n',
    })
    const r = await claudeLoadOrder(BASE, port)
    expect(r.startup.map((s) => [s.path, s.scope, s.importedBy])).toEqual([
      ['/r/app/CLAUDE.md', 'project', null],
      ['/r/app/docs/one.md', 'import', '/r/app/CLAUDE.md'],
      ['/r/app/docs/two.md', 'import', '/r/app/docs/one.md'],
      ['/r/app/docs/three.md', 'import', '/r/app/docs/two.md'],
      ['/r/app/docs/four.md', 'import', '/r/app/docs/three.md'],
      ['/r/app/CLAUDE.local.md', 'local', null],
    ])
    expect(r.skipped).toEqual([
      {
        path: '/r/app/docs/five.md',
        reason: 'import-depth',
        detail: '5 hops from the importing file, over 4',
        importedBy: '/r/app/docs/four.md',
      },
      {
        path: '/r/app/missing.md',
        reason: 'import-missing',
        detail: 'Claude ignores a missing import silently',
        importedBy: '/r/app/CLAUDE.md',
      },
      {
        path: '/r/app/img.png',
        reason: 'binary',
        detail: 'binary file',
        importedBy: '/r/app/CLAUDE.md',
      },
    ])
    expect(r.warnings).toEqual([])
  })

  test('import cycles and repeats are skipped; imports outside the repo and home warn', async () => {
    const port = memPort({
      '/r/app/CLAUDE.md': '@a.md\n@b.md\n@~/notes.md\n@~/.claude/shared.md\n',
      '/r/app/a.md': '@b.md\n',
      '/r/app/b.md': '@a.md\n',
      '/h/notes.md': 'notes\n',
      '/h/.claude/shared.md': 'shared\n',
    })
    // Approved: imports outside the launch directory load (docs/memory-rules.md §3.7 [agent]).
    const r = await claudeLoadOrder({ ...BASE, externalImportsApproved: true }, port)
    expect(r.startup.map((s) => [s.path, s.importedBy])).toEqual([
      ['/r/app/CLAUDE.md', null],
      ['/r/app/a.md', '/r/app/CLAUDE.md'],
      ['/r/app/b.md', '/r/app/a.md'],
      ['/h/notes.md', '/r/app/CLAUDE.md'],
      ['/h/.claude/shared.md', '/r/app/CLAUDE.md'],
    ])
    expect(r.skipped.map((s) => [s.path, s.reason, s.importedBy])).toEqual([
      ['/r/app/a.md', 'import-cycle', '/r/app/b.md'],
      ['/r/app/b.md', 'import-repeat', '/r/app/CLAUDE.md'],
    ])
    expect(r.warnings.map((w) => [w.path, w.code])).toEqual([
      ['/h/notes.md', 'import-outside-repo'],
    ])
  })

  test('AGENTS.md loads in the CLAUDE.md slot when no CLAUDE file exists in the chain', async () => {
    const port = memPort({
      '/h/.claude/CLAUDE.md': 'user\n', // the user file does not shadow AGENTS.md
      '/r/AGENTS.md': 'root agents\n',
      '/r/.claude/rules/a.md': 'a\n',
      '/r/app/AGENTS.md': 'app agents\n',
      '/r/app/AGENTS.override.md': 'Claude never reads this\n',
      '/r/app/sub/AGENTS.md': 'sub agents\n',
    })
    const r = await claudeLoadOrder(BASE, port)
    expect(r.startup.map((s) => [s.path, s.scope])).toEqual([
      ['/h/.claude/CLAUDE.md', 'user'],
      ['/r/.claude/rules/a.md', 'rule'], // AGENTS.md after its folder's rules [agent]
      ['/r/AGENTS.md', 'project'],
      ['/r/app/AGENTS.md', 'project'],
    ])
    expect(r.onDemand).toEqual([
      {
        path: '/r/app/sub/AGENTS.md',
        scope: 'project',
        trigger: 'reading a file under /r/app/sub',
      },
    ])
    expect(r.skipped).toEqual([])
  })

  test('@AGENTS.md in CLAUDE.md reads a shadowed AGENTS.md once', async () => {
    const port = memPort({
      '/r/CLAUDE.md': '@AGENTS.md\n',
      '/r/AGENTS.md': 'agents\n',
      '/r/app/AGENTS.md': 'app agents\n',
    })
    // /r/AGENTS.md is outside the launch directory /r/app: it needs approval (docs/memory-rules.md §3).
    const r = await claudeLoadOrder({ ...BASE, externalImportsApproved: true }, port)
    expect(r.startup.map((s) => [s.path, s.scope, s.importedBy])).toEqual([
      ['/r/CLAUDE.md', 'project', null],
      ['/r/AGENTS.md', 'import', '/r/CLAUDE.md'],
    ])
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['/r/app/AGENTS.md', 'agents-md-shadowed'],
    ])
  })

  test('claudeMdExcludes skips user, project and local files but never managed ones', async () => {
    const port = memPort({
      '/m/CLAUDE.md': 'managed\n',
      '/h/.claude/CLAUDE.md': 'user\n',
      '/r/CLAUDE.md': 'repo\n',
      '/r/app/CLAUDE.local.md': 'local\n',
      '/r/app/.claude/rules/keep.md': 'keep\n',
      '/r/app/sub/CLAUDE.md': 'sub\n',
    })
    const r = await claudeLoadOrder(
      { ...BASE, claudeMdExcludes: ['**/CLAUDE.md', '/r/app/*.local.md', '[invalid'] },
      port,
    )
    expect(r.startup.map((s) => s.path)).toEqual(['/m/CLAUDE.md', '/r/app/.claude/rules/keep.md'])
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['/h/.claude/CLAUDE.md', 'excluded'],
      ['/r/CLAUDE.md', 'excluded'],
      ['/r/app/CLAUDE.local.md', 'excluded'],
      ['/r/app/sub/CLAUDE.md', 'excluded'],
    ])
    expect(r.onDemand).toEqual([])
  })

  test('CLAUDE_CODE_DISABLE_CLAUDE_MDS: every instruction file is skipped as disabled, MEMORY.md stays', async () => {
    const port = memPort({
      '/m/CLAUDE.md': 'managed\n',
      '/h/.claude/rules/u.md': 'u\n',
      '/r/CLAUDE.md': '@imported.md\n',
      '/r/imported.md': 'x\n',
      '/r/AGENTS.md': 'agents\n',
      '/r/app/sub/CLAUDE.md': 'sub\n',
    })
    const mem = { path: '/h/.claude/projects/-r/memory/MEMORY.md', lines: 1, chars: 2 }
    const r = await claudeLoadOrder({ ...BASE, disableClaudeMds: true, memoryFile: mem }, port)
    expect(r.startup).toEqual([{ ...mem, scope: 'memory', importedBy: null }])
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['/m/CLAUDE.md', 'disabled'],
      ['/h/.claude/rules/u.md', 'disabled'],
      ['/r/CLAUDE.md', 'disabled'],
      ['/r/AGENTS.md', 'disabled'],
      ['/r/app/sub/CLAUDE.md', 'disabled'],
    ])
    expect(r.onDemand).toEqual([])
  })

  test('size warnings, too-large, invalid UTF-8, and a folder named CLAUDE.md', async () => {
    const long = Array.from({ length: 201 }, (_, i) => `line ${i}`).join('\n') + '\n'
    const wide = 'x'.repeat(40_001)
    const port = memPort({
      '/r/CLAUDE.md': { kind: 'dir' },
      '/r/AGENTS.md': 'agents: a folder named CLAUDE.md does not shadow me\n',
      '/r/.claude/CLAUDE.md': { kind: 'too-large' },
      '/r/CLAUDE.local.md': { kind: 'invalid-utf8' },
      '/r/app/CLAUDE.md': long,
      '/r/app/CLAUDE.local.md': wide,
    })
    const r = await claudeLoadOrder(BASE, port)
    expect(r.startup.map((s) => [s.path, s.lines, s.chars])).toEqual([
      ['/r/app/CLAUDE.md', 201, long.length],
      ['/r/app/CLAUDE.local.md', 1, 40_001],
    ])
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['/r/CLAUDE.md', 'not-a-file'],
      ['/r/.claude/CLAUDE.md', 'too-large'],
      ['/r/AGENTS.md', 'agents-md-shadowed'],
      ['/r/CLAUDE.local.md', 'invalid-utf8'],
    ])
    expect(r.warnings.map((w) => [w.path, w.code])).toEqual([
      ['/r/app/CLAUDE.md', 'over-200-lines'],
      ['/r/app/CLAUDE.local.md', 'over-40k-chars'],
    ])
  })

  test('the on-demand walk stops at its cap and says so', async () => {
    const port = memPort({
      '/r/app/a/CLAUDE.md': 'a\n',
      '/r/app/b/CLAUDE.md': 'b\n',
      '/r/app/c/CLAUDE.md': 'c\n',
    })
    const r = await claudeLoadOrder({ ...BASE, onDemandMaxDirs: 2 }, port)
    expect(r.onDemand.map((o) => o.path)).toEqual(['/r/app/a/CLAUDE.md', '/r/app/b/CLAUDE.md'])
    expect(r.warnings.map((w) => [w.path, w.code])).toEqual([['/r/app', 'on-demand-walk-capped']])
  })

  test('a missing launch directory is a warning, not a crash', async () => {
    const r = await claudeLoadOrder({ ...BASE, cwd: '/nowhere' }, memPort({ '/r/x': 'x' }))
    expect(r.warnings.map((w) => [w.path, w.code])).toEqual([['/nowhere', 'cwd-not-a-directory']])
    expect(r.startup).toEqual([])
  })
})

// ---- Codex, in memory ---------------------------------------------------------
