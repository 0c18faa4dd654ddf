import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { auditMemory } from '../../../../src/node/audit/audit'
import { clearHistoryCache } from '../../../../src/node/git/history'
import {
  BEFORE_CHANGES,
  TOTAL,
  base,
  buildScriptedRepo,
  byTitle,
  mem,
  plain,
  removeBase,
  repo,
  shas,
  topic,
  write,
} from './scripted-repo'
import { git } from '../../../helpers/git'

// Notes written before the history's changes: what changed since makes them stale (issue 12).
beforeAll(() => buildScriptedRepo(BEFORE_CHANGES))
afterAll(removeBase)

describe('auditMemory on a scripted history', () => {
  let notes: readonly AuditNote[] = []
  let summary: Record<string, number> = {}
  let progress: [number, number][] = []

  beforeAll(async () => {
    clearHistoryCache()
    progress = []
    const r = await auditMemory({
      memoryDir: mem,
      repo,
      instructionFiles: [join(repo, 'CLAUDE.md')],
      onProgress: (d, t) => progress.push([d, t]),
    })
    notes = r.notes
    summary = r.summary
    expect(r.repo).toBe(repo)
    expect(r.problems).toEqual([])
  })

  it('follows a rename to its current path', () => {
    const n = byTitle(notes, 'Session handling')
    expect(n.verdict).toBe('stale')
    expect(n.line).toBe(3)
    expect(n.endLine).toBe(3)
    expect(n.file).toBe(join(mem, 'MEMORY.md'))
    expect(plain(n.references)).toEqual([
      {
        text: 'src/auth/session.ts',
        kind: 'path',
        status: 'moved',
        resolved: join(repo, 'src/auth/token-session.ts'),
        movedTo: join(repo, 'src/auth/token-session.ts'),
      },
      {
        text: 'createSession()',
        kind: 'symbol',
        status: 'ok',
        resolved: join(repo, 'src/auth/token-session.ts'),
        movedTo: null,
      },
    ])
    expect(n.reasons[0]).toBe(
      `\`src/auth/session.ts\` was renamed to \`src/auth/token-session.ts\` in ${shas.c3} on 2026-03-01`,
    )
    expect(n.writtenAt).toBe('2026-01-15T00:00:00.000Z')
    expect(n.reasons[n.reasons.length - 1]).toBe(
      'written-at 2026-01-15T00:00:00.000Z from frontmatter `updated`',
    )
  })

  it('follows a rename chain a → b → c', () => {
    const n = byTitle(notes, 'Helpers')
    expect(n.verdict).toBe('stale')
    expect(n.references[0].status).toBe('moved')
    expect(n.references[0].movedTo).toBe(join(repo, 'src/c.ts'))
    expect(n.reasons[0]).toBe(
      `\`src/a.ts\` was renamed to \`src/b.ts\` in ${shas.c2} on 2026-02-01, then to \`src/c.ts\` in ${shas.c4} on 2026-03-05`,
    )
  })

  it('reports a deleted file as missing, with the commit', () => {
    const n = byTitle(notes, 'Legacy parser')
    expect(n.verdict).toBe('stale')
    expect(plain(n.references)).toEqual([
      { text: 'src/old.ts', kind: 'path', status: 'missing', resolved: null, movedTo: null },
    ])
    expect(n.reasons[0]).toBe(`\`src/old.ts\` was deleted in ${shas.c4} on 2026-03-05`)
  })

  it('reports a removed package.json script', () => {
    const n = byTitle(notes, 'Scripts')
    expect(n.verdict).toBe('stale')
    expect(plain(n.references)).toEqual([
      { text: 'npm run lint', kind: 'command', status: 'missing', resolved: null, movedTo: null },
      {
        text: 'npm run build',
        kind: 'command',
        status: 'ok',
        resolved: join(repo, 'package.json'),
        movedTo: null,
      },
    ])
    // Stale names the commit that took the script away (issue 12 item 1).
    expect(n.reasons[0]).toBe(
      `\`npm run lint\`: no \`lint\` script in \`package.json\`; removed in ${shas.c4} on 2026-03-05`,
    )
  })

  it('reports a removed symbol while its file still exists', () => {
    const n = byTitle(notes, 'Dates')
    expect(n.verdict).toBe('stale')
    expect(n.references.map((r) => [r.text, r.kind, r.status])).toEqual([
      ['legacyHelper()', 'symbol', 'missing'],
      ['src/util.ts', 'path', 'ok'],
    ])
    expect(n.reasons[0]).toBe(
      `\`legacyHelper\` is not found in the repository; removed in ${shas.c4} on 2026-03-05`,
    )
  })

  it('keeps an untouched note fresh', () => {
    const n = byTitle(notes, 'Stable')
    expect(n.verdict).toBe('fresh')
    expect(n.references.map((r) => [r.text, r.status, r.resolved])).toEqual([
      ['src/stable.ts', 'ok', join(repo, 'src/stable.ts')],
      ['stableValue', 'ok', join(repo, 'src/stable.ts')],
    ])
  })

  // Issue 12 item 4: a commit to the named file that touched none of the note's names
  // (this note names only the file) no longer makes it suspect.
  it('keeps a note fresh when its file changed after it was written but not its names', () => {
    const n = byTitle(notes, 'Retries')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons.some((r) => r.includes(shas.c5))).toBe(false)
  })

  it('calls a prose-only note unverifiable', () => {
    const n = byTitle(notes, 'Team')
    expect(n.verdict).toBe('unverifiable')
    expect(plain(n.references)).toEqual([])
    expect(n.reasons[0]).toBe('nothing checkable: no path, symbol, command or quoted code')
  })

  it('tells a quote with a small edit (changed) from a quote that is gone (missing)', () => {
    // Names intact, lines changed since the note: suspect, never stale (issue 12 item 5).
    const changed = byTitle(notes, 'Totals')
    expect(changed.verdict).toBe('suspect')
    expect(plain(changed.references)).toEqual([
      {
        text: `${TOTAL.split('\n')[0]} … (7 lines)`,
        kind: 'snippet',
        status: 'changed',
        resolved: join(repo, 'src/billing/total.ts'),
        movedTo: null,
      },
    ])
    expect(changed.reasons[0]).toMatch(
      /^quoted code `export function computeTotal.*` changed since the note: it matched `src\/billing\/total.ts` exactly at [0-9a-f]{7} \(2026-01-01\), when the note was written; now 93% alike \(lines 3–9\)$/,
    )
    // Never in the history: a paraphrase or example, not stale (issue 12 item 1).
    const gone = byTitle(notes, 'Answer')
    expect(gone.verdict).toBe('never-matched')
    expect(gone.reasons[0]).toMatch(
      /^not a reference: quoted code `function neverWritten\(\) \{` is not found/,
    )
    expect(gone.references.map((r) => [r.kind, r.status])).toEqual([['snippet', 'missing']])
    const inline = byTitle(notes, 'Limit')
    expect(inline.verdict).toBe('suspect')
    expect(plain(inline.references)).toEqual([
      {
        text: 'const RETRY_LIMIT = 3',
        kind: 'snippet',
        status: 'changed',
        resolved: join(repo, 'src/edited.ts'),
        movedTo: null,
      },
    ])
  })

  it('checks make targets', () => {
    // `make publish` never existed: wrong from the start, not stale (issue 12 item 1).
    const n = byTitle(notes, 'Make')
    expect(n.verdict).toBe('never-matched')
    expect(n.references.map((r) => [r.text, r.status])).toEqual([
      ['make deploy', 'ok'],
      ['make publish', 'missing'],
    ])
    expect(n.reasons[0]).toBe(
      'wrong from the start: `make publish`: no `publish` target in `Makefile`',
    )
  })

  it('handles paths with spaces and unicode, binary files and script files', () => {
    const guide = byTitle(notes, 'Guide')
    expect(guide.verdict).toBe('fresh')
    expect(guide.references[0].resolved).toBe(join(repo, 'docs/my guide/ünï code.md'))
    expect(byTitle(notes, 'Logo').verdict).toBe('fresh')
    const rel = byTitle(notes, 'Release script')
    expect(rel.verdict).toBe('fresh')
    expect(plain(rel.references)).toEqual([
      {
        text: './scripts/release.sh',
        kind: 'command',
        status: 'ok',
        resolved: join(repo, 'scripts/release.sh'),
        movedTo: null,
      },
    ])
  })

  it('checks a 5,000-line quote on its head without failing', () => {
    const n = byTitle(notes, 'Values')
    expect(n.verdict).toBe('fresh')
    expect(n.references[0].status).toBe('ok')
    expect(n.reasons[0]).toBe(
      'quoted code `export const value0 = 0 * 3 + 1` found in `src/big.ts` (only its first 2000 lines were compared)',
    )
  })

  it('does not check URLs and branches', () => {
    const n = byTitle(notes, 'Links')
    expect(n.verdict).toBe('unverifiable')
    expect(plain(n.references)).toEqual([
      {
        text: 'https://example.com/docs',
        kind: 'url',
        status: 'ok',
        resolved: null,
        movedTo: null,
      },
      { text: 'release/2.x', kind: 'branch', status: 'ok', resolved: null, movedTo: null },
    ])
    expect(n.reasons[0]).toBe(
      'nothing checkable: URLs and branch names are not checked against the code',
    )
  })

  it('audits orphan topics, dangling entries and instruction files', () => {
    const orphan = notes.find((n) => n.file === join(mem, 'orphan.md'))!
    expect(orphan).toMatchObject({ line: 1, endLine: 7, title: 't', verdict: 'fresh' })
    const dangling = byTitle(notes, 'Gone')
    expect(dangling.verdict).toBe('unverifiable')
    expect(dangling.reasons[0]).toBe('the topic file `gone.md` does not exist')
    const claude = notes.filter((n) => n.file === join(repo, 'CLAUDE.md'))
    expect(claude.map((n) => [n.line, n.verdict, n.writtenAt])).toEqual([
      [3, 'fresh', '2026-01-01T12:00:00.000Z'],
      [4, 'stale', '2026-01-01T12:00:00.000Z'],
      // Never in the code: not a reference (issue 12 item 1), no longer stale.
      [5, 'never-matched', '2026-01-01T12:00:00.000Z'],
    ])
    // The note's own file is left out of the search, so it cannot vouch for itself.
    expect(claude[2].reasons[0]).toBe(
      'not a reference: `onlyInClaudeMd` is not found in the repository, and never was in its code history (a paraphrase, template or example)',
    )
    expect(claude[0].reasons).toEqual([
      'written-at 2026-01-01T12:00:00.000Z from git blame (the last commit to these lines)',
    ])
  })

  it('counts every verdict and reports progress', () => {
    // Issue 12: Answer, Make and CLAUDE.md line 5 never matched (were stale); Retries is fresh (was suspect);
    // Totals and Limit quote code changed since (item 5: suspect, were stale).
    expect(summary).toEqual({
      fresh: 8,
      suspect: 2,
      stale: 6,
      'never-matched': 3,
      unverifiable: 3,
    })
    expect(notes.length).toBe(22)
    const [last] = progress.slice(-1)
    expect(last).toEqual([27, 27])
  })
})

describe('writtenAt sources', () => {
  it('prefers the injected transcript provider, then falls back to file mtime', async () => {
    const m = join(base, 'mem-src')
    mkdirSync(m)
    writeFileSync(join(m, 'MEMORY.md'), '- [A](a.md) — a\n- [B](b.md) — b\n')
    writeFileSync(join(m, 'a.md'), 'Uses `src/stable.ts`.\n')
    writeFileSync(join(m, 'b.md'), 'Uses `src/edited.ts`.\n')
    const r = await auditMemory({
      memoryDir: m,
      repo,
      writtenAtFor: async (file) =>
        file.endsWith('a.md') ? { at: '2026-03-20T08:00:00Z', source: 'transcript' } : null,
    })
    const a = byTitle(r.notes, 'A')
    expect(a.writtenAt).toBe('2026-03-20T08:00:00.000Z')
    expect(a.reasons).toEqual([
      'written-at 2026-03-20T08:00:00.000Z from the session transcript that wrote it',
    ])
    const b = byTitle(r.notes, 'B')
    expect(b.verdict).toBe('fresh') // mtime is now, after every commit
    expect(b.reasons[b.reasons.length - 1]).toMatch(
      /from file mtime \(coarse: any later edit moves it\)$/,
    )
  })
})

describe('degraded repositories', () => {
  it('checks a plain folder without git, and reports missing paths plainly', async () => {
    const plain = join(base, 'plain')
    write(plain, 'src/x.ts', 'export function plainThing() {}\n')
    const m = join(base, 'mem-plain')
    mkdirSync(m)
    writeFileSync(join(m, 'MEMORY.md'), '- [X](x.md) — x\n- [Y](y.md) — y\n')
    writeFileSync(join(m, 'x.md'), topic('`src/x.ts` defines `plainThing()`.'))
    writeFileSync(join(m, 'y.md'), topic('`src/gone.ts` holds the parser.'))
    const r = await auditMemory({ memoryDir: m, repo: plain })
    expect(r.repo).toBe(plain)
    expect(byTitle(r.notes, 'X').verdict).toBe('suspect') // the file's mtime is after the frontmatter date
    expect(byTitle(r.notes, 'X').references.map((x) => x.status)).toEqual(['ok', 'ok'])
    const y = byTitle(r.notes, 'Y')
    // No history names a commit that removed it: suspect, not stale (issue 12 item 1).
    expect(y.verdict).toBe('suspect')
    expect(y.reasons[0]).toBe('`src/gone.ts` does not exist (no git history to tell where it went)')
  })

  it('calls everything unverifiable without a repository, and names a missing one', async () => {
    const r = await auditMemory({ memoryDir: mem, repo: null })
    expect(r.repo).toBeNull()
    expect(r.summary.unverifiable).toBe(r.notes.length)
    const missing = await auditMemory({ memoryDir: mem, repo: join(base, 'nope') })
    expect(missing.problems).toEqual([
      { path: join(base, 'nope'), reason: 'the repository folder does not exist' },
    ])
  })

  it('reports an unreadable memory folder as a problem', async () => {
    const r = await auditMemory({ memoryDir: join(base, 'no-memory'), repo })
    expect(r.notes).toEqual([])
    expect(r.problems[0].reason).toBe('cannot list the memory folder: ENOENT')
  })

  it('works in a shallow clone, saying history is cut', async () => {
    const shallow = join(base, 'shallow')
    git(base, 'clone', '-q', '--depth', '1', `file://${repo}`, shallow)
    clearHistoryCache()
    const r = await auditMemory({ memoryDir: mem, repo: shallow })
    const helpers = byTitle(r.notes, 'Helpers')
    // Beyond the clone's edge nothing says whether it held at the note: suspect, not stale.
    expect(helpers.verdict).toBe('suspect')
    expect(helpers.references[0]).toMatchObject({ status: 'missing', movedTo: null })
    expect(helpers.reasons[0]).toBe(
      '`src/a.ts` does not exist and git history has no record of it (shallow clone: older history is not available here)',
    )
    expect(byTitle(r.notes, 'Stable').verdict).toBe('fresh')
  })

  it('works on a detached HEAD', async () => {
    const det = join(base, 'detached')
    git(base, 'clone', '-q', repo, det)
    git(det, 'checkout', '-q', '--detach', 'HEAD~1')
    const r = await auditMemory({ memoryDir: mem, repo: det })
    // At c4 the total.ts quote was still exact and edited.ts untouched.
    expect(byTitle(r.notes, 'Totals').verdict).toBe('fresh')
    expect(byTitle(r.notes, 'Retries').verdict).toBe('fresh')
    expect(byTitle(r.notes, 'Helpers').references[0].movedTo).toBe(join(det, 'src/c.ts'))
  })

  it('sees uncommitted changes made after the note', async () => {
    const wt = join(base, 'dirty')
    git(base, 'clone', '-q', repo, wt)
    write(wt, 'src/stable.ts', 'export const stableValue = 8\n')
    const r = await auditMemory({ memoryDir: mem, repo: wt })
    const n = byTitle(r.notes, 'Stable')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toBe(
      '`src/stable.ts` has uncommitted changes made after the note was written',
    )
  })

  it('stops when aborted', async () => {
    const ac = new AbortController()
    ac.abort()
    await expect(auditMemory({ memoryDir: mem, repo, signal: ac.signal })).rejects.toThrow()
  })
})
