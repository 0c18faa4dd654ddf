/**
 * Rules blind sets CE to CG (docs/eval-audit.md) showed were missing, on a real git repository:
 * a capitalised product in prose (`Context7`) whose lower-case form (`context7`) the code still
 * holds where it held it when the note was written has not left the code, though its capitalised
 * spelling left every file that held it (set CE); a one-word module a quoted block imports from
 * (`from observability import tracer`) is the repository's root module when it had one (set CG); a
 * root file's bare name (`middleware.ts`) still names it after it moved into a folder (set CF); a
 * line whose Python hints were only modernised (`List[str]` to `list[str]`) is unchanged (set CG); a
 * program a shell block runs (`black .`) that a manifest listed then and none lists now is gone
 * (set CG); a pattern (`src/app/(tools)/[slug]/page.tsx`) whose fixed folder moved is gone (set
 * CF); a shell argument from the current folder (`./helm/app`) is a path however it ends (set
 * CG); a name only tests hold, in many of them (`find.byKey`), is widely used (set CF); a name removed on a branch before the note was
 * written, merged after it, changed after the note (set CF).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { git, gitAt } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'

afterAll(removeBase)

describe('set CE to CG rules on a real repository', () => {
  const { repo, mem, commit } = historyCase('scf')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, '.mcp.json', '{\n  "mcpServers": {\n    "context7": { "command": "npx" }\n  }\n}\n')
    write(
      repo,
      'config/policy.yaml',
      'tools:\n  audit: Context7 library docs lookup\n  lint: Stylo3 style check\n',
    )
    write(repo, 'observability.py', 'tracer = make_tracer("app")\nmeter = make_meter("app")\n')
    write(
      repo,
      'middleware.ts',
      'export function middleware(req: Request) {\n  return redirect(req)\n}\n',
    )
    write(repo, 'gateway.ts', 'export function gateway(req: Request) {\n  return forward(req)\n}\n')
    const fga = (list: string, dict: string): string =>
      `class Client:\n    async def write_tuples(self, tuples: ${list}[${dict}[str, str]]) -> None:\n        await self.post(tuples)\n`
    write(repo, 'fga_client.py', fga('List', 'Dict'))
    const deps = (...d: string[]): string =>
      `[project]\nname = "app"\n\n[project.optional-dependencies]\ndev = [\n${d.map((x) => `    "${x}",\n`).join('')}]\n`
    write(repo, 'pyproject.toml', deps('black>=24.1.1', 'ruff>=0.4'))
    const page = 'export default function Page() {\n  return null\n}\n'
    write(repo, 'src/app/(tools)/loan/page.tsx', page)
    write(repo, 'src/features/loan/index.ts', 'export {}\n')
    const tap = (key: string): string => `void main() {\n  tester.tap(find.byKey(${key}));\n}\n`
    write(repo, 'helm/app/Chart.yaml', 'name: app\n')
    write(repo, 'deploy/chart/Chart.yaml', 'name: chart\n')
    for (const t of ['a', 'b', 'c', 'd', 'e']) write(repo, `test/${t}_test.dart`, tap(`${t}Key`))
    write(repo, 'product-spec.md', '# Spec\n\n## Chapter 3\n')
    write(repo, 'public/robots.txt', 'User-agent: *\n')
    commit('c1', '2026-01-01T12:00:00Z')
    rmSync(join(repo, 'product-spec.md'))
    write(repo, 'docs/product-spec.md', '# Spec\n\n## Chapter 3\n')
    rmSync(join(repo, 'public'), { recursive: true })
    write(repo, 'apps/web/public/robots.txt', 'User-agent: *\n')
    rmSync(join(repo, 'fga_client.py'))
    write(repo, 'pyproject.toml', deps('ruff>=0.4'))
    rmSync(join(repo, 'helm'), { recursive: true })
    write(
      repo,
      'test/a_test.dart',
      "void main() {\n  tester.enterText(find.text('Name'), 'x');\n}\n",
    )
    rmSync(join(repo, 'src/app/(tools)'), { recursive: true })
    write(repo, 'src/app/(main)/(tools)/loan/page.tsx', page)
    write(
      repo,
      'pkg/auth/fga.py',
      `import logging\n\nlog = logging.getLogger()\n\n\n${fga('list', 'dict')}`,
    )
    for (const f of ['middleware.ts', 'gateway.ts']) rmSync(join(repo, f))
    write(
      repo,
      'src/middleware.ts',
      'export function middleware(req: Request) {\n  return redirect(req)\n}\n',
    )
    write(
      repo,
      'src/edge.ts',
      'export function gateway(req: Request) {\n  return forward(req)\n}\n',
    )
    rmSync(join(repo, 'observability.py'))
    write(repo, 'src/app/telemetry.py', 'tracer = make_tracer("app")\nmeter = make_meter("app")\n')
    write(repo, 'config/policy.yaml', 'tools:\n  audit: library docs lookup\n  lint: style check\n')
    write(repo, 'reports/plan.html', '<p>Context7 and Stylo3 were reviewed.</p>\n')
    // The lower-case form arriving only now, in a new file, is not the product staying.
    write(repo, 'src/lint.ts', "export const linter = 'stylo3'\n")
    commit('change', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Docs lookup', 'Look up library docs with Context7 before guessing an API.'],
        ['Style', 'Style checks run through Stylo3 before each commit.'],
        [
          'Tracing',
          '```python\nfrom observability import tracer\n\nwith tracer.span("op"):\n    work()\n```',
        ],
        ['Middleware', 'The project uses `middleware.ts` for locale redirects.'],
        ['Gateway', 'Requests pass through `gateway.ts` first.'],
        ['Spec', '- **Product spec:** `product-spec.md` (chapter 3 above all)'],
        ['Static', 'Static files are served from `public/` at the root.'],
        ['Tuples', 'Relations are written with `write_tuples` on the client.'],
        ['Format', '```bash\nblack . --line-length=100\n```'],
        ['Lint', '```bash\nuv run ruff check .\n```'],
        ['Route', 'Create the route at `src/app/(tools)/[slug]/page.tsx` with its metadata.'],
        ['Feature', 'Each feature lives in `src/features/[name]/` with a barrel file.'],
        ['Finders', '3. Use `find.byKey` with predefined keys from utils'],
        ['Finder a', '`a_test` finds its button with `find.byKey`.'],
        ['Helm', '```bash\nhelm install app ./helm/app \\\n  --namespace app\n```'],
        ['Chart', '```bash\nhelm upgrade chart ./deploy/chart\n```'],
        ['Json', '```python\nfrom json import loads\n\ndata = loads(text)\n```'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it('reads a product the code still holds in lower case as staying (CE)', () => {
    quiet('Docs lookup')
    // Its capitalised spelling left the code, and no lower-case form held then stays: suspect.
    called('Style', 'suspect', '`Stylo3` left every code file')
  })

  it("reads a root file's bare name as the file wherever it moved under that name (CF)", () => {
    called('Middleware', 'fresh')
    // Renamed as it moved: the name the note gives is gone.
    called('Gateway', 'stale', '`gateway.ts` was renamed to `src/edge.ts`')
    // A root page moved into `docs/` is not where the note sends its reader (blind set BQ).
    called('Spec', 'stale', '`product-spec.md` was renamed to `docs/product-spec.md`')
    // Nor a root folder's (blind set BM: `public/` moved under `apps/web/`).
    called('Static', 'stale', '`public` was renamed to `apps/web/public`')
  })

  it('reads a line whose Python hints were only modernised as the same line (CG)', () => {
    called('Tuples', 'fresh')
  })

  it('reads a program a shell block runs as gone when no manifest lists it now (CG)', () => {
    called('Format', 'stale', '`black` was a dependency')
    quiet('Lint')
  })

  it('reads a pattern whose fixed folder moved as gone (CF)', () => {
    called('Route', 'stale', '`src/app/(tools)` was renamed')
    // Its fixed folder still there: a pattern, not checked.
    called('Feature', 'unverifiable')
  })

  it('reads a name many tests hold, and only tests, as widely used (CF)', () => {
    quiet('Finders')
    // Unless the note names the test whose line it lost (the visible set: `skipIf` of `col.test`).
    called('Finder a', 'suspect', '`byKey`')
  })

  it('reads a shell argument from the current folder as a path however it ends (CG)', () => {
    called('Helm', 'stale', '`helm/app` was deleted')
    called('Chart', 'fresh')
  })

  it("reads a one-word module a block imports from as the repository's root module (CG)", () => {
    called('Tracing', 'stale', '`observability.py` was renamed')
    // A module the repository never had is another package's.
    expect(byTitle(notes, 'Json').reasons.join('\n')).not.toContain('json.py')
  })
})

describe('a change merged after the note on a real repository', () => {
  const { repo, mem, commit } = historyCase('scf-merge')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'lib/home_cubit.dart', 'class HomeCubit {\n  void toggle() {}\n}\n')
    write(repo, 'lib/chat_cubit.dart', 'class ChatCubit {}\n')
    write(repo, 'lib/profile.dart', 'class ProfileCubit {}\nfinal profile = ProfileCubit();\n')
    write(repo, 'lib/app.dart', 'final home = HomeCubit();\nfinal chat = ChatCubit();\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // A branch removes the class on 5 January; the note is written on main on the 10th, before
    // the branch is merged on the 20th.
    git(repo, 'checkout', '-q', '-b', 'cleanup')
    rmSync(join(repo, 'lib/home_cubit.dart'))
    write(repo, 'lib/app.dart', 'final chat = ChatCubit();\n')
    // Only a comment keeps this one's name.
    write(repo, 'lib/profile.dart', '// final profile = ProfileCubit(); // removed\n')
    commit('removed', '2026-01-05T12:00:00Z')
    git(repo, 'checkout', '-q', 'main')
    write(repo, 'README.md', '# App\n')
    commit('docs', '2026-01-10T11:00:00Z')
    gitAt('2026-01-20T12:00:00Z', repo, 'merge', '-q', '--no-ff', '-m', 'merge cleanup', 'cleanup')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Cubits', '- Main cubits: `ChatCubit` (chat), `HomeCubit` (home screen state)'],
        ['Profile', '- `ProfileCubit` keeps the profile screen state'],
      ],
      '2026-01-10T12:00:00Z',
    )
  }, 120_000)

  it('dates the loss by the merge that brought it to the note (CF)', () => {
    const n = byTitle(notes, 'Cubits')
    const why = n.reasons.join('\n')
    expect(['stale', 'suspect'], why).toContain(n.verdict)
    expect(why).toContain('`HomeCubit`')
    const merge = git(repo, 'rev-parse', '--short=7', 'HEAD').trim()
    expect(why).toContain(merge)
    // A name only a comment keeps lost its code lines with the merge too.
    const p = byTitle(notes, 'Profile')
    expect(p.verdict, p.reasons.join('\n')).toBe('suspect')
    expect(p.reasons.join('\n')).toContain(`\`ProfileCubit\` changed in ${merge}`)
  })
})
