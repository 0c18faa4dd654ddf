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
import {
  claudeLoadOrder,
  type ClaudeFsPort,
  type ClaudeLoadInput,
  type PortRead,
} from '../../../../src/core/load-order/claude'
import {
  codexLoadOrder,
  type CodexFsPort,
  type EntryKind,
} from '../../../../src/core/load-order/codex'
import type { ClaudeScope } from '../../../../src/shared/model'
import { utf8Length } from '../../../../src/core/text'
import { loadOrder } from '../../../../src/node/load-order/load-order'
import { parseCodexConfig } from '../../../../src/node/load-order/codex-config'
import { CORPUS_ROOT, FIXTURES_ROOT, needsCorpus } from '../../../helpers/corpus'
import { CORE_INPUT } from '../../../helpers/load-order-input'
import { git } from '../../../helpers/git'

// ---- an in-memory disk ------------------------------------------------------

type MemEntry = string | { readonly kind: 'binary' | 'dir' | 'too-large' | 'invalid-utf8' }

/** Files by absolute path; folders are implied by the files below them or declared as `dir`. */
function memPort(entries: Record<string, MemEntry>): ClaudeFsPort & CodexFsPort {
  const files = new Map(Object.entries(entries))
  const isDirPath = (p: string): boolean => {
    const e = files.get(p)
    if (e !== undefined) return typeof e !== 'string' && e.kind === 'dir'
    const prefix = p === '/' ? '/' : p + '/'
    return [...files.keys()].some((k) => k.startsWith(prefix))
  }
  const below = (dir: string): string[] => {
    const prefix = dir === '/' ? '/' : dir + '/'
    return [...files.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length))
  }
  return {
    async readText(path: string): Promise<PortRead> {
      const e = files.get(path)
      if (e === undefined) {
        return isDirPath(path)
          ? { ok: false, problem: 'not-a-file', reason: 'is a directory' }
          : { ok: false, problem: 'missing', reason: 'no such file' }
      }
      if (typeof e === 'string') return { ok: true, text: e, bytes: utf8Length(e) }
      if (e.kind === 'dir') return { ok: false, problem: 'not-a-file', reason: 'is a directory' }
      return { ok: false, problem: e.kind, reason: `${e.kind} file` }
    },
    async listRulesDir(dir: string): Promise<readonly string[]> {
      return below(dir)
        .filter((rel) => rel.endsWith('.md') && !isDirPath(`${dir}/${rel}`))
        .sort()
    },
    async isDir(path: string): Promise<boolean> {
      return isDirPath(path)
    },
    async listSubdirs(dir: string): Promise<readonly string[]> {
      const names = new Set<string>()
      for (const rel of below(dir)) {
        const i = rel.indexOf('/')
        if (i > 0) names.add(rel.slice(0, i))
        else if (isDirPath(`${dir === '/' ? '' : dir}/${rel}`)) names.add(rel)
      }
      return [...names].sort()
    },
    async entryKind(path: string): Promise<EntryKind | null> {
      if (isDirPath(path)) return 'dir'
      return files.has(path) ? 'file' : null
    },
  }
}

const BASE: ClaudeLoadInput = CORE_INPUT

function sf(
  path: string,
  scope: ClaudeScope,
  lines: number,
  chars: number,
  importedBy: string | null = null,
) {
  return { path, scope, importedBy, lines, chars }
}

// ---- Claude, in memory --------------------------------------------------------

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
    // Approved: imports outside the launch directory load (memory-facts §3 [agent]).
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
    // /r/AGENTS.md is outside the launch directory /r/app: it needs approval (memory-facts §3).
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

describe('codexLoadOrder (in memory)', () => {
  test('global apart; root from .git; one file per folder; empty override wins its folder', async () => {
    const port = memPort({
      '/c/AGENTS.override.md': 'global override\n',
      '/c/AGENTS.md': 'global\n',
      '/AGENTS.md': 'above the root: never\n',
      '/r/.git': { kind: 'dir' },
      '/r/AGENTS.md': 'root\n',
      '/r/a/AGENTS.override.md': '',
      '/r/a/AGENTS.md': 'hidden by the empty override\n',
      '/r/a/b/AGENTS.md': { kind: 'dir' },
      '/r/a/b/TEAM.md': 'team\n',
    })
    const r = await codexLoadOrder(
      { cwd: '/r/a/b', codexHome: '/c', fallbackFilenames: ['TEAM.md'] },
      port,
    )
    expect(r.projectRoot).toBe('/r')
    expect(r.budgetBytes).toBe(32_768)
    expect(r.files).toEqual([
      {
        path: '/c/AGENTS.override.md',
        scope: 'global',
        bytes: 16,
        includedBytes: 16,
        truncated: false,
      },
      { path: '/r/AGENTS.md', scope: 'project', bytes: 5, includedBytes: 5, truncated: false },
      { path: '/r/a/b/TEAM.md', scope: 'project', bytes: 5, includedBytes: 5, truncated: false },
    ])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([
      ['/c/AGENTS.md', 'shadowed'],
      ['/r/a/AGENTS.md', 'shadowed'],
      ['/r/a/AGENTS.override.md', 'empty'],
      ['/r/a/b/AGENTS.md', 'not-a-file'],
    ])
  })

  test('an empty global override falls back to the global AGENTS.md', async () => {
    const port = memPort({
      '/c/AGENTS.override.md': '  \n',
      '/c/AGENTS.md': 'global\n',
      '/r/x': 'x',
    })
    const r = await codexLoadOrder({ cwd: '/r', codexHome: '/c' }, port)
    expect(r.files).toEqual([
      { path: '/c/AGENTS.md', scope: 'global', bytes: 7, includedBytes: 7, truncated: false },
    ])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([['/c/AGENTS.override.md', 'empty']])
  })

  test('budget: the crossing file is cut mid-character, later files dropped; blanks use none', async () => {
    const port = memPort({
      '/r/.git': { kind: 'dir' },
      '/r/AGENTS.md': 'aaaa', // 4 bytes
      '/r/a/AGENTS.md': ' \n\t\n', // whitespace only: no budget
      '/r/a/b/AGENTS.md': 'bé', // 3 bytes: 'b' + 2-byte 'é'
      '/r/a/b/c/AGENTS.md': 'c',
    })
    const r = await codexLoadOrder({ cwd: '/r/a/b/c', codexHome: '/c', budgetBytes: 6 }, port)
    expect(r.budgetBytes).toBe(6)
    expect(r.files).toEqual([
      { path: '/r/AGENTS.md', scope: 'project', bytes: 4, includedBytes: 4, truncated: false },
      // 'b' and half of 'é' fit: the model gets 'b' then U+FFFD (memory-facts §4 [agent]).
      {
        path: '/r/a/b/AGENTS.md',
        scope: 'project',
        bytes: 3,
        includedBytes: 1,
        truncated: true,
        brokenChar: true,
      },
    ])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([
      ['/r/a/AGENTS.md', 'empty'],
      ['/r/a/b/c/AGENTS.md', 'budget-exhausted'],
    ])
  })

  test('budget exactly used: the next file is dropped', async () => {
    const port = memPort({
      '/r/.git': 'gitdir: elsewhere\n',
      '/r/AGENTS.md': 'abc',
      '/r/a/AGENTS.md': 'd',
    })
    const r = await codexLoadOrder({ cwd: '/r/a', codexHome: '/c', budgetBytes: 3 }, port)
    expect(r.files.map((f) => [f.path, f.includedBytes, f.truncated])).toEqual([
      ['/r/AGENTS.md', 3, false],
    ])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([
      ['/r/a/AGENTS.md', 'budget-exhausted'],
    ])
  })

  test('budget 0 turns project docs off but keeps the global file', async () => {
    const port = memPort({
      '/c/AGENTS.md': 'g',
      '/r/.git': { kind: 'dir' },
      '/r/AGENTS.md': 'root',
    })
    const r = await codexLoadOrder({ cwd: '/r', codexHome: '/c', budgetBytes: 0 }, port)
    expect(r.files.map((f) => [f.path, f.scope])).toEqual([['/c/AGENTS.md', 'global']])
    expect(r.dropped.map((d) => [d.path, d.reason])).toEqual([['/r/AGENTS.md', 'project-docs-off']])
  })

  test('without a root marker only the launch directory counts', async () => {
    const port = memPort({ '/r/AGENTS.md': 'parent', '/r/a/AGENTS.md': 'here' })
    const r = await codexLoadOrder({ cwd: '/r/a', codexHome: '/c' }, port)
    expect(r.projectRoot).toBeNull()
    expect(r.files.map((f) => f.path)).toEqual(['/r/a/AGENTS.md'])
    expect(r.dropped).toEqual([])
  })
})

describe('parseCodexConfig', () => {
  test('reads the two keys at top level, ignores tables and other keys', () => {
    const text = [
      'model = "o3" # comment',
      'project_doc_max_bytes = 65_536 # bigger',
      'project_doc_fallback_filenames = [',
      '  "TEAM.md", # first',
      "  'GUIDE#1.md',",
      ']',
      '[profiles.x]',
      'project_doc_max_bytes = 1',
    ].join('\n')
    expect(parseCodexConfig(text, '/c/config.toml')).toEqual({
      budgetBytes: 65_536,
      fallbackFilenames: ['TEAM.md', 'GUIDE#1.md'],
      problems: [],
    })
  })

  test('unreadable values are problems and leave the defaults', () => {
    expect(
      parseCodexConfig(
        'project_doc_max_bytes = "big"\nproject_doc_fallback_filenames = [1]\n',
        '/c/config.toml',
      ),
    ).toEqual({
      problems: [
        {
          path: '/c/config.toml',
          reason: 'line 1: project_doc_max_bytes is not a non-negative integer',
        },
        {
          path: '/c/config.toml',
          reason: 'line 2: project_doc_fallback_filenames is not a list of strings',
        },
      ],
    })
  })
})

// ---- real temp trees through src/node/load-order/load-order.ts ------------------------------

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
    // Imports from repo/CLAUDE.md leave the launch folder repo/app: approved (memory-facts §3).
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
      claudeHome: join(root, 'home/.claude'),
      codexHome: join(root, 'codex'),
      managedDir: join(root, 'managed'),
      env: { HOME: join(root, 'home') },
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
        claudeHome: join(root, 'home/.claude'),
        codexHome: join(root, 'codex'),
        managedDir: join(root, 'managed'),
        env: { HOME: join(root, 'home') },
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
