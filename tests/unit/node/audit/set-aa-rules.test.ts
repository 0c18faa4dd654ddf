/**
 * The rules blind set AA's leftovers asked for, each on a real git repository (issue 12):
 * a count beside a glob of files (ab-t04: 8 skills then, more now); a bold label's list of the
 * files of a folder of that name (ab-r07: a command file deleted since); a state machine in one
 * code span whose states left the code (gs-r09); and a committed package store and an agent's
 * rules file, which are not the repository's code (lb-t06: "TypeScript" read as code that a
 * `.cursorrules` line and `.pnpm-store/` files held); a product's version a manifest pinned
 * then and pins otherwise now (lb-t01: Next.js 15, `next` ^16.1.2 since); a subcommand of the
 * repository's own tool whose file under `ops/cli/` is gone (gs-r05: `ops sync pull`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  manifestVersion,
  productVersions,
  versionAgrees,
} from '../../../../src/core/audit/product-versions'
import { cliSubcommands } from '../../../../src/core/audit/cli-subcommands'
import { labelMembers } from '../../../../src/core/audit/section-members'
import { stateNames } from '../../../../src/core/audit/state-names'
import type { AuditNote } from '../../../../src/shared/model'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('labelMembers', () => {
  it('reads a bold label and at least three bare names', () => {
    expect(labelMembers('**Commands**: celebrate, memlog, sync, triage')).toEqual([
      { folder: 'commands', items: ['celebrate', 'memlog', 'sync', 'triage'] },
    ])
    expect(labelMembers('- **Agents:** `architect`, dba, pm.')).toEqual([
      { folder: 'agents', items: ['architect', 'dba', 'pm'] },
    ])
  })

  it('leaves prose, short lists and labels without a colon alone', () => {
    expect(labelMembers('**Stack**: React 19 with Vite, Tailwind, Zustand')).toEqual([])
    expect(labelMembers('**Commands**: sync, triage')).toEqual([])
    expect(labelMembers('**Commands** sync, triage, memlog')).toEqual([])
  })
})

describe('stateNames', () => {
  it('reads the states of a machine', () => {
    const names = stateNames('SUBMITTED → CHECKING → ACTIVE | REJECTED → (DECAYING → DELETED)')
    expect(names?.map((n) => n.name)).toEqual([
      'SUBMITTED',
      'CHECKING',
      'ACTIVE',
      'REJECTED',
      'DECAYING',
      'DELETED',
    ])
  })

  it('leaves words, member access and two-name alternatives alone', () => {
    expect(stateNames('draft → review → published')).toBeNull()
    expect(stateNames('node->next->value')).toBeNull()
    expect(stateNames('OPEN | CLOSED')).toBeNull()
    expect(stateNames('OPEN -> CLOSED')).toBeNull()
  })
})

describe('cliSubcommands', () => {
  it('reads a tool and its subcommand from a code span', () => {
    expect(cliSubcommands('Bootstrap with `ops sync pull`; `$ ops rm <name>`.')).toEqual([
      { tool: 'ops', sub: 'sync' },
      { tool: 'ops', sub: 'rm' },
    ])
    expect(cliSubcommands('`ops --force`, `ops <name>`, `Ops Sync`, `ops`')).toEqual([])
  })
})

describe('productVersions', () => {
  it('reads a product and the version parts the note gives', () => {
    const v = productVersions('- **Core :** Next.js 15 (App Router), TypeScript, React 19.1.')
    expect(v.map((x) => [x.written, x.names[0], x.parts])).toEqual([
      ['Next.js 15', 'next.js', [15]],
      ['React 19.1', 'react', [19, 1]],
    ])
    expect(productVersions('Tailwind CSS v4 and Expo SDK 52')[0].names).toContain('tailwindcss')
  })

  it('leaves steps, ranges, units and browsers alone, and reads runtimes by their own keys', () => {
    expect(productVersions('Step 3 of the flow; Chrome 120')).toEqual([])
    expect(productVersions('Retries 3-5 times; Workers 4% of load; Pages 2 to 4')).toEqual([])
    // Blind set CM ox-t01: a pyproject's `requires-python`, package.json's `node` (engines);
    // "Python SDK" is no runtime, and "Python" still no product.
    expect(productVersions('Python 3.12; Node 22+; Python SDK 1.2')).toEqual([
      { written: 'Python 3.12', names: ['requires-python', 'python'], parts: [3, 12] },
      { written: 'Node 22', names: ['node'], parts: [22] },
    ])
  })

  it("reads a manifest line's version", () => {
    expect(manifestVersion('    "next": "^16.1.2",', 'next')).toEqual([16, 1, 2])
    expect(manifestVersion('  "fastapi>=0.110",', 'fastapi')).toEqual([0, 110])
    expect(manifestVersion('    "ui": "workspace:*",', 'ui')).toBeNull()
    expect(versionAgrees([15], [15, 1, 3])).toBe(true)
    expect(versionAgrees([15], [16, 1, 2])).toBe(false)
  })
})

describe("blind set AA's rules on a real repository", () => {
  const { repo, mem, commit } = historyCase('set-aa-rules')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    for (const s of ['alpha', 'beta', 'gamma']) write(repo, `skills/${s}/SKILL.md`, `# ${s}\n`)
    for (const c of ['celebrate', 'memlog', 'sync', 'triage'])
      write(repo, `commands/${c}.md`, `run ${c}\n`)
    write(
      repo,
      'ops/state.py',
      'class Status:\n    SUBMITTED = 1\n    CHECKING = 2\n    ACTIVE = 3\n    RETIRED = 4\n',
    )
    write(repo, 'src/app.ts', 'export const lang = "TypeScript"\n')
    write(repo, 'src/theme.ts', 'export const theme = "dark"\n')
    write(repo, '.cursorrules', 'Stack: Next.js 15, Tailwind CSS, TypeScript.\n')
    const pkg = (next: string, react: string): string =>
      JSON.stringify({ name: 'shop', dependencies: { next, react } }, null, 2) + '\n'
    write(repo, 'package.json', pkg('15.1.3', '19.0.0'))
    for (const c of ['sync', 'rm']) write(repo, `ops/cli/${c}.py`, `def ${c}():\n    pass\n`)
    write(repo, 'scripts/pull.sh', 'git pull\n')
    write(repo, 'tools/sync.sh', 'rsync -a src dst\n')
    commit('c1', '2026-04-01T12:00:00Z')
    rmSync(join(repo, 'tools/sync.sh'))
    rmSync(join(repo, 'ops/cli/sync.py'))
    write(repo, 'package.json', pkg('^16.1.2', '^19.2.0'))
    write(repo, 'skills/delta/SKILL.md', '# delta\n')
    rmSync(join(repo, 'commands/sync.md'))
    write(
      repo,
      'ops/state.py',
      'class Status:\n    SUBMITTED = 1\n    CHECKING = 2\n    ACTIVE = 3\n',
    )
    write(repo, 'src/app.ts', 'export const lang = "ts"\n')
    write(repo, '.pnpm-store/v10/files/00/abc', 'compiled by TypeScript\n')
    write(repo, '.cursorrules', 'Stack: Next.js 16.\n')
    commit('later', '2026-04-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Skills', '| Skills | 3 | `skills/*/SKILL.md` |'],
        ['Skills wrong', '| Skills | 5 | `skills/*/SKILL.md` |'],
        ['Commands', '**Commands**: celebrate, memlog, sync, triage'],
        ['Tools', '**Tools**: sync, rsync, rclone, scp'],
        ['States', 'State machine: `SUBMITTED → CHECKING → ACTIVE → RETIRED`.'],
        ['Theme', '- `src/theme.ts` exports the theme; the app is TypeScript strict.'],
        ['Stack', '- **Core :** Next.js 15 (App Router), React 19.'],
        ['Sync', 'A new machine bootstraps with `ops sync pull`.'],
        ['Remove', '`ops rm <name>` deletes a factor; run `git pull` first.'],
      ],
      '2026-04-10T12:00:00Z',
    )
  }, 120_000)

  it('flags a count beside a glob that held then and differs now', () => {
    const text = byTitle(notes, 'Skills').reasons.join('\n')
    expect(byTitle(notes, 'Skills').verdict, text).toBe('suspect')
    expect(text).toContain('it matched 3 files when the note was written')
    expect(text).toContain('4 now')
  })

  it('says nothing of a count the glob never matched', () => {
    expect(byTitle(notes, 'Skills wrong').reasons.join('\n')).not.toContain('the note counts')
  })

  it("flags a labelled list's member deleted since", () => {
    const n = byTitle(notes, 'Commands')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain('`sync` was in `commands/`')
  })

  it('leaves a list alone when most of it was never in such a folder', () => {
    const n = byTitle(notes, 'Tools')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
  })

  it('flags a state machine whose state left the code', () => {
    const n = byTitle(notes, 'States')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain('RETIRED')
  })

  it('flags a version a manifest pinned then and pins otherwise now, not one it still pins', () => {
    const n = byTitle(notes, 'Stack')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('the note gives Next.js 15: `package.json`:')
    expect(text).toContain('`"next": "^16.1.2",` now')
    expect(text).not.toContain('React 19')
  })

  it("flags a subcommand of the repository's own tool whose file is gone", () => {
    const n = byTitle(notes, 'Sync')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain('`sync` was in `ops/cli/`')
  })

  it('leaves a subcommand still there, and other tools, alone', () => {
    const n = byTitle(notes, 'Remove')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
  })

  it("reads no package store or agent's rules file as code", () => {
    const n = byTitle(notes, 'Theme')
    const text = n.reasons.join('\n')
    expect(text).not.toContain('.pnpm-store')
    expect(text).not.toContain('.cursorrules')
  })
})
