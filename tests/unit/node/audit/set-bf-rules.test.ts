/**
 * Rules blind sets BF and BG (docs/eval-audit.md) showed were missing, on a real git repository:
 * a phone number or e-mail address the code held when the note was written and holds nowhere now
 * (contact-literals.ts, set BF); a product's version a scope's core package pins ("Docusaurus
 * 3.9.2" and `@docusaurus/core`), a bold product name before its version (`**TypeScript** 5.9`),
 * a bold two-word package name (`**Framer Motion**`, `framer-motion`) a manifest dropped, and the
 * commands a folder tree's entry gives in its comment (`Makefile → make run, make migrate`; set BG),
 * a count of items kept in a folder named after them ("44 skill", set BF), and a back-ticked word
 * the code held as a quoted value (`nsis` in `"target": "nsis"`, set BD); a Gemfile's `ruby` and
 * `gem 'rails', '~> 7.1'` lines, and a back-ticked scoped package's name (set BH).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { contactLiterals } from '../../../../src/core/audit/contact-literals'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const manifest = (deps: Record<string, string>, target = 'nsis', main = true): string =>
  `${JSON.stringify(
    {
      name: 'site',
      version: '1.0.0',
      ...(main ? { main: 'index.js' } : {}),
      dependencies: deps,
      build: { win: { target } },
    },
    null,
    2,
  )}\n`

describe('set BF and BG rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sbf')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    const footer = (phone: string): string =>
      `export const Footer = () => <a href="tel:${phone}">Call ${phone}</a>\n`
    write(repo, 'src/Footer.tsx', footer('865-346-3339'))
    write(repo, 'src/contact.ts', 'export const SUPPORT = "help@capture.io"\n')
    write(
      repo,
      'package.json',
      manifest({
        '@docusaurus/core': '3.9.2',
        typescript: '~5.9.2',
        'framer-motion': '^12.0.0',
        react: '^19.0.0',
      }),
    )
    write(
      repo,
      'backend/Makefile',
      'run:\n\tgo run ./cmd/api\ntest:\n\tgo test ./...\nmigrate:\n\tgo run ./cmd/migrate\n',
    )
    write(repo, 'backend/cmd/api/main.go', 'package main\n\nfunc main() {}\n')
    write(repo, 'backend/go.mod', 'module example.org/api\n')
    write(repo, 'Gemfile', "source 'https://rubygems.org'\nruby '3.2.2'\ngem 'rails', '~> 7.1.0'\n")
    write(
      repo,
      'packages/backend-core/package.json',
      '{\n  "name": "@acme/backend-core",\n  "version": "0.1.0"\n}\n',
    )
    write(repo, 'server/main.ts', "import { log } from '@acme/backend-core'\nlog('up')\n")
    for (let i = 0; i < 5; i++) write(repo, `core/skills/s${i}/SKILL.md`, `# Skill ${i}\n`)
    for (let i = 0; i < 4; i++) write(repo, `core/agents/a${i}.md`, `# Agent ${i}\n`)
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'core/skills/s5/SKILL.md', '# Skill 5\n')
    write(repo, 'Gemfile', "source 'https://rubygems.org'\nruby '3.3.6'\ngem 'rails', '~> 8.0'\n")
    rmSync(join(repo, 'packages'), { recursive: true })
    write(repo, 'server/main.ts', "console.log('up')\n")
    write(
      repo,
      'backend/Makefile',
      'run:\n\tgo run ./cmd/api\ntest:\n\tgo test ./...\nmigrate-up:\n\tgo run ./cmd/migrate up\n',
    )
    write(repo, 'src/Footer.tsx', footer('865-346-6111'))
    write(
      repo,
      'package.json',
      manifest(
        { '@docusaurus/core': '3.10.1', typescript: '~6.0.2', react: '^19.0.0' },
        'dir',
        false,
      ),
    )
    commit('upgrade', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Phone', '- Phone number: 865-346-3339 everywhere.'],
        ['Mail', '- Support mail: help@capture.io, never user@example.com.'],
        ['Docs', '- Docusaurus 3.9.2'],
        ['Types', '- **TypeScript** 5.9 - Type safety'],
        ['Motion', '- **Framer Motion** - Animations'],
        ['React', '- **React** 19 - UI'],
        ['Target', 'The Windows build target is **`nsis`** (an installer), not `portable`.'],
        ['Branch', 'Push to `main` only after `npm test`; the `react` tree renders.'],
        ['Stack', '| Web framework | Rails 7.1 |\n| Language | Ruby **3.2.2** (via rbenv) |'],
        ['Packages', '- **Packages:** `@acme/backend-core` (server utilities), `@types/node`'],
        ['Skills', 'Enforcement gap: of 5 skill, 3 never used; 4 agent never run.'],
        ['Agents', 'All 4 agents are reviewed weekly; 7 pages need work.'],
        [
          'Layout',
          '```\nbackend/\n├── cmd/\n│   └── api/       → main.go\n├── Makefile       → make run, make test, make migrate\n└── go.mod\n```',
        ],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  it('reads a phone number the code held then and holds nowhere now (BF)', () => {
    const n = byTitle(notes, 'Phone')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`865-346-3339` was in `src/Footer.tsx`')
    expect(n.reasons[0]).toContain(sha.upgrade)
    // An address the code still holds, and an example's, say nothing against the note.
    const mail = byTitle(notes, 'Mail')
    expect(['fresh', 'unverifiable'], mail.reasons.join('\n')).toContain(mail.verdict)
  })

  it("reads a product's version through its scope's core package, and a bold name (BG)", () => {
    for (const [title, now] of [
      ['Docs', '3.10.1'],
      ['Types', '~6.0.2'],
    ] as const) {
      const n = byTitle(notes, title)
      expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
      expect(n.reasons.join('\n')).toContain(now)
    }
    const kept = byTitle(notes, 'React')
    expect(kept.verdict, kept.reasons.join('\n')).not.toBe('suspect')
  })

  it('reads a bold two-word name as its kebab-case package, dropped since (BG)', () => {
    const n = byTitle(notes, 'Motion')
    expect(['stale', 'suspect'], n.reasons.join('\n')).toContain(n.verdict)
    expect(n.reasons.join('\n')).toContain('framer-motion')
  })

  it("reads the commands a folder tree's entry gives in its comment (BG)", () => {
    const n = byTitle(notes, 'Layout')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('make migrate')
    expect(n.reasons.join('\n')).not.toContain('make run')
  })

  it('reads a count of items kept in a folder named after them (BF)', () => {
    const n = byTitle(notes, 'Skills')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons[0]).toContain(
      '`core/skills/` held 5 entries when the note was written (' + sha.c1 + '), 6 now',
    )
    expect(n.reasons.join('\n')).not.toContain('core/agents')
    // A count the folder still holds, and one no folder is named for, say nothing.
    const kept = byTitle(notes, 'Agents')
    expect(['fresh', 'unverifiable'], kept.reasons.join('\n')).toContain(kept.verdict)
  })

  it('reads a back-ticked word the code held as a quoted value, and no key (BD)', () => {
    const n = byTitle(notes, 'Target')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons[0]).toContain('`nsis` was in `package.json`')
    expect(n.reasons[0]).toContain(sha.upgrade)
    // `"main":` was a key, not a value; `portable` the code never held.
    const b = byTitle(notes, 'Branch')
    expect(b.verdict, b.reasons.join('\n')).not.toBe('stale')
    expect(b.reasons.join('\n')).not.toContain('`main` was in')
  })

  it("reads a Gemfile's versions, and a scoped package's name the code held (BH)", () => {
    const n = byTitle(notes, 'Stack')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons.join('\n')).toContain("gem 'rails', '~> 8.0'")
    expect(n.reasons.join('\n')).toContain("ruby '3.3.6'")
    const p = byTitle(notes, 'Packages')
    expect(p.verdict, p.reasons.join('\n')).toBe('stale')
    expect(p.reasons[0]).toContain('`@acme/backend-core` was in')
    expect(p.reasons.join('\n')).not.toContain('@types/node')
  })

  it('takes phone numbers and addresses, not dates, versions or example addresses', () => {
    expect(contactLiterals('Call (865) 346-3339 or +1 865-346-3339; mail ops@acme.dev.')).toEqual([
      '(865) 346-3339',
      '+1 865-346-3339',
      'ops@acme.dev',
    ])
    expect(
      contactLiterals('On 2026-01-10 v1.2.3 shipped; see a@example.com, pkg@1.2.3, 10.0.0.1'),
    ).toEqual([])
  })
})
