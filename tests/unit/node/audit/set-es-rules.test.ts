/**
 * Rules blind sets ES to EX (docs/eval-audit.md) showed were missing, on a real git repository:
 * - `pushd 'tools/App.UnitTests'` in a shell block names that folder, quoted or not (EV ms-r05);
 * - `.AsRequired()` is a method called by its name (EV ms-r08);
 * - `IWorld` is an interface's name: a rewrite of its file that kept it says nothing (EV wc-r11);
 * - a URL line that now holds the URL as the note writes it came to the note (EW sd-r08);
 * - `pnpm vitest run …` runs the program a package depends on, no script of that name (EW sa-r11);
 * - a tree drawn from `root/` lists the root's entries (`plans/`, then `Plans/`), not folders
 *   ending so (ES ed-t04);
 * - "Docusaurus 3.9.x" gives the major and minor version (ET cv-t04: 3.10 since);
 * - "MUI v7" is the version of `@mui/material` (EX vj-t01: 9 since);
 * - a block showing a right and a wrong way is a style example (EX vj-r06: a component's name,
 *   dropped since, read as gone);
 * - `"aai": "dist/cli.mjs"`, a `bin` entry, is no dependency (EY ak-t06);
 * - `acme/<the repository's folder>` is the repository's address, not a command and its alias
 *   (EZ ah-r11: the package's own name renamed since);
 * - "Sju agenter under `knowledge/agents/<slug>/`" counts the pattern's fixed folder, in
 *   Swedish (ES fi-t01).
 */
import { renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'

afterAll(removeBase)

/** A file of `n` numbered lines, then the lines given. */
const lines = (n: number, ...extra: string[]): string =>
  [...extra, ...Array.from({ length: n }, (_, i) => `export const part${i} = ${i}`)].join('\n') +
  '\n'

describe('sets ES to EX rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('ses')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    const cli = (bin: string): string =>
      `{\n  "name": "@acme/cli",\n  "bin": {\n    "${bin}": "dist/cli.mjs"\n  }\n}\n`
    const pkg = (scripts: Record<string, string>, docusaurus = '^3.9.2'): string =>
      JSON.stringify(
        {
          name: 'app',
          scripts,
          dependencies: { '@docusaurus/core': docusaurus, '@mui/material': docusaurus },
          devDependencies: { vitest: '^3.0.0' },
        },
        null,
        2,
      )
    write(repo, 'tools/App/tests/App.UnitTests/CartTests.cs', 'class CartTests {}\n')
    write(
      repo,
      'core/Options/OptionExtensions.cs',
      'static class OptionExtensions {\n  public static Option AsRequired(this Option o) => o;\n  public static Option Named(this Option o) => o;\n}\n',
    )
    write(repo, 'src/world_api.ts', lines(24, 'export interface IWorld {}'))
    write(
      repo,
      '.env.template',
      'API_URL=http://localhost:8000/\nWS_URL=http://localhost:8000/ws/\n',
    )
    write(repo, 'package.json', pkg({ lint: 'eslint .' }))
    write(repo, 'src/cart.test.ts', 'export {}\n')
    write(repo, 'Plans/001-start.md', '# Start\n')
    write(repo, 'docs/archive/plans/000-old.md', '# Old\n')
    write(repo, 'apps/web/index.ts', 'export const web = 1\n')
    for (const a of ['brand', 'content', 'lead', 'seo', 'analytics', 'campaign', 'strategy'])
      write(repo, `knowledge/agents/${a}/agent.yaml`, `name: ${a}\n`)
    write(
      repo,
      'src/charts/Chart.tsx',
      'const CustomTooltip = ({ active }) => active\nexport const Chart = () => <Tooltip content={<CustomTooltip />} />\n',
    )
    write(repo, 'packages/cli/package.json', cli('aai'))
    write(repo, 'pyproject.toml', '[project]\nname = "ses-repo"\nversion = "0.1.0"\n')
    for (const m of ['auth', 'billing', 'search'])
      write(repo, `lib/mods/${m}/index.ts`, `export const ${m} = 1\n`)
    commit('c1', '2026-01-01T12:00:00Z')
    renameSync(join(repo, 'tools/App/tests/App.UnitTests'), join(repo, 'tools/App/tests/App.Tests'))
    write(
      repo,
      'core/Options/OptionExtensions.cs',
      'static class OptionExtensions {\n  public static Option Named(this Option o) => o;\n}\n',
    )
    write(
      repo,
      'src/world_api.ts',
      lines(
        0,
        'export interface IWorld extends IWorldCombat, IWorldLoot {}',
        "export * from './world_api/combat'",
      ),
    )
    write(
      repo,
      '.env.template',
      'API_URL=http://localhost:8000/graphql/\nWS_URL=http://localhost:8100/ws/\n',
    )
    write(repo, 'package.json', pkg({ test: 'vitest run' }, '^3.10.2'))
    rmSync(join(repo, 'Plans'), { recursive: true })
    write(repo, 'docs/plans/001-start.md', '# Start\n')
    write(repo, 'knowledge/agents/intelligence/agent.yaml', 'name: intelligence\n')
    write(repo, 'packages/cli/package.json', cli('aai-cli'))
    write(repo, 'pyproject.toml', '[project]\nname = "harness"\nversion = "0.2.0"\n')
    write(repo, 'src/charts/Chart.tsx', 'export const Chart = () => <Tooltip />\n')
    write(repo, 'lib/mods/search/index.ts', 'export const search = 2\n')
    commit('drop', '2026-01-20T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Pushd',
          '```powershell\n# Run tests from one folder\npushd \'tools/App/tests/App.UnitTests\'\ndotnet test --filter "FullyQualifiedName~CartTests"\npopd\n```',
        ],
        ['Required', '- Use the extension methods `.AsRequired()` for required options'],
        ['Named', '- Use the extension method `.Named()` to name options'],
        ['World', '| `src/world_api.ts` | `IWorld` — the seam render and ui depend on |'],
        ['Url', '- Default backend URL: http://localhost:8000/graphql/'],
        ['Socket', '- Sockets connect to http://localhost:8000/ws/'],
        ['Vitest', '```bash\npnpm vitest run src/cart.test.ts\n```'],
        ['Lint', '```bash\npnpm lint\n```'],
        [
          'Tree',
          '```\nroot/\n├── apps/\n│   └── web/          # Next.js\n├── plans/            # Implementation plans\n└── package.json\n```',
        ],
        ['Agents', '- Sju agenter under `knowledge/agents/<slug>/`. Varje har `agent.yaml`.'],
        ['Mods', '- Tre moduler under `lib/mods/<name>/`, en mapp var.'],
        [
          'Style',
          '```tsx\n// ✅ Correct — module scope\nconst CustomTooltip = ({ active }) => active\nexport const Chart = () => <Tooltip content={<CustomTooltip />} />\n\n// ❌ Wrong — a component inside a component\nexport const Chart = () => {\n  const CustomTooltip = () => null\n  return <Tooltip content={<CustomTooltip />} />\n}\n```',
        ],
        [
          'Quoted',
          '```tsx\nconst CustomTooltip = ({ active }) => active\nexport const Chart = () => <Tooltip content={<CustomTooltip />} />\n```',
        ],
        ['Taken', '- The unscoped names `aai`, `aai-ui` are taken on npm by other publishers.'],
        ['Repo', '- **Repo:** `acme/ses-repo` · License MIT.'],
        ['Docusaurus', '- Docusaurus 3.9.x (always keep the latest stable)'],
        ['Docusaurus major', '- Docusaurus 3.x for the site'],
        ['Mui', '- This project uses MUI v3.9 where Grid v2 is the default.'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it("reads `pushd 'folder'` as the folder it names (EV ms-r05)", () => {
    called('Pushd', 'stale', 'App.UnitTests', 'App.Tests', sha.drop)
  })

  it('reads `.Name()` as a method called by its name (EV ms-r08)', () => {
    called('Required', 'stale', 'AsRequired')
    quiet('Named')
  })

  it("reads `IWorld` as an interface's name its rewritten file kept (EV wc-r11)", () => {
    quiet('World')
  })

  it('says nothing of a URL line that came to the URL the note writes (EW sd-r08)', () => {
    quiet('Url')
    called('Socket', 'suspect', 'http://localhost:8100/ws/')
  })

  it('reads `pnpm <program>` as the program a package depends on (EW sa-r11)', () => {
    quiet('Vitest')
    called('Lint', 'stale', 'lint')
  })

  it("reads a tree drawn from `root/` as the root's entries (ES ed-t04)", () => {
    called('Tree', 'stale', 'plans', sha.drop)
  })

  it('reads "3.9.x" as the major and minor version it gives (ET cv-t04)', () => {
    called('Docusaurus', 'suspect', '3.9.x', '^3.10.2')
    quiet('Docusaurus major')
  })

  it("reads MUI's version as `@mui/material`'s (EX vj-t01)", () => {
    called('Mui', 'suspect', 'MUI v3.9', '@mui/material')
  })

  it('reads a right and a wrong way side by side as an example (EX vj-r06)', () => {
    quiet('Style', true)
    called('Quoted', 'stale', 'CustomTooltip')
  })

  it("reads a package's `bin` entry as no dependency (EY ak-t06)", () => {
    quiet('Taken')
  })

  it("reads `owner/<the repository's name>` as the repository itself (EZ ah-r11)", () => {
    quiet('Repo')
  })

  it("counts a pattern's fixed folder, in Swedish (ES fi-t01)", () => {
    called('Agents', 'suspect', 'Sju', 'knowledge/agents', '7 entries')
    quiet('Mods')
  })
})
