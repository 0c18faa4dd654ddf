/**
 * Rules blind sets DN to DQ (docs/eval-audit.md) showed were missing, on a real git repository:
 * - a tool told its project by a flag (`dotnet run --project src/App.Server`) names that folder:
 *   the project deleted since, the note is stale (DP nm-r15);
 * - an MCP tool name (`mcp__tools-py__run_pylint_check`) names its server, a key of the project's
 *   `.mcp.json` (a test quoting the old name is no setting): renamed since, the note is stale; a server the repository never configured
 *   says nothing (DP mc-t03);
 * - ".NET 9.0" is the framework the projects target (`<TargetFramework>net9.0<…>`): moved to
 *   net10.0 since, the note is suspect (DP nm-t06);
 * - a clause naming a file made at run time (`LEARNINGS.md`) and a tracked one places its names in
 *   the tracked one: moved out of it since, the note is stale (DO an-t01);
 * - a former route ("`/settings` (was `/foundry`, `/tools`)") is no claim that it is served (DO
 *   qt-t05);
 * - a file the note calls generated is rewritten by its generator: no change to the note (DQ
 *   tg-t03), while the same file named plainly is suspect;
 * - a back-ticked Go module path a go.mod declared when the note was written, whose go.mod is gone
 *   and no other declares it: the module left, the note is suspect (DS nk-t01);
 * - a product named in prose is in use while one of its forms is listed (`vectorx` beside a dropped
 *   `vectorx-client`) or is the repository's own package ("the Acmelib library" in Acmelib's
 *   notes, a test's `acmelib-client` dropped) (DR gr-t01);
 * - a bold kebab-case name (`| **brief-summary** | … |`) that was an entry of an agent's skills,
 *   commands or agents folder when the note was written is that entry: deleted since, the note is
 *   stale (DS pa-t08, DN oi-r14); a bold name that never was one says nothing;
 * - a rooted path under a top folder the repository has (`/docs/tasks/backlog.md`) is the root's
 *   even when no such file ever was: never there, it is no stale claim, though a code line once
 *   quoted it (DN vr-t07).
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { AuditNote } from '../../../../src/shared/model'
import { removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'
import { git } from '../../../helpers/git'

afterAll(removeBase)

describe('sets DN to DQ rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('sdp')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/App.Server/Program.cs', 'class Program {}\n')
    write(repo, 'src/App.Api/Program.cs', 'class Api {}\n')
    const mcp = (key: string) =>
      `{\n  "mcpServers": {\n    "${key}": { "command": "uvx", "args": ["tools"] }\n  }\n}\n`
    write(repo, '.mcp.json', mcp('tools-py'))
    write(repo, 'docs/README.md', '# Docs\n')
    write(repo, 'cmd/main.go', 'package main\n\nconst backlog = "/docs/tasks/backlog.md"\n')
    const props = (tf: string) =>
      `<Project>\n  <PropertyGroup>\n    <TargetFramework>${tf}</TargetFramework>\n  </PropertyGroup>\n</Project>\n`
    write(repo, 'Directory.Build.props', props('net9.0'))
    write(repo, 'tools/Tool.csproj', props('net8.0'))
    write(
      repo,
      'src/server/chat-plugin.ts',
      'const FRAMEWORK_CORE = `rules`\nexport { FRAMEWORK_CORE }\n',
    )
    write(repo, 'src/routes.ts', "export const routes = ['/settings', '/tools']\n")
    const cy = (v: string) =>
      `export type DataCy =\n${[...Array(30).keys()].map((i) => `  | "${v}-${i}"`).join('\n')}\n`
    write(repo, 'e2e/support/dataCyType.d.ts', cy('old'))
    write(repo, 'cli/go.mod', 'module github.com/acme/app/cli\n\ngo 1.25.0\n')
    write(repo, 'cli/main.go', 'package main\n')
    write(repo, 'pyproject.toml', '[project]\nname = "acmelib"\ndependencies = ["vectorx>=1.0"]\n')
    write(
      repo,
      'test/requirements.txt',
      'acmelib-client==1.5.3\nvectorx-client==1.0\nredisx==5.0\n',
    )
    write(repo, '.claude/skills/brief-summary/SKILL.md', '# Brief summary\n')
    write(repo, '.claude/skills/keep-going/SKILL.md', '# Keep going\n')
    commit('c1', '2026-01-01T12:00:00Z')
    rmSync(join(repo, 'src/App.Server'), { recursive: true })
    write(repo, '.mcp.json', mcp('mcp-tools-py'))
    write(repo, 'cmd/main.go', 'package main\n')
    write(
      repo,
      'tests/test_events.py',
      'EVENTS = [("mcp__tools-py__run_ruff_check", "tools-py")]\n',
    )
    git(repo, 'add', '-A')
    write(repo, 'Directory.Build.props', props('net10.0'))
    write(repo, 'src/server/chat-plugin.ts', "export { FRAMEWORK } from './prompts'\n")
    write(
      repo,
      'src/server/prompts.ts',
      'const FRAMEWORK_CORE = `rules`\nexport const FRAMEWORK = 1\n',
    )
    write(repo, 'src/routes.ts', "export const routes = ['/settings']\n")
    write(repo, 'e2e/support/dataCyType.d.ts', cy('new'))
    rmSync(join(repo, 'cli'), { recursive: true })
    write(repo, 'test/requirements.txt', 'pytest==8.0\n')
    rmSync(join(repo, '.claude/skills/brief-summary'), { recursive: true })
    commit('drop', '2026-01-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Run', 'Run the server:\n\n```bash\ndotnet run --project src/App.Server --dev\n```'],
        ['Api', 'Run the API:\n\n```bash\ndotnet run --project=src/App.Api\n```'],
        [
          'Checks',
          'Checks:\n\n```\nmcp__tools-py__run_pylint_check\nmcp__tools-py__run_pytest_check\n```',
        ],
        ['Mail', 'Read mail with `mcp__claude_ai_Gmail__search_threads`.'],
        ['Stack', 'A media server built with .NET 9.0, with encoding and streaming.'],
        ['Tool', 'The tool targets .NET 8.'],
        [
          'Learnings',
          'The agent saves learnings to `LEARNINGS.md`. This is in the prompt in `chat-plugin.ts` (FRAMEWORK_CORE section).',
        ],
        ['Route', '- The settings: UI route `/settings` (was `/foundry`, `/tools`).'],
        [
          'Cy',
          "- All data-cy values are typed in `e2e/support/dataCyType.d.ts` (auto-generated, don't modify)",
        ],
        ['Cy types', '- The data-cy values are typed in `e2e/support/dataCyType.d.ts`.'],
        [
          'Cli',
          '- **App CLI** (`github.com/acme/app/cli`): sync companion; manages `.app/` projects.',
        ],
        ['Own', '- `src/` — Python source for the Acmelib library (backend)'],
        ['Vector', '- Search goes through Vectorx.'],
        ['Cache', '- Sessions are cached in Redisx.'],
        ['Skill', '| **brief-summary** | `summary` | appends a short summary |'],
        ['Skills kept', '| **keep-going** | — | resumes work |\n| **plain-words** | — | a style |'],
        ['Backlog', '- Process the first unstructured task in `/docs/tasks/backlog.md`'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it('reads the project a flag names as a folder (DP nm-r15)', () => {
    called('Run', 'stale', '`src/App.Server`', sha.drop)
    quiet('Api')
  })

  it("reads an MCP tool name's server in the project's .mcp.json (DP mc-t03)", () => {
    called('Checks', 'stale', 'tools-py', sha.drop, 'no `.mcp.json` key holds it now')
    quiet('Mail')
  })

  it("checks a .NET version against the projects' TargetFramework (DP nm-t06)", () => {
    called('Stack', 'suspect', '.NET 9.0', 'net10.0', '`Directory.Build.props`')
    quiet('Tool')
  })

  it('places a name in the file a clause names though another file of it is made at run time (DO an-t01)', () => {
    called('Learnings', 'stale', '`FRAMEWORK_CORE`', '`src/server/chat-plugin.ts`', sha.drop)
  })

  it('reads a former route as no claim (DO qt-t05)', () => {
    quiet('Route')
  })

  it('reads a generated file rewritten since as no change to the note (DQ tg-t03)', () => {
    quiet('Cy')
    called('Cy types', 'suspect', 'most of `e2e/support/dataCyType.d.ts` was rewritten')
  })

  it('reads a Go module path no go.mod declares now as gone (DS nk-t01)', () => {
    called('Cli', 'suspect', '`github.com/acme/app/cli`: no go.mod declares it now', '`cli/go.mod`')
  })

  it("keeps a product listed in another form, or the repository's own, in use (DR gr-t01)", () => {
    quiet('Own')
    quiet('Vector')
    called('Cache', 'stale', '`redisx` was a dependency', sha.drop)
  })

  it('reads a bold kebab-case name that was a skill as that skill (DS pa-t08, DN oi-r14)', () => {
    called('Skill', 'stale', '`brief-summary` was in `skills/`', sha.drop)
    quiet('Skills kept')
  })

  it('reads a rooted path under a top folder as the root path, never there (DN vr-t07)', () => {
    called('Backlog', 'never-matched', 'wrong from the start', '`/docs/tasks/backlog.md`')
  })
})
