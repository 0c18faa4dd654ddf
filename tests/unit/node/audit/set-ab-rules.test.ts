/**
 * The rules blind set AB asked for, each on a real git repository (issue 12): a count in a
 * folder tree's comment (sb-r06: 13 enums then, 12 now); an approximate count beside a partial
 * glob (wn-t04: about 40 route modules under `backend/routes/`, 67 now); a table row listing a
 * folder's files (sb-t01: two import services replaced by one); a console command's namespaced
 * name (sb-t02: `app:import-books` gone); a module named in prose that the code stopped
 * importing while the manifest still lists it (wn-t01..t03: `sql.js`); and a deploy setting's
 * value that is no dependency (wn-r05: `base = "frontend"` in `netlify.toml`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countAgrees, countClaims } from '../../../../src/core/audit/count-claims'
import { dependencyIn } from '../../../../src/core/audit/manifest-names'
import { folderMembers } from '../../../../src/core/audit/prose-names'
import { extractReferences } from '../../../../src/core/audit/references'
import { commandNameSpans, httpRoutes } from '../../../../src/core/audit/command-texts'
import type { AuditNote } from '../../../../src/shared/model'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe('countClaims', () => {
  it('reads an approximate count and agrees within a quarter of it', () => {
    const text = '- `routes/*.js` — ~40 Express route modules, about 12 of them admin'
    const claims = countClaims(text, extractReferences(text))
    expect(claims.map((c) => [c.written, c.count, c.approx ?? false])).toEqual([
      ['~40', 40, true],
      ['12', 12, true],
    ])
    expect(countAgrees(40, true, 43)).toBe(true)
    expect(countAgrees(40, true, 67)).toBe(false)
    expect(countAgrees(3, true, 5)).toBe(true)
    expect(countAgrees(40, false, 43)).toBe(false)
    // A range between two numbers is not "about" its second.
    const range = 'pages 1~5 live in `pages/` today'
    expect(countClaims(range, extractReferences(range))).toEqual([])
  })

  it("reads the count in a folder tree entry's comment", () => {
    const text =
      '```\nsrc/\n  Entity/            Doctrine entities (10)\n  Enum/              PHP backed enums (13)\n  Schedule.php       runs 3 jobs\ntests/\n  Unit/              Mirrors src/ structure\n```\n'
    const claims = countClaims(text, extractReferences(text))
    expect(claims.map((c) => [c.path, c.count])).toEqual([
      ['src/Entity', 10],
      ['src/Enum', 13],
    ])
  })
})

describe('folderMembers', () => {
  it("reads a table row's folder and its members", () => {
    expect(folderMembers('| Import/ | ImportBooksService, ImportExcelService |')).toEqual([
      { folder: 'Import/', items: ['ImportBooksService', 'ImportExcelService'] },
    ])
    expect(folderMembers('| Folder | Purpose |\n| `lib/` | helpers and the like |')).toEqual([])
  })
})

describe('commandNameSpans', () => {
  it('reads namespaced console commands, not schemes or ports', () => {
    expect(
      commandNameSpans('Run `app:import-books`, `cache:clear`, `node:fs`, `localhost:3000`, `a:b`'),
    ).toEqual(['app:import-books', 'cache:clear'])
  })
})

describe('httpRoutes', () => {
  it("reads a route's segments after its last parameter, or the whole route", () => {
    expect(
      httpRoutes('- Endpoint: POST /accounts/:id/adjust-balance; `GET /api/plaud/cleanup`'),
    ).toEqual([
      { written: 'POST /accounts/:id/adjust-balance', tail: 'adjust-balance' },
      { written: 'GET /api/plaud/cleanup', tail: '/api/plaud/cleanup' },
    ])
    expect(httpRoutes('GET /users/:id and post /x')).toEqual([])
  })
})

describe('dependencyIn', () => {
  it("reads no setting's one value as a dependency", () => {
    expect(dependencyIn('base = "frontend"', 'frontend', 'netlify.toml')).toBe(false)
    expect(dependencyIn('testpaths = "tests" # here', 'tests', 'pyproject.toml')).toBe(false)
    expect(dependencyIn('frontend = "^1.2"', 'frontend', 'pyproject.toml')).toBe(true)
    expect(dependencyIn('  "pandas>=2.3",', 'pandas', 'pyproject.toml')).toBe(true)
    // A list under a key that names no dependencies lists settings (blind set BS).
    const air = 'include_dir = ["cmd", "internal"]'
    expect(dependencyIn(air, 'internal', '.air.toml')).toBe(false)
    expect(dependencyIn('dependencies = ["internal>=1"]', 'internal', 'pyproject.toml')).toBe(true)
    // A dependency group's list gives versions (blind set BN: `ruff` read as dropped).
    const dev = 'dev = ["pytest>=8.0.0", "ruff>=0.14.11"]'
    expect(dependencyIn(dev, 'ruff', 'backend/pyproject.toml')).toBe(true)
  })
})

describe("blind set AB's rules on a real repository", () => {
  const { repo, mem, commit } = historyCase('set-ab-rules')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    for (const e of ['Genre', 'Status', 'Format'])
      write(repo, `backend/src/Enum/${e}.php`, `<?php enum ${e} {}\n`)
    write(repo, 'backend/src/Entity/Book.php', '<?php class Book {}\n')
    write(repo, 'backend/tests/Unit/BookTest.php', '<?php class BookTest {}\n')
    for (let i = 0; i < 9; i++) write(repo, `backend/routes/r${i}.js`, `module.exports = ${i}\n`)
    for (let i = 0; i < 3; i++) write(repo, `sara/routes/s${i}.js`, `module.exports = ${i}\n`)
    for (const s of ['ImportBooksService', 'ImportExcelService'])
      write(repo, `backend/src/Service/Import/${s}.php`, `<?php class ${s} {}\n`)
    const command = (name: string, cls: string): void =>
      write(
        repo,
        `backend/src/Command/${cls}.php`,
        `<?php\n#[AsCommand(name: '${name}')]\nclass ${cls} {}\n`,
      )
    command('app:import-books', 'ImportBooksCommand')
    command('app:scan-nas', 'ScanNasCommand')
    const pkg = JSON.stringify({ name: 'api', dependencies: { 'sql.js': '^1.11.0' } }, null, 2)
    write(repo, 'backend/package.json', `${pkg}\n`)
    write(repo, 'backend/db/database.js', "const initSqlJs = require('sql.js')\n")
    write(repo, 'netlify.toml', '[build]\n  base = "frontend"\n')
    write(repo, 'frontend/app.js', 'export const app = 1\n')
    const controller = (routes: string[]): void =>
      write(
        repo,
        'backend/src/accounts/accounts.controller.ts',
        `@Controller('accounts')\nexport class AccountsController {\n${routes.join('\n')}\n}\n`,
      )
    controller(["  @Post(':id/adjust-balance') adjust() {}", "  @Put(':id/balance') set() {}"])
    commit('c1', '2026-04-01T12:00:00Z')
    controller(["  @Put(':id/balance') set() {}"])
    rmSync(join(repo, 'backend/src/Enum/Format.php'))
    for (let i = 9; i < 16; i++) write(repo, `backend/routes/r${i}.js`, `module.exports = ${i}\n`)
    for (const s of ['ImportBooksService', 'ImportExcelService'])
      rmSync(join(repo, `backend/src/Service/Import/${s}.php`))
    write(repo, 'backend/src/Service/Import/ImportService.php', '<?php class ImportService {}\n')
    rmSync(join(repo, 'backend/src/Command/ImportBooksCommand.php'))
    command('app:import', 'ImportCommand')
    write(repo, 'backend/db/database.js', "const Database = require('better-sqlite3')\n")
    write(repo, 'netlify.toml', '[build]\n  command = "npm run build"\n')
    commit('later', '2026-04-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Tree',
          '```\nsrc/\n  Entity/   Doctrine entities\n  Enum/     PHP backed enums (3)\ntests/\n  Unit/     Mirrors src/\n```',
        ],
        ['Routes', '- `routes/*.js` — ~10 Express route modules (CommonJS)'],
        ['Routes now', '- `routes/*.js` — ~15 Express route modules (CommonJS)'],
        [
          'Import',
          '| Folder | Services |\n|---|---|\n| Import/ | ImportBooksService, ImportExcelService |',
        ],
        ['Commands', '**Other commands**: `app:import-books`, `app:scan-nas`.'],
        ['Scan', 'Thumbnails come from `app:scan-nas`.'],
        ['Database', '- **Database:** sql.js (in-memory SQLite, flushed to disk).'],
        ['Adjust', '- Endpoint: POST /accounts/:id/adjust-balance'],
        ['Balance', '- Endpoint: PUT /accounts/:id/balance'],
        ['Areas', '| Area | Frontend | Backend |\n|---|---|---|\n| Deploy | Netlify | a Pi |'],
      ],
      '2026-04-10T12:00:00Z',
    )
  }, 120_000)

  it("flags a count in a tree entry's comment that held then and differs now", () => {
    const n = byTitle(notes, 'Tree')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('`backend/src/Enum` held 3 entries when the note was written')
    expect(text).toContain('2 now')
  })

  it('flags an approximate count beside a partial glob in the folder whose count agreed', () => {
    const n = byTitle(notes, 'Routes')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('suspect')
    expect(text).toContain('`backend/routes/*.js` matched 9 files when the note was written')
    expect(text).toContain('16 now')
    const now = byTitle(notes, 'Routes now')
    expect(now.reasons.join('\n')).not.toContain('the note counts')
  })

  it("flags a table row's folder member deleted since", () => {
    const n = byTitle(notes, 'Import')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain('`ImportBooksService` was in `Import/`')
  })

  it('flags a console command whose name left the code, not one still there', () => {
    const n = byTitle(notes, 'Commands')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain('`app:import-books` was in `backend/src/Command/ImportBooksCommand.php`')
    expect(byTitle(notes, 'Scan').verdict).not.toBe('stale')
  })

  it('flags a module the code imported then and imports nowhere now', () => {
    const n = byTitle(notes, 'Database')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain('`sql.js` was in `backend/db/database.js`')
    expect(text).not.toContain('is a name in prose')
  })

  it('flags an endpoint whose route left the controller, not one still there', () => {
    const n = byTitle(notes, 'Adjust')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain('`adjust-balance` was in `backend/src/accounts/accounts.controller.ts`')
    expect(byTitle(notes, 'Balance').verdict).not.toBe('stale')
  })

  it("reads a deploy setting's value as no dependency", () => {
    const n = byTitle(notes, 'Areas')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
  })
})
