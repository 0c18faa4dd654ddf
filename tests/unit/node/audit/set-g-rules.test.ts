/**
 * Rules an unseen set (hidden set G, docs/eval-audit.md "Hidden set G") showed were missing, on a
 * real git repository: a definition moved out of the file a note names is a change the note
 * must show; a version a release bumps is not the note's claim unless it writes it; a setting
 * that keeps the note's number keeps it whatever comment beside it changed, and a name only a
 * comment gave never left the code; a file retired to an archive folder is stale; a file the
 * note says to leave as is, changed since, is suspect (unless it is generated); a path the repository has in another case
 * is that file (as on macOS); a file-name suffix (`.meta.json`) holds while names end with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('set G rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sg')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'src/layout/AppLayout.jsx',
      [
        "import { useState } from 'react';",
        'const MODULE_MAP = {',
        "  home: { path: '/home' },",
        '};',
        'export function AppLayout({ items }) {',
        '  const hasReal = items.some((key) => MODULE_MAP[key]);',
        '  return hasReal;',
        '}',
        '',
      ].join('\n'),
    )
    write(
      repo,
      'src/version.js',
      "// Bumped by every release.\nexport const APP_VERSION = '2.2.464';\n",
    )
    write(
      repo,
      'src/views/Stock.jsx',
      [
        'export async function loadAll(db) {',
        '  const CHUNK = 1000; // EdgeGate cap: max 1000 rows per request',
        '  const PAGE = 50; // page rows shown',
        '  return db.read(CHUNK, PAGE);',
        '}',
        '',
      ].join('\n'),
    )
    write(repo, 'db/migrations/20260702_write_policies.sql', 'CREATE POLICY p ON t USING (x);\n')
    write(repo, 'db/migrations/20260703_indexes.sql', 'CREATE INDEX i ON t (x);\n')
    const post = (chunk: string): string =>
      Array.from({ length: 12 }, (_, i) => `def step_${i}():\n    return ${i}\n`).join('') +
      `def plan_chunks(size):\n    return ${chunk}\n`
    write(repo, 'scripts/post.py', post('[size]'))
    write(repo, 'DESIGN.md', '# Design\n\n## Checklist\n')
    write(repo, 'data/song.tsv', '0.0\t4.0\tA:min7\n')
    write(repo, 'data/song.meta.json', '{ "title": "Song" }\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // The map moves to its own module; the layout only imports and uses it now.
    write(
      repo,
      'src/constants/moduleMap.js',
      "export const MODULE_MAP = {\n  home: { path: '/home' },\n  shop: { path: '/shop' },\n};\n",
    )
    write(
      repo,
      'src/layout/AppLayout.jsx',
      [
        "import { useState } from 'react';",
        "import { MODULE_MAP } from '../constants/moduleMap';",
        'export function AppLayout({ items }) {',
        '  const hasReal = items.some((key) => MODULE_MAP[key]);',
        '  return hasReal;',
        '}',
        '',
      ].join('\n'),
    )
    commit('move map', '2026-03-01T12:00:00Z')
    write(
      repo,
      'src/version.js',
      "// Bumped by every release.\nexport const APP_VERSION = '2.710.0';\n",
    )
    write(
      repo,
      'src/views/Stock.jsx',
      [
        'export async function loadAll(db) {',
        '  const CHUNK = 1000;',
        '  const PAGE = 25;',
        '  return db.read(CHUNK, PAGE);',
        '}',
        '',
      ].join('\n'),
    )
    write(
      repo,
      'scripts/post.py',
      post('[size // 2, size - size // 2]').replace(
        'def step_3():\n    return 3\n',
        'def step_3(a):\n    return a\n',
      ),
    )
    write(repo, 'scripts/check.mjs', 'export const checked = probe(EdgeGate);\n')
    commit('release', '2026-03-02T12:00:00Z')
    git(repo, 'mv', 'db/migrations', 'db/migrations-legacy')
    write(repo, 'db/migrations/20260101_baseline.sql', 'CREATE POLICY p ON t USING (x);\n')
    commit('squash migrations', '2026-03-03T12:00:00Z')

    notes = await auditTopics(
      repo,
      mem,
      [
        ['Checklist', '3. **`src/layout/AppLayout.jsx`** — add an entry to `MODULE_MAP`'],
        ['Version', '- Bump `APP_VERSION` in `src/version.js` on every commit'],
        ['Version value', '- `APP_VERSION` in `src/version.js` is 2.2.464 right now'],
        ['Truncation', '**EdgeGate silently truncates every response to 1000 rows.** No warning.'],
        ['Page size', '- The stock page shows 50 rows per page.'],
        ['Upload', "- Don't touch the upload flow: scripts/post.py is proven working."],
        ['Upload path', '- Uploads go through scripts/post.py.'],
        ['Upload made', "- Steps are in `scripts/post.py` (auto-generated, don't modify)."],
        ['Sidecar', '- The loader parses `.tsv` files plus a `.meta.json` sidecar.'],
        ['Other sidecar', '- The loader parses `.tsv` files plus a `.lyrics.json` sidecar.'],
        ['Design rule', '- New UI must pass the checklist of `design.md` first.'],
        ['Style rule', '- New UI must pass the checklist of `styles.md` first.'],
        ['Policies', '- Write policies applied on 2026-07-02 (`20260702_write_policies.sql`).'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls a note suspect when the name it places in a named file is defined elsewhere now', () => {
    const n = byTitle(notes, 'Checklist')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain(
      '`MODULE_MAP` is no longer defined in `src/layout/AppLayout.jsx`, which the note names',
    )
    expect(n.reasons[0]).toContain(sha['move map'])
    expect(n.reasons[0]).toContain('`src/constants/moduleMap.js`:1')
  })

  it('keeps a note fresh when only a value it does not state changed on its line', () => {
    expect(byTitle(notes, 'Version').verdict).toBe('fresh')
    // The same change, when the note writes the old value, is its claim.
    const stated = byTitle(notes, 'Version value')
    expect(['suspect', 'stale']).toContain(stated.verdict)
    expect(stated.reasons.join('\n')).toContain('2.710.0')
  })

  it('keeps a number still set after its key, and a name only a comment gave, out of the reasons', () => {
    const n = byTitle(notes, 'Truncation')
    expect(n.verdict).not.toBe('suspect')
    expect(n.reasons.join('\n')).not.toMatch(/left every code file|the note states/)
    // A number the same setting holds no more still counts.
    const page = byTitle(notes, 'Page size')
    expect(page.verdict).toBe('suspect')
    expect(page.reasons[0]).toContain('the note states `50`')
  })

  it('calls a file retired to an archive folder stale, naming the commit', () => {
    const n = byTitle(notes, 'Policies')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain('db/migrations-legacy/20260702_write_policies.sql')
    expect(n.reasons[0]).toContain(sha['squash migrations'])
  })

  it('calls a note suspect when a file it says to leave as is changed since', () => {
    const n = byTitle(notes, 'Upload')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('the note says `scripts/post.py` is to stay as it was; 3 of the')
    expect(n.reasons[0]).toContain(sha.release)
    // The same change says nothing to a note that only names the file.
    expect(byTitle(notes, 'Upload path').verdict).toBe('fresh')
    // A generated file is written again by its generator (blind set DQ tg-t03).
    expect(byTitle(notes, 'Upload made').verdict).toBe('fresh')
  })

  it('reads a path the repository has in another case as that file, and a missing one as before', () => {
    const n = byTitle(notes, 'Design rule')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons[0]).toContain('`design.md` is `DESIGN.md` in another case')
    expect(byTitle(notes, 'Style rule').verdict).toBe('never-matched')
  })

  it('reads a file-name suffix as the end of file names, not as a dotfile', () => {
    const n = byTitle(notes, 'Sidecar')
    expect(n.verdict).toBe('fresh')
    expect(n.reasons[0]).toContain('`.meta.json` is a file-name suffix: `data/song.meta.json` end')
    // No file ends with it, and none ever did: as before.
    expect(byTitle(notes, 'Other sidecar').verdict).toBe('never-matched')
  })
})
