/**
 * Rules blind set BE (docs/eval-audit.md) showed were missing, on a real git repository: a bare
 * back-ticked kebab name that was one of the agent's own skills or rules when the note was
 * written (`systematic-debugging`: `.claude/skills/systematic-debugging/SKILL.md`), and a stack
 * table's package version (`| Framework | Electron | ^38.7.2 |`) a manifest pinned then and not now.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { productVersions } from '../../../../src/core/audit/product-versions'
import { agentItemRefs } from '../../../../src/core/audit/reference-paths'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const manifest = (electron: string, sdk: string): string =>
  `${JSON.stringify(
    {
      name: 'app',
      version: '1.0.0',
      dependencies: { '@anthropic-ai/sdk': sdk, react: '^19.1.0' },
      devDependencies: { electron },
    },
    null,
    2,
  )}\n`

describe('set BE rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sbe')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, '.claude/skills/systematic-debugging/SKILL.md', '# Debugging\n\nSteps.\n')
    write(repo, '.claude/skills/quarto-tabsets/SKILL.md', '# Tabsets\n\nSteps.\n')
    write(repo, '.claude/rules/pipeline-choice.md', '# Pipelines\n\ntargets first.\n')
    write(repo, '.claude/rules/kept-rule.md', '# Kept\n')
    write(repo, 'package.json', manifest('^38.7.2', '^0.71.2'))
    write(repo, 'src/main.ts', 'export const main = () => 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    git(repo, 'rm', '-q', '-r', '.claude/skills/quarto-tabsets', '.claude/rules/pipeline-choice.md')
    git(repo, 'mv', '.claude/skills/systematic-debugging/SKILL.md', '.claude/rules/x.md')
    write(repo, '.claude/rules/systematic-debugging.md', '# Debugging\n\nSteps, as a rule.\n')
    write(repo, 'package.json', manifest('^38.8.6', '^0.71.2'))
    commit('consolidate', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Tabsets', '- `quarto-tabsets` — Tabset generation'],
        ['Pipelines', '| `pipeline-choice` | targets vs rixpress |'],
        ['Debugging', '- `systematic-debugging` — Scientific method debugging'],
        ['Kept', '- `kept-rule` — still here'],
        ['Package', '- `react-dom` renders the window; `dark-mode` is the class.'],
        [
          'Electron',
          '| Layer | Package | Version |\n|---|---|---|\n| Framework | Electron | ^38.7.2 |',
        ],
        ['SDK', '| AI SDK | `@anthropic-ai/sdk` | ^0.71.2 |'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  it('reads a bare kebab name as the skill or rule the repository had, gone since', () => {
    for (const title of ['Tabsets', 'Pipelines']) {
      const n = byTitle(notes, title)
      expect(n.verdict, n.reasons.join('\n')).toBe('stale')
      expect(n.reasons[0]).toContain(sha.consolidate)
    }
    expect(byTitle(notes, 'Tabsets').reasons[0]).toContain('.claude/skills/quarto-tabsets/SKILL.md')
    expect(byTitle(notes, 'Pipelines').reasons[0]).toContain('.claude/rules/pipeline-choice.md')
  })

  it('keeps a name that is still one of the items, wherever it went', () => {
    for (const title of ['Kept', 'Debugging']) {
      const n = byTitle(notes, title)
      expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
    }
  })

  it('says nothing of a kebab name the repository never had as an item', () => {
    const n = byTitle(notes, 'Package')
    expect(n.verdict, n.reasons.join('\n')).toBe('unverifiable')
    expect(agentItemRefs('react')).toBeNull()
    expect(agentItemRefs('--dry-run')).toBeNull()
    expect(agentItemRefs('Data-Engineering')).toBeNull()
  })

  it("reads a stack table's package version as the manifest pinned it then and now", () => {
    // A product's version moved is suspect, as prose's "Next.js 15" is (set AA).
    const n = byTitle(notes, 'Electron')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('`electron`')
    expect(n.reasons.join('\n')).toContain('^38.8.6')
    const kept = byTitle(notes, 'SDK')
    expect(kept.verdict, kept.reasons.join('\n')).not.toBe('stale')
    expect(kept.verdict).not.toBe('suspect')
  })

  it('reads a version cell only after a package-shaped cell', () => {
    const [electron] = productVersions('| Framework | Electron | ^38.7.2 |')
    expect(electron.names).toContain('electron')
    expect(electron.parts).toEqual([38, 7, 2])
    expect(productVersions('| **Next.js** | `15.1` |')[0].names).toContain('next')
    expect(productVersions('| Step | 2 |\n| Python | 3.12 |\n| Port | 3000 |')).toEqual([])
    expect(productVersions('| AI SDK | 0.71 |')).toEqual([])
  })
})
