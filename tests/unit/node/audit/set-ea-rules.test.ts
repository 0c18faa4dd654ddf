/**
 * Rules blind sets EA to EF (docs/eval-audit.md) and their forerunners showed were missing, on a
 * real git repository:
 * - `make server-build` runs through a `server-%` pattern rule: the rule removed since, the note
 *   is stale (DY pm-t01); a pattern rule that stays keeps its targets;
 * - `go test ./examples/website/` names the package's folder, deleted since (EB gf-t04);
 * - `dist/Game/.../gamedata.json` names `dist/Game`, deleted since (EC cs-t06);
 * - "`src/lib/api.ts` (~100 lines)": the file has 250 now, the note needs a look (EA co-t02); a
 *   limit ("under 100 lines") is no count;
 * - "the live spec is `core-v1.1.md`" once `core-v1.2.md` came: suspect (EF am-r02); a note
 *   naming an older version beside a newer one it already had says nothing;
 * - `run_tests.py ... [-fixheader]`, an option the script dropped since: suspect (EC cs-r08);
 * - `pytest --ignore=tests/test_regime.py` names the test file, deleted since (ED nq-t04);
 * - "No test framework is configured", a `test` script added since: suspect (EA co-t01);
 * - `pip install "worker-sdk==0.1.0"`, the Dockerfile's pin bumped since (EA hx-t01);
 * - a message quoted by its start (`[hub] hook server listening on 127.0.0.1:...`) that no code
 *   prints now (EF th-t01); one still printed holds.
 */
import { appendFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'

afterAll(removeBase)

describe('sets EA to EF rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sea')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'Makefile',
      'server-%:\n\t$(MAKE) -C server $*\n\ndocker-%:\n\tdocker compose $*\n\nbuild:\n\tgo build ./...\n',
    )
    write(repo, 'server/Makefile', 'build:\n\tgo build\nlint:\n\tgo vet\n')
    write(repo, 'main.go', 'package main\n\nfunc main() {}\n')
    write(repo, 'examples/website/main_test.go', 'package website\n')
    write(repo, 'dist/Game/gamedata/gamedata.json', '{}\n')
    const calls = (from: number, n: number): string =>
      Array.from(
        { length: n },
        (_, i) => `export const call${from + i} = () => ${from + i}\n`,
      ).join('')
    write(repo, 'src/lib/api.ts', calls(0, 100))
    write(repo, 'docs/specs/core-v1.1.md', '# Core 1.1\n')
    write(repo, 'docs/specs/old-v1.md', '# Old 1\n')
    write(repo, 'docs/specs/old-v2.md', '# Old 2\n')
    const args = (...o: string[]): string =>
      `import argparse\np = argparse.ArgumentParser()\n${o.map((x) => `p.add_argument("${x}")\n`).join('')}`
    write(repo, 'scripts/run_tests.py', args('-gamever', '-fixheader'))
    write(repo, 'tests/test_regime.py', 'def test_regime():\n    assert True\n')
    write(repo, 'package.json', '{\n  "name": "site"\n}\n')
    write(repo, 'worker/Dockerfile', 'FROM python:3.12\nRUN pip install "worker-sdk==0.1.0"\n')
    const hub = (listen: string): string =>
      `console.log(\`${listen}\${port}\`)\nconsole.log('[hub] window ready in ' + ms)\n`
    write(repo, 'hub/main.js', hub('[hub] hook server listening on 127.0.0.1:'))
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'Makefile', 'docker-%:\n\tdocker compose $*\n\nbuild:\n\tgo build ./...\n')
    rmSync(join(repo, 'examples'), { recursive: true })
    rmSync(join(repo, 'dist'), { recursive: true })
    appendFileSync(join(repo, 'src/lib/api.ts'), calls(100, 150))
    write(repo, 'docs/specs/core-v1.2.md', '# Core 1.2\n')
    write(repo, 'docs/specs/old-v3.md', '# Old 3\n')
    write(repo, 'scripts/run_tests.py', args('-gamever'))
    rmSync(join(repo, 'tests'), { recursive: true })
    write(
      repo,
      'package.json',
      '{\n  "name": "site",\n  "scripts": {\n    "test": "vitest"\n  }\n}\n',
    )
    write(repo, 'worker/Dockerfile', 'FROM python:3.12\nRUN pip install "worker-sdk==0.5.0"\n')
    write(repo, 'hub/main.js', hub('[hub] hooks ready on '))
    commit('drop', '2026-01-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Server build', '- `make server-build` builds the server; `make server-lint` vets it.'],
        ['Docker up', '- `make docker-up` starts the stack.'],
        ['Go test', '- Test the site end to end: `go test ./examples/website/ -run TestE2E`.'],
        ['Elided', '- Game: `dist/Game/.../gamedata.json`'],
        ['Api size', '- **`src/lib/api.ts`** (~100 lines) — every endpoint call.'],
        ['Api limit', '- Keep `src/lib/api.ts` under 100 lines.'],
        ['Spec', '- The live spec is `docs/specs/core-v1.1.md`.'],
        ['Old spec', '- The first spec was `docs/specs/old-v1.md`.'],
        ['Run tests', '```bash\nuv run scripts/run_tests.py -gamever <v> [-fixheader]\n```'],
        ['Run kept', '- `uv run scripts/run_tests.py -gamever 14`'],
        ['Ignore', '- `python -m pytest tests/ -q --ignore=tests/test_regime.py` passes.'],
        ['No tests', 'No test framework is configured.'],
        [
          'Smoke',
          'Wait for `[hub] hook server listening on 127.0.0.1:...` before calling it done.',
        ],
        ['Smoke kept', 'Wait for `[hub] window ready in ...` before taking screenshots.'],
        ['Pin', '- The worker installs the SDK from PyPI (`pip install "worker-sdk==0.1.0"`).'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it('reads a target a pattern rule makes as defined (DY pm-t01)', () => {
    called('Server build', 'stale', 'server-build', sha.drop)
    quiet('Docker up')
  })

  it('reads a Go package and an elided path as their folders (EB gf-t04, EC cs-t06)', () => {
    called('Go test', 'stale', 'examples/website', sha.drop)
    called('Elided', 'stale', 'dist/Game', sha.drop)
  })

  it("counts a file's lines where the note gives them, not a limit (EA co-t02)", () => {
    called('Api size', 'suspect', 'held 100 lines', '250 now')
    quiet('Api limit')
  })

  it('reads a newer version of a named file that came after the note (EF am-r02)', () => {
    called('Spec', 'suspect', 'docs/specs/core-v1.2.md', sha.drop.slice(0, 7))
    quiet('Old spec')
  })

  it('reads an option a named script dropped since (EC cs-r08)', () => {
    called('Run tests', 'suspect', '`-fixheader`', 'scripts/run_tests.py')
    quiet('Run kept')
  })

  it("reads a flag's file, a test framework said absent and a pinned package (ED nq-t04, EA co-t01, hx-t01)", () => {
    called('Ignore', 'stale', 'tests/test_regime.py', sha.drop.slice(0, 7))
    called('No tests', 'suspect', '`test`', sha.drop.slice(0, 7))
    called('Pin', 'stale', 'worker-sdk==0.1.0', sha.drop.slice(0, 7))
  })

  it('reads a message quoted by its start as text the code prints (EF th-t01)', () => {
    called('Smoke', 'stale', '[hub] hook server listening on 127.0.0.1:', sha.drop.slice(0, 7))
    quiet('Smoke kept')
  })
})
