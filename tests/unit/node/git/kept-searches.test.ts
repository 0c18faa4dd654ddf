/**
 * Searches kept between command-line runs (node/git/kept-searches.ts; issues 12 and 16: an audit
 * incremental after a change). On a real repository: an audit with kept searches gives what a
 * cold audit gives, and the next one (a new process: the process caches cleared) starts fewer git
 * processes; after a note is edited, only its new names are searched and the verdicts are a cold
 * audit's; a file of another build, another work tree or a damaged one is never trusted.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { auditMemory } from '../../../../src/node/audit/audit'
import { clearPickaxeCache } from '../../../../src/node/audit/pickaxe'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { keepHistoryIn } from '../../../../src/node/git/history-store'
import { gitProcessesStarted } from '../../../../src/node/git/run'
import { git, gitAt } from '../../../helpers/git'
import { topic } from '../audit/scripted-repo'

const base = mkdtempSync(join(tmpdir(), 'mc-kept-searches-'))
const kept = join(base, 'state', 'history')
afterAll(() => rmSync(base, { recursive: true, force: true }))
afterEach(() => keepHistoryIn(null))

const write = (root: string, rel: string, text: string): void => {
  mkdirSync(join(root, rel, '..'), { recursive: true })
  writeFileSync(join(root, rel), text)
}

/** One audit as a new process would run it: no process cache; kept searches or none. */
async function audit(
  repo: string,
  mem: string,
  keep: boolean,
): Promise<{ notes: readonly AuditNote[]; runs: number }> {
  keepHistoryIn(keep ? kept : null)
  clearHistoryCache()
  clearPickaxeCache()
  const before = gitProcessesStarted()
  const r = await auditMemory({ memoryDir: mem, repo })
  return { notes: r.notes, runs: gitProcessesStarted() - before }
}

const searchesFile = (): string => {
  const f = readdirSync(kept).find((n) => n.endsWith('.searches.json'))
  if (!f) throw new Error('no kept searches')
  return join(kept, f)
}

describe('searches kept between runs', () => {
  const repo = join(base, 'repo')
  const mem = join(base, 'mem')
  const notes: Record<string, string> = {
    Entry: 'The entry is `alphaThing()` in `src/a.ts`.',
    Helper: '`gammaCall()` lives in `src/b.ts` and calls the entry.',
    Never: 'Errors go through `neverNamedHere()` first.',
    Value: '`betaValue` is exported from `src/a.ts`.',
  }
  const writeNotes = (): void => {
    rmSync(mem, { recursive: true, force: true })
    mkdirSync(mem)
    for (const [name, body] of Object.entries(notes))
      writeFileSync(join(mem, `${name}.md`), topic(body, '2026-01-10T00:00:00Z'))
    writeFileSync(
      join(mem, 'MEMORY.md'),
      `# Memory\n\n${Object.keys(notes)
        .map((n) => `- [${n}](${n}.md) — ${n}`)
        .join('\n')}\n`,
    )
  }

  beforeAll(() => {
    git(base, 'init', '-q', '-b', 'main', repo)
    write(
      repo,
      'src/a.ts',
      'export function alphaThing() {\n  return 1\n}\nexport const betaValue = 1\n',
    )
    write(
      repo,
      'src/b.ts',
      'import { alphaThing } from "./a"\nexport function gammaCall() {\n  return alphaThing()\n}\n',
    )
    git(repo, 'add', '-A')
    gitAt('2026-01-01T12:00:00Z', repo, 'commit', '-q', '-m', 'c1')
    write(
      repo,
      'src/a.ts',
      'export function alphaEntry() {\n  return 1\n}\nexport const betaValue = 1\n',
    )
    write(repo, 'src/c.ts', 'export const deltaName = 2\n')
    git(repo, 'rm', '-q', 'src/b.ts')
    git(repo, 'add', '-A')
    gitAt('2026-02-01T12:00:00Z', repo, 'commit', '-q', '-m', 'c2')
    writeNotes()
  })

  it('gives the verdicts of a cold audit, with fewer git processes the next time', async () => {
    const cold = await audit(repo, mem, false)
    expect(cold.notes.map((n) => n.verdict)).toEqual(['stale', 'stale', 'never-matched', 'fresh'])
    const first = await audit(repo, mem, true)
    expect(first.notes).toEqual(cold.notes)
    const second = await audit(repo, mem, true)
    expect(second.notes).toEqual(cold.notes)
    expect(second.runs).toBeLessThan(first.runs)
    const file = JSON.parse(readFileSync(searchesFile(), 'utf8')) as {
      sections: Record<string, Record<string, unknown>>
    }
    // A tree's lines per needle, the walk's answer for the name no commit had, the pickaxes,
    // the lines of the names in prose at the notes' commit and at HEAD (code files and
    // manifests), and HEAD's files per symbol word (the work tree's search, work-tree-delta.ts).
    const sections = Object.keys(file.sections).sort()
    expect(sections.filter((s) => !s.startsWith('lines:'))).toEqual([
      expect.stringMatching(/^files:w:/),
      'pickaxe',
      'tree',
      'walk',
    ])
    expect(sections.filter((s) => s.startsWith('lines:'))).toHaveLength(2)
  })

  it('after a note is edited, gives what a cold audit of the edited notes gives', async () => {
    notes.Value = '`betaValue` and `deltaName` are exported; `alphaEntry()` is new.'
    writeNotes()
    const warm = await audit(repo, mem, true)
    const cold = await audit(repo, mem, false)
    expect(warm.notes).toEqual(cold.notes)
  })

  it('never trusts a file of another build or work tree, nor a damaged one', async () => {
    const cold = await audit(repo, mem, false)
    await audit(repo, mem, true)
    const file = searchesFile()
    const data = JSON.parse(readFileSync(file, 'utf8')) as {
      build: string
      root: string
      sections: Record<string, Record<string, { values: Record<string, unknown> }>>
    }
    // Every kept answer made wrong: a tree holds nothing, a walk found nothing.
    for (const section of Object.values(data.sections))
      for (const at of Object.values(section))
        for (const k of Object.keys(at.values))
          at.values[k] = Array.isArray(at.values[k]) ? [] : null
    for (const [change, value] of [
      ['build', 'another build'],
      ['root', '/elsewhere'],
    ] as const) {
      writeFileSync(file, JSON.stringify({ ...data, [change]: value }))
      expect((await audit(repo, mem, true)).notes).toEqual(cold.notes)
    }
    writeFileSync(file, '{"kind": "memory-curator kept searches v1", "sections": ')
    expect((await audit(repo, mem, true)).notes).toEqual(cold.notes)
    // The same wrong answers under this build's own header are read: the header is what guards.
    writeFileSync(file, JSON.stringify(data))
    expect((await audit(repo, mem, true)).notes).not.toEqual(cold.notes)
  })
})
