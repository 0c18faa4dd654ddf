/**
 * The rules blind sets AC and AD asked for, each on a real git repository (issue 12): a package
 * manager replaced under a note's `npm run` commands (AC or-r04: `package-lock.json` gone,
 * `bun.lock` come); a root script that now lives only in a sub-package (AC ec-r01); a skill
 * named with its kind whose folder was deleted (AC cx-r14); a folder list's member folders
 * (AC or-r14: `scanner/` moved out); a rooted path that was the repository root's folder and
 * moved (AC ec-t02: `/src/app/`); a version given as current after it or under a "Version"
 * label (AD zu-t01); and a workspace package a command names, renamed since (AD fe-t03:
 * `cargo build -p rustapi-http`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lockFiles, managerSwitch } from '../../../../src/core/audit/package-managers'
import { folderMembers, stateVersions } from '../../../../src/core/audit/prose-names'
import { listCounts } from '../../../../src/core/audit/list-counts'
import { kindMembers } from '../../../../src/core/audit/section-members'
import { workspaceNames } from '../../../../src/core/audit/command-texts'
import type { AuditNote } from '../../../../src/shared/model'
import { checked } from '../../../../src/core/audit/checked-reference'
import { runnerFlips } from '../../../../src/node/audit/runner-flips'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('package managers', () => {
  it('reads lock files, the shallowest, and not those of installed packages', () => {
    const locks = lockFiles([
      'app/package-lock.json',
      'package-lock.json',
      'node_modules/x/yarn.lock',
    ])
    expect([...locks]).toEqual([['npm', 'package-lock.json']])
  })

  it('says a manager was replaced only when its lock went and another came', () => {
    const npm = lockFiles(['package-lock.json'])
    const bun = lockFiles(['bun.lock'])
    expect(managerSwitch('npm', npm, bun)).toEqual({
      from: 'npm',
      was: 'package-lock.json',
      by: 'bun',
      lock: 'bun.lock',
    })
    expect(managerSwitch('npm', npm, lockFiles(['package-lock.json', 'bun.lock']))).toBeNull()
    expect(managerSwitch('npm', npm, lockFiles([]))).toBeNull()
    expect(managerSwitch('bun', npm, bun)).toBeNull()
  })
})

describe('kindMembers', () => {
  it('reads a skill, agent or command named with its kind', () => {
    expect(
      kindMembers(
        'Use the `memory-sync` skill; ask the `reviewer` subagent; run the `/deploy` command.',
      ),
    ).toEqual([
      { folder: 'skills', items: ['memory-sync'], also: ['commands'] },
      { folder: 'agents', items: ['reviewer'] },
      { folder: 'commands', items: ['deploy'], also: ['skills'] },
    ])
    expect(kindMembers('The skill of `x` matters; a `y` skills list')).toEqual([
      { folder: 'skills', items: ['y'], also: ['commands'] },
    ])
  })
})

describe('folderMembers', () => {
  it('reads member folders of a folder list', () => {
    expect(folderMembers('- Rust source: `src-tauri/src/` (lib.rs, commands/, db/)')).toEqual([
      { folder: 'src-tauri/src/', items: ['lib.rs', 'commands', 'db'] },
    ])
  })
})

describe('stateVersions', () => {
  it('reads a version with "current" or "latest" after it, and under a Version label', () => {
    expect(stateVersions('- **Version**: 2.0.0 (current — released 2026-03-26)')).toEqual([
      { written: '2.0.0 (current', version: '2.0.0' },
    ])
    expect(stateVersions('- zuda v2.0.0 ✅ (latest)').map((v) => v.version)).toEqual(['2.0.0'])
    expect(stateVersions('Version: v1.4.2').map((v) => v.version)).toEqual(['1.4.2'])
    expect(stateVersions('2.0.0 was released; see (the latest notes)')).toEqual([])
  })
})

describe('listCounts', () => {
  it('reads a count with a list of as many names', () => {
    expect(listCounts('Strings: 3 total (KMP, Boyer-Moore, Z-Algorithm)')).toEqual([
      { count: 3, written: '3 total', items: ['KMP', 'Boyer-Moore', 'Z-Algorithm'] },
    ])
    expect(listCounts('Now: kmp, trie, lzw = 3 modules, 40 tests')[0]?.written).toBe('3 modules')
    expect(
      listCounts('3 skills (a, b) and 2 things (x, y); 3 steps (see the plan, twice, ok!)'),
    ).toEqual([])
  })
})

describe('workspaceNames', () => {
  it("reads the workspace's packages a command names", () => {
    expect(
      workspaceNames(
        'Build `cargo build -p rustapi-http`; `cargo run --bin rustapi -- migrate`; `pnpm --filter @app/web dev`; `npm run build -w api`',
      ),
    ).toEqual(['rustapi-http', 'rustapi', '@app/web', 'api'])
    expect(workspaceNames('`cargo build --release`, `pnpm --filter ./packages/* build`')).toEqual(
      [],
    )
  })
})

describe("blind sets AC and AD's rules on a real repository", () => {
  const { repo, mem, commit, sha } = historyCase('set-ac-rules')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    const scripts = (s: Record<string, string>): string =>
      `${JSON.stringify({ name: 'app', scripts: s }, null, 2)}\n`
    write(
      repo,
      'package.json',
      scripts({ build: 'vite build', start: 'next start', lint: 'eslint .' }),
    )
    write(repo, 'package-lock.json', '{}\n')
    write(repo, 'src/app/page.tsx', 'export default function Page() {}\n')
    write(repo, 'images/logo.png', 'png\n')
    write(repo, '.agents/skills/memory-sync/SKILL.md', '# sync\n')
    write(repo, '.agents/skills/capture/SKILL.md', '# capture\n')
    write(repo, '.claude/commands/review.md', 'review the diff\n')
    for (const d of ['commands', 'scanner', 'db'])
      write(repo, `src-tauri/src/${d}/mod.rs`, '// mod\n')
    write(repo, 'src-tauri/src/lib.rs', 'pub mod db;\n')
    write(repo, 'build.zig.zon', '.{\n    .name = "zuda",\n    .version = "2.0.0",\n}\n')
    write(repo, 'crates/http/Cargo.toml', '[package]\nname = "rustapi-http"\nversion = "0.1.0"\n')
    write(repo, 'crates/schema/Cargo.toml', '[package]\nname = "app-schema"\nversion = "0.1.0"\n')
    for (const a of ['kmp', 'boyer_moore', 'trie', 'z_algorithm', 'mod'])
      write(repo, `src/algorithms/string/${a}.zig`, `// ${a}\n`)
    for (const a of ['bfs', 'dfs', 'dijkstra'])
      write(repo, `src/algorithms/graph/${a}.zig`, `// ${a}\n`)
    commit('c1', '2026-04-01T12:00:00Z')
    for (const a of ['lzw', 'soundex']) write(repo, `src/algorithms/string/${a}.zig`, `// ${a}\n`)
    for (const a of ['astar', 'kruskal']) write(repo, `src/algorithms/graph/${a}.zig`, '// x\n')
    rmSync(join(repo, 'package-lock.json'))
    write(repo, 'bun.lock', '{}\n')
    write(repo, 'package.json', scripts({ build: 'vite build', lint: 'eslint .' }))
    write(repo, 'frontend/package.json', scripts({ start: 'next start' }))
    rmSync(join(repo, 'src/app'), { recursive: true })
    write(repo, 'frontend/src/app/page.tsx', 'export default function Page() {}\n')
    rmSync(join(repo, 'images'), { recursive: true })
    write(repo, 'public/images/logo.png', 'png\n')
    rmSync(join(repo, '.agents/skills/memory-sync/SKILL.md'))
    rmSync(join(repo, '.claude/commands'), { recursive: true })
    write(repo, '.claude/skills/review/SKILL.md', 'review the diff\n')
    rmSync(join(repo, 'src-tauri/src/scanner/mod.rs'))
    write(repo, 'src-tauri/core/src/scanner/mod.rs', '// mod\n')
    write(repo, 'build.zig.zon', '.{\n    .name = "zuda",\n    .version = "2.2.0",\n}\n')
    write(repo, 'crates/http/Cargo.toml', '[package]\nname = "ferrum-http"\nversion = "0.1.0"\n')
    commit('later', '2026-04-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Build', '- `npm run build` - Vite frontend build'],
        ['Start', '- `npm start` serves the app; `npm run lint` checks it'],
        ['Lint', '- `npm run lint` checks it (run from the root)'],
        ['Skill', 'Sync memory often (use the `memory-sync` skill).'],
        ['Capture', 'Record decisions with the `capture` skill.'],
        ['Review', 'Before a commit, run the `/review` command.'],
        ['Rust', '- Rust source: `src-tauri/src/` (lib.rs, commands/, scanner/, db/)'],
        ['Layer', '1. **Frontend Layer** (`/src/app/`): React components and API routes'],
        ['Strings', '- String algorithms: 4 total (KMP, Boyer-Moore, Trie, Z-Algorithm)'],
        ['Graphs', '- Graph algorithms: 4 total (BFS, DFS, Dijkstra, Prim)'],
        ['Logo', 'The logo is served at `/images/logo.png`.'],
        ['Version', '- **Version**: 2.0.0 (current — released 2026-03-26)'],
        [
          'Crates',
          'After a migration: `cargo build -p rustapi-http` (or `cargo build -p app-schema`).',
        ],
        ['Schema', 'Rebuild with `cargo build -p app-schema`.'],
      ],
      '2026-04-10T12:00:00Z',
    )
  }, 120_000)

  const flagged = (title: string, verdict: string, ...parts: string[]): void => {
    const n = byTitle(notes, title)
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe(verdict)
    for (const p of parts) expect(text).toContain(p)
  }

  it('flags an npm command once the repository moved to another manager', () => {
    flagged('Build', 'suspect', '`package-lock.json` is gone now and `bun.lock` says it uses bun')
  })

  it('flags a root script that only a sub-package has now', () => {
    flagged(
      'Start',
      'suspect',
      'the root `package.json` had a `start` script',
      '`frontend/package.json`',
    )
    expect(byTitle(notes, 'Start').reasons.join('\n')).not.toContain('had a `lint` script')
  })

  it('leaves a root script alone for a note that lives where the script went', async () => {
    const ref = { kind: 'command', text: 'npm start', runner: 'npm', target: 'start' } as const
    const asked = [checked(ref, 'ok', null)]
    const scripts = new Map([['start', ['frontend/package.json']]])
    const treeAt = async (): Promise<Set<string>> => new Set(['package.json'])
    const flips = (file: string): Promise<string[]> =>
      runnerFlips({ root: repo, head: sha.later, treeAt, scripts }, sha.c1, 'Run it.', asked, file)
    expect(await flips('CLAUDE.md')).toHaveLength(1)
    expect(await flips('frontend/CLAUDE.md')).toEqual([])
  })

  it('flags a skill whose folder was deleted, not one still there', () => {
    flagged('Skill', 'stale', '`memory-sync` was in `skills/`')
    expect(['fresh', 'unverifiable']).toContain(byTitle(notes, 'Capture').verdict)
    // A command that became a skill still runs by its name.
    expect(['fresh', 'unverifiable'], byTitle(notes, 'Review').reasons.join('\n')).toContain(
      byTitle(notes, 'Review').verdict,
    )
  })

  it("flags a folder list's member folder that moved out", () => {
    flagged('Rust', 'stale', '`scanner` was in `src-tauri/src/`')
  })

  it("flags a rooted path that was the root's folder and moved", () => {
    flagged('Layer', 'stale', '`src/app`', 'frontend/src/app')
    // Moved into a web root, a file is still served at the path written.
    expect(byTitle(notes, 'Logo').verdict).not.toBe('stale')
  })

  it("flags a count whose list was a folder's files then, not one that was not", () => {
    flagged(
      'Strings',
      'suspect',
      '`src/algorithms/string/` held 4 `.zig` files when the note was written',
      '6 now',
    )
    expect(byTitle(notes, 'Graphs').reasons.join('\n')).not.toContain('the note counts')
  })

  it('flags a version given as current that the manifest moved past', () => {
    flagged('Version', 'stale', '`2.0.0` was in `build.zig.zon` line 3')
  })

  it('flags a workspace package a command names, renamed since, not one still there', () => {
    flagged('Crates', 'stale', '`rustapi-http` was in `crates/http/Cargo.toml`')
    expect(byTitle(notes, 'Schema').verdict).not.toBe('stale')
  })
})

describe('a rooted path alone in its audit', () => {
  const { repo, mem, commit } = historyCase('set-ac-rooted')

  it("reads history for it: the root's folder that moved", async () => {
    write(repo, 'src/app/page.tsx', 'export default function Page() {}\n')
    commit('c1', '2026-04-01T12:00:00Z')
    rmSync(join(repo, 'src/app'), { recursive: true })
    write(repo, 'frontend/src/app/page.tsx', 'export default function Page() {}\n')
    commit('later', '2026-04-20T12:00:00Z')
    const notes = await auditTopics(
      repo,
      mem,
      [['Layer', '1. **Frontend Layer** (`/src/app/`): React components']],
      '2026-04-10T12:00:00Z',
    )
    const n = byTitle(notes, 'Layer')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
  }, 60_000)
})
