/**
 * Rules blind sets CL and CM (docs/eval-audit.md) showed were missing, on a real git repository:
 * - a product a note names in prose ("Redis 7") stays while a manifest lists a package ending
 *   with its name (`ioredis`), though the one package named exactly after it (`redis`, in one
 *   Python service) was dropped. A package that only starts with the name
 *   (`next-rest-framework`) or a type stub (`@types/…`) vouches for nothing (CL hw-r12);
 * - a runtime's version the note gives ("Python 3.11", "Node 20") is the one a manifest pins by
 *   its own key (`requires-python`, `engines.node`), checked then and now (CM ox-t01).
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'

afterAll(removeBase)

const pyproject = (deps: string): string =>
  `[project]\nname = "ai"\nversion = "0.1.0"\ndependencies = [\n${deps}]\n`
const packageJson = (name: string, deps: Record<string, string>): string =>
  `${JSON.stringify({ name, version: '1.0.0', dependencies: deps }, null, 2)}\n`

describe('set CL and CM rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('scl')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'services/ai/pyproject.toml',
      pyproject('    "redis>=5.2.0",\n    "httpx>=0.27",\n'),
    )
    write(repo, 'services/ai/main.py', 'import redis\n\nclient = redis.Redis()\n')
    write(repo, 'packages/common/package.json', packageJson('common', { ioredis: '^5.4.2' }))
    write(
      repo,
      'packages/common/src/cache.ts',
      "import Redis from 'ioredis'\nexport const r = new Redis()\n",
    )
    write(
      repo,
      'packages/hub/package.json',
      packageJson('hub', { next: '15.5.9', 'next-rest-framework': '6.1.1' }),
    )
    write(
      repo,
      'packages/web/package.json',
      packageJson('web', { jest: '^30.0.0', '@types/jest': '^30.0.0' }),
    )
    write(repo, 'pyproject.toml', '[project]\nname = "backend"\nrequires-python = ">=3.11"\n')
    write(repo, 'cli/pyproject.toml', '[project]\nname = "cli"\nrequires-python = ">=3.9"\n')
    write(
      repo,
      'package.json',
      `${JSON.stringify({ name: 'root', engines: { node: '>=20' } }, null, 2)}\n`,
    )
    commit('c1', '2026-01-01T12:00:00Z')
    // The Python service drops its Redis client; the hub drops Next.js but keeps the plug-in;
    // the web app drops Jest but keeps its type stubs.
    write(repo, 'services/ai/pyproject.toml', pyproject('    "httpx>=0.27",\n'))
    write(repo, 'services/ai/main.py', 'import httpx\n')
    write(repo, 'packages/hub/package.json', packageJson('hub', { 'next-rest-framework': '6.1.1' }))
    write(repo, 'packages/web/package.json', packageJson('web', { '@types/jest': '^30.0.0' }))
    commit('drop', '2026-02-01T12:00:00Z')
    // The backend moves to Python 3.13; the CLI and the Node floor stay.
    write(repo, 'pyproject.toml', '[project]\nname = "backend"\nrequires-python = ">=3.13"\n')
    commit('py313', '2026-02-10T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Cache', '- **Cache/Events:** Redis 7 (key-prefix isolated: id:, mkt:, gb:)'],
        ['Hub', '- **Hub** serves pages with Next.js server components (Next).'],
        ['Tests', '- Unit tests run on Jest with the shared setup.'],
        ['Backend', '- **Backend**: Python 3.11, FastAPI, SQLAlchemy'],
        ['Runtime', '- Runtime baseline: Node 20+ and pnpm.'],
        ['Cli', '- The CLI keeps Python 3.9 support.'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it('reads a product a package ending with its name still holds as staying (CL hw-r12)', () => {
    quiet('Cache')
  })

  it('reads a product only a plug-in or a type stub still names as gone', () => {
    called('Hub', 'stale', '`next` was a dependency', `removed in ${sha.drop}`)
    called('Tests', 'stale', '`jest` was a dependency', `removed in ${sha.drop}`)
  })

  it("reads a runtime's version as the one a manifest pins by its own key (CM ox-t01)", () => {
    // Named from the manifest that held it, not the CLI's, which sorts first.
    called(
      'Backend',
      'suspect',
      '`pyproject.toml`:3 lists',
      '`requires-python = ">=3.13"`',
      '>=3.11',
    )
    quiet('Runtime')
    quiet('Cli')
  })
})
