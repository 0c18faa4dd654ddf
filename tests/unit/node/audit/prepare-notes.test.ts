/**
 * Issue 12 item 2 on a real git repository: bare names and partial paths resolve by suffix
 * against the tracked files and folders and, when gone, against the rename and delete history;
 * a path written with placeholders is a pattern, never stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { auditMemory } from '../../../../src/node/audit/audit'
import { clearHistoryCache } from '../../../../src/node/git/history'
import { clearPickaxeCache } from '../../../../src/node/audit/pickaxe'
import { git, gitAt } from '../../../helpers/git'
import { base, byTitle, removeBase, topic, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('partial paths resolve by suffix, now and through history (issue 12 item 2)', () => {
  const { repo, mem, sha, commit } = historyCase('pp')
  let notes: readonly AuditNote[] = []
  const WRITTEN = '2026-02-15T00:00:00Z'

  beforeAll(async () => {
    write(repo, 'src/game/character/hero.ts', 'export const hero = 1\n')
    write(repo, 'src/features/ai/work-evaluators/eat.ts', 'export const eat = 1\n')
    write(repo, 'src/old/thing.ts', 'export const thing = 1\n')
    write(repo, 'materials/base/one.md', 'one\n')
    write(repo, 'early/gone.ts', 'export const gone = 1\n')
    write(repo, 'targets/profiles/a.json', '{"a": 1}\n')
    write(repo, 'app/state.py', 'STATE = {}\n')
    write(repo, 'app/store.py', 'STORE = {}\n')
    write(repo, 'web/hud/clock.ts', 'export const clock = 1\n')
    write(repo, 'tools/gen/run.ts', 'export const run = 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    git(repo, 'rm', '-q', 'early/gone.ts')
    commit('early-gone', '2026-02-01T12:00:00Z')
    git(repo, 'rm', '-q', 'src/old/thing.ts')
    commit('thing-gone', '2026-03-01T12:00:00Z')
    git(repo, 'rm', '-q', '-r', 'materials/base')
    commit('base-gone', '2026-03-02T12:00:00Z')
    mkdirSync(join(repo, 'materials/targets'), { recursive: true })
    git(repo, 'mv', 'targets/profiles', 'materials/targets/profiles')
    commit('profiles-moved', '2026-03-03T12:00:00Z')
    // After the note: `app/state.py` goes and an unrelated `state.py` appears elsewhere;
    // `app/store.py` only moves (same file, same name, new folder).
    git(repo, 'rm', '-q', 'app/state.py')
    write(repo, 'app/pipeline/state.py', 'class PipelineState:\n    steps: list[str] = []\n')
    mkdirSync(join(repo, 'app/data'), { recursive: true })
    git(repo, 'mv', 'app/store.py', 'app/data/store.py')
    commit('state-replaced', '2026-03-04T12:00:00Z')
    mkdirSync(join(repo, 'apps'), { recursive: true })
    git(repo, 'mv', 'web', 'apps/web')
    commit('web-moved', '2026-03-05T12:00:00Z')

    const notesBy: [string, string][] = [
      ['partial', 'The hero lives in `game/character/hero.ts`.'],
      ['folder', 'Evaluators are in `work-evaluators/`.'],
      ['thing', 'The thing is `old/thing.ts`.'],
      ['base', 'Templates are kept in `base/`.'],
      ['early', 'Gone is in `early/gone.ts` (already deleted).'],
      ['pattern', 'Tailored resumes go in `batch-NN/` folders.'],
      ['moved', 'Profiles are in `targets/profiles/`.'],
      ['namesake', 'Shared state is kept in `state.py`.'],
      ['same-file', 'The store is `store.py`.'],
      ['prose-moved', 'A DOM overlay (web/hud) draws the clock.'],
      ['prose-held', 'Generators sit in tools/gen, run by hand.'],
      ['prose-words', 'Use the and/or form; parts/doors/LOD are separate.'],
    ]
    notes = await auditTopics(repo, mem, notesBy, WRITTEN)
  })

  it('resolves a partial file path by suffix against the tracked files', () => {
    const n = byTitle(notes, 'partial')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons[0]).toBe('`game/character/hero.ts` resolved to `src/game/character/hero.ts`')
  })

  it('resolves a folder named by its last segment', () => {
    const n = byTitle(notes, 'folder')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons[0]).toBe('`work-evaluators/` resolved to `src/features/ai/work-evaluators`')
  })

  it('calls a partial path deleted after the note stale, naming the commit', () => {
    const n = byTitle(notes, 'thing')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`src/old/thing.ts\` was deleted in ${sha['thing-gone']} on 2026-03-01`,
    )
  })

  it('calls a folder whose files were deleted after the note stale', () => {
    const n = byTitle(notes, 'base')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(`\`materials/base\` was deleted in ${sha['base-gone']} on 2026-03-02`)
  })

  it('keeps a partial path deleted before the note never-matched', () => {
    expect(byTitle(notes, 'early').verdict).toBe('never-matched')
  })

  it('follows the path as written when it moved after the note, not a namesake found by suffix', () => {
    const n = byTitle(notes, 'moved')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`targets/profiles\` was renamed to \`materials/targets/profiles\` in ${sha['profiles-moved']} on 2026-03-03`,
    )
  })

  it('follows the file a bare name meant at the note, not a namesake that arrived after it', () => {
    const n = byTitle(notes, 'namesake')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`app/state.py\` was deleted in ${sha['state-replaced']} on 2026-03-04`,
    )
    // The same file under a new folder: the bare name still names it.
    const same = byTitle(notes, 'same-file')
    expect(same.verdict).toBe('fresh')
    expect(same.reasons[0]).toBe('`store.py` resolved to `app/data/store.py`')
  })

  it('reads a prose path without extension or slash as a path only if it was one at the note', () => {
    const moved = byTitle(notes, 'prose-moved')
    expect(moved.verdict).toBe('stale')
    expect(moved.reasons[0]).toBe(
      `\`web/hud\` was renamed to \`apps/web/hud\` in ${sha['web-moved']} on 2026-03-05`,
    )
    const held = byTitle(notes, 'prose-held')
    expect(held.verdict).toBe('fresh')
    expect(held.references.map((r) => [r.text, r.status])).toEqual([['tools/gen', 'ok']])
    // Words with a slash name nothing: no reference, no "wrong from the start".
    const words = byTitle(notes, 'prose-words')
    expect(words.verdict).toBe('unverifiable')
    expect(words.references).toEqual([])
  })

  it('does not check a path with placeholders', () => {
    const n = byTitle(notes, 'pattern')
    expect(n.verdict).toBe('unverifiable')
    expect(n.reasons[0]).toBe(
      '`batch-NN/` is a pattern with placeholders, not one path; not checked',
    )
  })
})

describe('config behind ignored files (issue 12 item 6)', () => {
  const repo = join(base, 'env-repo')
  const mem = join(base, 'env-mem')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    mkdirSync(repo)
    git(repo, 'init', '-q', '-b', 'main')
    write(repo, '.gitignore', '.env\nlocal.env\n')
    write(repo, 'src/env.ts', 'export const load = () => process.env\n')
    git(repo, 'add', '-A')
    gitAt('2026-01-01T12:00:00Z', repo, 'commit', '-q', '-m', 'c1')
    // Present, ignored, never committed: the note's key is checked in it.
    write(repo, '.env', 'OPENAI_API_KEY=sk-test\nLOCAL_DIR=/srv/app\n')
    mkdirSync(mem)
    const notesBy: [string, string][] = [
      ['present', 'The REPL loads `OPENAI_API_KEY` from `.env`.'],
      ['absent', 'Deploys read `DEPLOY_TOKEN` from `local.env`.'],
    ]
    for (const [name, body] of notesBy)
      writeFileSync(
        join(mem, `${name}.md`),
        topic(body, '2026-02-15T00:00:00Z').replace('name: t', `name: ${name}`),
      )
    writeFileSync(
      join(mem, 'MEMORY.md'),
      `# Memory\n\n${notesBy.map(([n]) => `- [${n}](${n}.md) — ${n}`).join('\n')}\n`,
    )
    clearHistoryCache()
    clearPickaxeCache()
    notes = (await auditMemory({ memoryDir: mem, repo })).notes
  })

  it('finds a key in an ignored .env that is present', () => {
    const n = byTitle(notes, 'present')
    expect(n.verdict).toBe('fresh')
    expect(n.references.map((r) => [r.text, r.status, r.resolved])).toEqual([
      ['OPENAI_API_KEY', 'ok', join(repo, '.env')],
      ['.env', 'ok', join(repo, '.env')],
    ])
  })

  it('does not count an ignored file that is absent, nor a key only it could hold, as stale', () => {
    const n = byTitle(notes, 'absent')
    expect(n.verdict).not.toBe('stale')
    expect(n.reasons).toContain('`local.env` is ignored by git; not checked')
  })
})

describe('other repositories are external, not stale (issue 12 item 3)', () => {
  const repo = join(base, 'ext-repo')
  const mem = join(base, 'ext-mem')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    mkdirSync(repo)
    git(repo, 'init', '-q', '-b', 'main')
    write(repo, 'src/connections/types.ts', 'export type Conn = { id: string }\n')
    git(repo, 'add', '-A')
    gitAt('2026-01-01T12:00:00Z', repo, 'commit', '-q', '-m', 'c1')
    mkdirSync(mem)
    const notesBy: [string, string][] = [
      ['sibling', 'Session logs are pushed to `acme/claude-sessions`.'],
      ['absolute', 'The course lives in `/home/someone/projects/elearning/index.ts`.'],
      ['relative', 'Data comes from `../other-project/data.json`.'],
      ['module', 'Skills import only `connections/types`.'],
      ['folder', 'Old code was in `src/ghost` (never here).'],
      ['arity', 'Lookups go through `find_op/2`.'],
      ['action', 'The macOS job pins `maxim-lobanov/setup-xcode@v1` (hidden set K).'],
    ]
    for (const [name, body] of notesBy)
      writeFileSync(
        join(mem, `${name}.md`),
        topic(body, '2026-02-15T00:00:00Z').replace('name: t', `name: ${name}`),
      )
    writeFileSync(
      join(mem, 'MEMORY.md'),
      `# Memory\n\n${notesBy.map(([n]) => `- [${n}](${n}.md) — ${n}`).join('\n')}\n`,
    )
    clearHistoryCache()
    clearPickaxeCache()
    notes = (await auditMemory({ memoryDir: mem, repo })).notes
  })

  it('calls an owner/name another repository: unverifiable, with that reason', () => {
    const n = byTitle(notes, 'sibling')
    expect(n.verdict).toBe('unverifiable')
    expect(n.reasons[0]).toBe(
      '`acme/claude-sessions` names another repository (`owner/name`), not a path in this one; not checked',
    )
  })

  it('calls a GitHub Action at a version (`owner/name@v1`) another repository', () => {
    const n = byTitle(notes, 'action')
    expect(n.verdict).toBe('unverifiable')
    expect(n.reasons[0]).toContain('`maxim-lobanov/setup-xcode@v1` names another repository')
  })

  it('calls absolute and ../ paths outside the repository unverifiable, with that reason', () => {
    for (const [title, text] of [
      ['absolute', '/home/someone/projects/elearning/index.ts'],
      ['relative', '../other-project/data.json'],
    ]) {
      const n = byTitle(notes, title)
      expect(n.verdict).toBe('unverifiable')
      expect(n.reasons[0]).toBe(
        `\`${text}\` is outside the audited repository (another project or folder); not checked`,
      )
    }
  })

  it('resolves a module path written without its extension, and keeps a path under a real folder a path', () => {
    const m = byTitle(notes, 'module')
    expect(m.verdict).toBe('fresh')
    expect(m.reasons[0]).toBe('`connections/types` resolved to `src/connections/types.ts`')
    expect(byTitle(notes, 'folder').verdict).toBe('never-matched')
    // An Erlang name and arity is no repository.
    expect(byTitle(notes, 'arity').reasons[0]).not.toMatch(/another repository/)
  })
})
