/**
 * Claims no reference carries, on a real git repository (issue 12: TODOs done since, counts
 * that changed, values that changed while names survive): each held when the note was written
 * and fails now, so the note is suspect and the reason says what changed; a claim that never
 * held, or still holds, says nothing. And an example that never matched does not hide a
 * name's lost line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('claims that flipped since the note (TODOs, counts, stated values)', () => {
  const { repo, mem, sha, commit } = historyCase('cf')
  let notes: readonly AuditNote[] = []
  const WRITTEN = '2026-02-15T00:00:00Z'

  beforeAll(async () => {
    const pkg = (scripts: Record<string, string>): string =>
      JSON.stringify({ name: 'x', scripts }, null, 2)
    write(repo, 'package.json', pkg({ lint: 'eslint .', test: 'node run-tests.js' }))
    write(repo, 'src/words.ts', '// fire-and-forget calls are cast\nexport function define() {}\n')
    write(repo, 'src/kept.ts', 'export function keepWord() {}\n')
    for (const n of ['a', 'b', 'c']) write(repo, `src/pages/${n}.html`, `<p>${n}</p>\n`)
    for (const n of ['x', 'y']) write(repo, `src/other/${n}.html`, `<p>${n}</p>\n`)
    write(repo, 'strategy/positions.md', '# Positions\n\n## 1. One\n\n## 2. Two\n\n## 3. Three\n')
    write(
      repo,
      'vite.config.mjs',
      'export default {\n  build: {\n    chunkSizeWarningLimit: 1200,\n  },\n  preview: { port: 4173 },\n}\n',
    )
    write(repo, 'src/og.ts', 'export const imageWidth = 1200\n')
    write(repo, 'config/allow.json', '{\n  "version": 1,\n  "entries": []\n}\n')
    write(repo, 'site.config.mjs', "export default {\n  site: 'https://old.example.io',\n}\n")
    write(repo, '.gitignore', '.env\n')
    write(repo, 'src/env.ts', 'export const DEPLOY_DIR = process.env.DEPLOY_DIR\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // After the note: the planned word lands, the absent script is added, a page is added,
    // a position is added, the chunk limit and an unrelated 1200 change, the allowlist gains
    // an entry, the site moves, and the line reading DEPLOY_DIR changes.
    write(repo, 'src/words.ts', 'export function define() {}\nexport function forget() {}\n')
    write(repo, 'src/kept.ts', 'export function keepWord() {}\nkeepWord()\n')
    write(repo, 'package.json', pkg({ lint: 'eslint .', test: 'vitest', build: 'vite build' }))
    write(repo, 'src/pages/d.html', '<p>d</p>\n')
    write(repo, 'src/other/z.html', '<p>z</p>\n')
    write(
      repo,
      'strategy/positions.md',
      '# Positions\n\n## 1. One\n\n## 2. Two\n\n## 3. Three\n\n## 4. Four\n',
    )
    write(
      repo,
      'vite.config.mjs',
      'export default {\n  build: {\n    chunkSizeWarningLimit: 1800,\n  },\n  preview: { port: 4173 },\n}\n',
    )
    write(repo, 'src/og.ts', 'export const imageWidth = 1600\n')
    write(repo, 'config/allow.json', '{\n  "version": 1,\n  "entries": [\n    "pkg"\n  ]\n}\n')
    write(repo, 'site.config.mjs', "export default {\n  site: 'https://new.example.io',\n}\n")
    write(repo, 'src/env.ts', "export const DEPLOY_DIR = loadEnv('env/.env').DEPLOY_DIR\n")
    commit('later', '2026-03-01T12:00:00Z')

    const notesBy: [string, string][] = [
      ['todo-done', '- TODO: `forget` word (dictionary rollback)'],
      ['todo-held', '- TODO: a second caller of `keepWord`'],
      ['no-build', 'This project has no `type-check` or `build` scripts; run lint and tests.'],
      ['count-pages', 'There are 3 pages under `src/pages/`.'],
      ['count-never', 'There are 7 pages under `src/other/`.'],
      ['count-doc', 'Every plan picks one of three positions in `strategy/positions.md`.'],
      ['chunk', '- **Build chunk warnings**: the chunk limit is 1200kB.'],
      ['port', 'The preview server listens on port 4173 (`vite.config.mjs`).'],
      ['pair', '`config/allow.json` → `entries: []`, nothing allowlisted.'],
      ['site', 'The site is served at https://old.example.io/docs/.'],
      [
        'example',
        'Set `DEPLOY_DIR` in `.env`. Example:\n\n```\nDEPLOY_DIR=\\\\server\\share\\deploy\n```',
      ],
    ]
    notes = await auditTopics(repo, mem, notesBy, WRITTEN)
  }, 120_000)

  it('calls a TODO suspect once the name it plans is in the code, naming the commit', () => {
    const n = byTitle(notes, 'todo-done')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('`forget` as not made yet')
    expect(n.reasons[0]).toContain(`added in ${sha.later}`)
  })

  it('does not count a TODO whose name the code already held when it was written', () => {
    expect(byTitle(notes, 'todo-held').verdict).not.toBe('suspect')
  })

  it('calls "no `build` script" suspect once package.json has one', () => {
    const n = byTitle(notes, 'no-build')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('there is no script `build`')
  })

  it('calls a count of a folder’s entries suspect when it held then and differs now', () => {
    const n = byTitle(notes, 'count-pages')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('held 3 entries when the note was written')
    expect(n.reasons[0]).toContain('4 now')
    // A count that never matched the folder says nothing.
    expect(byTitle(notes, 'count-never').verdict).toBe('fresh')
  })

  it('counts a document’s numbered headings', () => {
    const n = byTitle(notes, 'count-doc')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('3 numbered headings')
  })

  it('calls a stated value suspect when the line that set it sets another now', () => {
    const n = byTitle(notes, 'chunk')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons[0]).toContain('`chunkSizeWarningLimit: 1200,`')
    expect(n.reasons[0]).toContain('`chunkSizeWarningLimit: 1800,`')
    expect(n.reasons.join('\n')).not.toContain('imageWidth')
    expect(byTitle(notes, 'port').verdict).toBe('fresh')
  })

  it('checks a `key: value` pair and a URL’s site against the lines that held them', () => {
    const pair = byTitle(notes, 'pair')
    expect(pair.verdict).toBe('suspect')
    expect(pair.reasons[0]).toContain('`"entries": [`')
    const site = byTitle(notes, 'site')
    expect(site.verdict).toBe('suspect')
    expect(site.reasons[0]).toContain("`site: 'https://new.example.io',`")
  })

  it('does not let an example that never matched hide a name’s changed line', () => {
    const n = byTitle(notes, 'example')
    expect(n.verdict).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('a code line with `DEPLOY_DIR` changed')
  })
})
