/**
 * Rules blind sets CV to CY (docs/eval-audit.md) showed were missing, on a real git repository:
 * - a make target's lines are the lines defining it: `make c` is not changed by an edit of a
 *   `%.asc:` pattern rule or a new `formatc:` target, which merely hold `c:` (CY ws-t03 to t05);
 * - a local address's port (`curl http://localhost:3001/…`) is held now only by a line setting
 *   a port: a list of ports a probe tries (`DEV_SERVER_PORTS = [3000, 3001, 4000]`) and a line
 *   that merely says `export` or `import` set none, so the server's move from 3001 to 4001 makes
 *   the note stale (CY sc-r03, sc-t01); a port the code still sets keeps the note quiet;
 * - a placeholder a path pattern writes twice names one thing twice: `plugins/<name>/skills/<name>/`
 *   no longer holds once the skills sit in bundles (`plugins/bundle/skills/mail/`), which the plain
 *   glob still matched (CV as-r04); a pattern with two placeholders still matches them, and one
 *   whose files git ignores now is not gone;
 * - a path alias (`@sources/app/`) names the folder after its `@`: moved since, the note is stale,
 *   not "wrong from the start" for an `@` no commit had (CW hp-r08);
 * - a minimum version is a version: "Node ≥20" is checked against engines' `node`, judged by the
 *   root-most manifest that pinned it, not a package of the monorepo left behind (CX ta-t01);
 * - `your_tool` is a placeholder: a checklist's `pub mod your_tool;` is an example, not code
 *   removed since (CX ct-t02).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { AuditNote } from '../../../../src/shared/model'
import { samePlaceholders } from '../../../../src/core/audit/placeholder-paths'
import { productVersions } from '../../../../src/core/audit/product-versions'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'
import { git } from '../../../helpers/git'

afterAll(removeBase)

const MAKEFILE = (asc: string, format: string): string =>
  `.PHONY: c ${format}\n\nc:\n\tcabal build all\n\n${asc}\n\tgpg --armor $<\n\n${format}:\n\ttreefmt\n`

describe('sets CV to CY rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('scv')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'Makefile', MAKEFILE('%.asc: %.txt', 'format'))
    write(repo, 'server/index.js', 'const PORT = process.env.PORT || 3001;\napp.listen(PORT);\n')
    write(repo, 'tools/admin.js', 'const ADMIN_PORT = 5173;\nserve(ADMIN_PORT);\n')
    write(repo, 'lib/qa.js', 'export const DEV_SERVER_PORTS = [3000, 3001, 4000, 5173];\n')
    write(
      repo,
      'scripts/import.mjs',
      "export const API = process.env.API || 'http://localhost:3001';\n",
    )
    write(repo, 'src/tool/mod.rs', 'pub mod shell;\n')
    write(repo, 'templates/new_tool.rs', '// copy me\npub mod your_tool;\n')
    for (const s of ['mail', 'calendar'])
      write(repo, `plugins/${s}/skills/${s}/SKILL.md`, `# ${s}\n`)
    write(repo, 'sources/app/(app)/index.tsx', 'export default function Home() {}\n')
    const engines = (v: string): string =>
      `{\n  "name": "x",\n  "engines": {\n    "node": ">=${v}"\n  }\n}\n`
    // Thirteen packages pin it too (more lines than a stated number is looked for on).
    const examples = [...Array(13).keys()].map((i) => `ts/examples/e${i}/package.json`)
    for (const f of ['ts/package.json', ...examples]) write(repo, f, engines('20'))
    for (const a of ['acme', 'beta']) write(repo, `answers/${a}.yaml`, 'q: a\n')
    commit('c1', '2026-01-01T12:00:00Z')
    rmSync(join(repo, 'answers'), { recursive: true })
    for (const f of ['ts/package.json', ...examples.slice(1)]) write(repo, f, engines('22'))
    write(repo, '.gitignore', 'answers/\n')
    git(repo, 'mv', 'sources', 'app-sources')
    for (const s of ['mail', 'calendar']) {
      rmSync(join(repo, `plugins/${s}`), { recursive: true })
      write(repo, `plugins/bundle/skills/${s}/SKILL.md`, `# ${s}\n`)
    }
    write(repo, 'Makefile', MAKEFILE('%.asc: %.md', 'formatc'))
    write(repo, 'server/index.js', 'const PORT = process.env.PORT || 4001;\napp.listen(PORT);\n')
    write(repo, 'tools/admin.js', 'const ADMIN_PORT = 5173;\nserve(ADMIN_PORT, { quiet: true });\n')
    rmSync(join(repo, 'templates/new_tool.rs'))
    commit('move', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Compile', 'Compile all packages:\n\n`make c | grep -vE Compiling`'],
        [
          'Canvas',
          "Close a tab:\n\n```bash\ncurl -s -X POST http://localhost:3001/api/canvas/close -d '{}'\n```",
        ],
        ['Admin', 'The admin tool answers on http://localhost:5173/ while it runs.'],
        ['Nested', 'To try a skill, copy the nested `plugins/<name>/skills/<name>/` folder.'],
        ['Answers', 'Answers to custom questions are kept in `answers/<entry-id>.yaml`.'],
        ['Bundled', 'Each skill lives in `plugins/<plugin>/skills/<skill>/` with its SKILL.md.'],
        ['Pages', '- store app pages in @sources/app/(app)/'],
        ['Runtime', 'Requires **Node ≥20**, **pnpm ≥10**.'],
        ['Tool', 'Register a tool in `src/tool/mod.rs`: add `pub mod your_tool;` there.'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it('reads a make target as changed only by the lines defining it (CY ws-t03)', () => {
    quiet('Compile')
    expect(byTitle(notes, 'Compile').reasons.join('\n')).not.toContain('formatc')
  })

  it('checks a local address port against the code that set it (CY sc-r03)', () => {
    called('Canvas', 'stale', '`server/index.js`', 'no line setting a port holds it now', sha.move)
    quiet('Admin')
  })

  it('reads a placeholder written twice as one name (CV as-r04)', () => {
    called('Nested', 'stale', 'matched 2 files', '`plugins/calendar/skills/calendar/SKILL.md`')
    quiet('Bundled')
    // Its files untracked and ignored since are not gone (visible set ap-cmd-greenhouse-answers).
    quiet('Answers')
    expect(
      samePlaceholders('plugins/<name>/skills/<name>', true)?.test('plugins/a/skills/a/x.md'),
    ).toBe(true)
    expect(
      samePlaceholders('plugins/<name>/skills/<name>', true)?.test('plugins/a/skills/b/x.md'),
    ).toBe(false)
    expect(samePlaceholders('plugins/<plugin>/skills/<skill>', true)).toBeNull()
  })

  it('reads a path alias as the folder after its `@` (CW hp-r08)', () => {
    called('Pages', 'stale', '`sources/app`', sha.move)
  })

  it('reads `your_tool` as a placeholder, its quote an example (CX ct-t02)', () => {
    const n = byTitle(notes, 'Tool')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
    expect(n.reasons.join('\n')).toContain('`your_tool`, a placeholder')
  })

  it('reads a minimum version as the version a manifest pins (CX ta-t01)', () => {
    // Judged by the root-most manifest that pinned it: a package left at >=20 does not hold it.
    called('Runtime', 'suspect', '`ts/package.json`', '`"node": ">=22"`')
    expect(productVersions('Requires **Node ≥20**, **pnpm ≥10**; React >= 18.2')).toEqual([
      { written: 'Node ≥20', names: ['node'], parts: [20] },
      { written: 'React >= 18.2', names: ['react', 'reactjs', '@react/core'], parts: [18, 2] },
    ])
  })
})
