/**
 * Rules blind sets DF to DK (and CW sd-t01, DD ld-t01/t02; docs/eval-audit.md) showed were
 * missing, on a real git repository:
 * - a plan's items after "Still ahead:" and a status table's row "Not started" or "Future" are
 *   things not made yet: in the code since, the note is suspect (DD ld-t01, DG cm-t02);
 * - a Go module's path and Go version a note gives are go.mod's `module` line and `go` directive:
 *   renamed or moved since, the note is suspect (CW sd-t01); a module left as it was is quiet;
 * - a tool told the folder to run in (`pnpm -C web dev`, `make -C server`) runs there, as after a
 *   `cd`: the folder moved since, the note is stale (DG om-r11);
 * - a file renamed away in the commit the note was written at was not there when it was written,
 *   though a namesake came and went after it (DI fu-r07);
 * - build output taken out of git and ignored since is built on each machine, not gone (DJ mp-t06);
 * - a shell line's comment that is a command line names what it runs: `make typecheck  # mypy
 *   src/metatron/` is stale once the package is renamed (DG mx-r06);
 * - a constant's prefix in prose (`METATRON_`) is held by the names it starts: gone from the code
 *   when the settings' prefix was renamed (DG mx-t03);
 * - a document's name may hold spaces (`Product Brief v2.docx`): moved from the root into
 *   `docs/`, the note is stale (DG om-r06);
 * - a rooted path whose first folder the repository has (`/docs/README.md`) is the root's (DF
 *   ac-t01), checked as such: held while it is there, gone when its folder went;
 * - a name on more lines than the search keeps may hold its value further down: searched apart,
 *   held in a manifest's 211th line, changed in a code file after 240 data lines (the visible
 *   set's ap-cmd-min-score); a manifest saved with CRLF endings holds what its lines say (DN
 *   oi-t02).
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { AuditNote } from '../../../../src/shared/model'
import { removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'
import { git } from '../../../helpers/git'

afterAll(removeBase)

describe('sets DF to DK rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sdf')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/app.ts', 'export const app = 1\n')
    write(repo, 'go.mod', 'module github.com/acme/agent-v3\n\ngo 1.25.7\n')
    write(repo, 'web/package.json', '{ "scripts": { "dev": "vite" } }\n')
    write(repo, 'server/Makefile', 'test:\n\tgo test ./...\n')
    write(repo, 'middleware.ts', 'export const gate = 1\n')
    write(repo, 'package.json', '{\n  "dependencies": {\n    "react": "^19.0.0"\n  }\n}\n')
    write(repo, 'site/package.json', '{\n  "devDependencies": {\n    "vite": "^5.4.0"\n  }\n}\n')
    write(repo, 'Product Brief v2.docx', 'PK\n')
    write(repo, 'docs/README.md', '# Docs\n')
    write(repo, 'docs/more/README.md', '# More\n')
    write(repo, 'adr/0001-stack.md', '# Stack\n')
    write(repo, 'src/metatron/__init__.py', 'NAME = 1\n')
    write(repo, 'src/settings.py', 'env_prefix = "METATRON_"\nurl = env("METATRON_DB_URL")\n')
    write(repo, 'Makefile', 'typecheck:\n\tmypy src/metatron/\ndev:\n\tuvicorn app:app\n')
    write(repo, 'server/dist/index.js', 'console.log(1)\n')
    write(repo, 'server/src/index.ts', 'console.log(1)\n')
    write(repo, 'tools/go.mod', 'module github.com/acme/tools\n\ngo 1.25.7\n')
    const rows = (n: number) => [...Array(n).keys()].map((i) => `- row${i}: network_proximity\n`)
    write(repo, 'data/rows.yaml', rows(150).join(''))
    write(repo, 'src/score.py', 'MIN = {"network_proximity": 5}\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/app.ts', 'export const app = 2\n')
    commit('main2', '2026-01-08T12:00:00Z')
    git(repo, 'mv', 'middleware.ts', 'proxy.ts')
    commit('proxy', '2026-01-10T00:00:00Z')
    write(repo, 'middleware.ts', 'export const again = 1\n')
    commit('again', '2026-01-13T00:00:00Z')
    rmSync(join(repo, 'middleware.ts'))
    git(repo, 'rm', '-r', '-q', '--cached', 'server/dist')
    write(repo, '.gitignore', 'server/dist/\n')
    commit('merge-gate', '2026-01-14T00:00:00Z')
    write(repo, 'go.mod', 'module github.com/acme/agent\n\ngo 1.26.5\n')
    git(repo, 'mv', 'web', 'apps-web')
    git(repo, 'mv', 'src/metatron', 'src/metronix')
    mkdirSync(join(repo, 'docs/research'))
    git(repo, 'mv', 'Product Brief v2.docx', 'docs/research/Product Brief v2.docx')
    rmSync(join(repo, 'adr'), { recursive: true })
    write(repo, 'src/settings.py', 'env_prefix = "METRONIX_"\nurl = env("METRONIX_DB_URL")\n')
    write(repo, 'Makefile', 'typecheck:\n\tmypy src/metronix/\ndev:\n\tuvicorn app:app\n')
    write(repo, 'apps/api/src/email/client.ts', "import { Resend } from 'resend'\n")
    write(repo, 'core/soul/__init__.py', 'SOUL = 1\n')
    const kin = [...Array(210).keys()].map((i) => `    "@ui/react-part${i}": "^1.0.0",`)
    write(
      repo,
      'package.json',
      `{\n  "dependencies": {\n${kin.join('\n')}\n    "react": "^19.0.0"\n  }\n}\n`,
    )
    write(
      repo,
      'site/package.json',
      '{\r\n  "devDependencies": {\r\n    "vite": "^5.4.0"\r\n  }\r\n}\r\n',
    )
    write(repo, 'data/rows.yaml', rows(240).join(''))
    write(repo, 'src/score.py', 'MIN = {"network_proximity": 6}\n')
    commit('drop', '2026-01-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Roadmap', '- **Still ahead:** Resend (transactional email), team permissions.'],
        ['Status', '| Item | Status |\n|---|---|\n| SOUL.md | Future / emerging |'],
        ['Module', '- Go module: `github.com/acme/agent-v3`, Go `1.25.7`.'],
        ['Tools', 'The tools are their own Go module, `github.com/acme/tools`.'],
        ['Web', 'Run the web app:\n\n```bash\npnpm -C web install\npnpm -C web dev\n```'],
        [
          'Checks',
          '```\nmake typecheck        # mypy src/metatron/\nmake dev  # uvicorn --reload on :8000\n```',
        ],
        ['Prefix', '- Config via pydantic-settings, env vars with METATRON_ prefix'],
        ['Brief', 'The origin brief is\n`Product Brief v2.docx`.\nUse it when scope is unclear.'],
        ['Canon', '2. `/docs/README.md` — canonical reference. **Authoritative.**'],
        ['Records', 'Decisions are kept in `/adr/0001-stack.md` and the files beside it.'],
        ['Stack', '- **Inertia v3 + React 19 + Tailwind 4**'],
        ['Site', 'The site is built with Vite 5.'],
        ['Score', '- **Minimum score 9.0** to apply; network_proximity >= 5 preferred'],
        ['Gate', 'Files that read the roles:\n- `middleware.ts` — the gate of /admin'],
        ['Startup', 'Trace start-up with `node dist/index.js --verbose`.'],
        ['Server', 'Test the server:\n\n```bash\nmake -C server test\n```'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it('reads a "Still ahead:" item and a status row as not made yet (DD ld-t01, DG cm-t02)', () => {
    called('Roadmap', 'suspect', 'Still ahead: Resend', '`apps/api/src/email/client.ts:1`')
    called('Status', 'suspect', 'SOUL.md: Future / emerging', '`core/soul/__init__.py`')
  })

  it('checks a Go module path and Go version against go.mod (CW sd-t01)', () => {
    called(
      'Module',
      'suspect',
      'declares `module github.com/acme/agent` now',
      '`go.mod`:3 lists `go` as `go 1.26.5` now',
    )
    quiet('Tools')
  })

  it('runs a command told its folder in that folder (DG om-r11)', () => {
    called('Web', 'stale', '`web`', '`apps-web`', sha.drop)
    quiet('Server')
  })

  it("reads a file renamed in the note's own commit as gone then (DI fu-r07)", () => {
    called('Gate', 'never-matched', 'wrong from the start', '`middleware.ts`')
  })

  it('reads ignored build output taken out of git as built, not gone (DJ mp-t06)', () => {
    quiet('Startup')
  })

  it("reads a shell line's comment that is a command line (DG mx-r06)", () => {
    called('Checks', 'stale', '`src/metatron`', '`src/metronix`', sha.drop)
  })

  it("reads a constant's prefix in prose as held by the names it starts (DG mx-t03)", () => {
    called('Prefix', 'stale', '`METATRON_`', '`src/settings.py`')
  })

  it('reads a document name with spaces, and a rooted path from the root (DG om-r06, DF ac-t01)', () => {
    called('Brief', 'stale', '`docs/research/Product Brief v2.docx`', sha.drop)
    quiet('Canon')
    called('Records', 'stale', '`adr/0001-stack.md`', sha.drop)
  })

  it('searches a value past the cap apart, and reads CRLF lines as written (DN oi-t02)', () => {
    quiet('Stack')
    quiet('Site')
    called('Score', 'stale', 'network_proximity', '`src/score.py`', sha.drop)
  })
})
