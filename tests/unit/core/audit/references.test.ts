import { describe, expect, it } from 'vitest'
import { extractReferences } from '../../../../src/core/audit/references'
import { referenceKey } from '../../../../src/core/audit/reference'
import type { Reference } from '../../../../src/core/audit/reference'

const kinds = (text: string): [string, string][] =>
  extractReferences(text).map((r) => [r.kind, r.text])

describe('extractReferences', () => {
  it('finds paths with and without back-ticks, with a :line anchor, and never URLs as paths', () => {
    expect(
      extractReferences('Totals live in src/billing/total.ts:42 — see https://example.com/a.ts.'),
    ).toEqual<Reference[]>([
      {
        kind: 'path',
        text: 'src/billing/total.ts:42',
        path: 'src/billing/total.ts',
        line: 42,
        dir: false,
      },
      { kind: 'url', text: 'https://example.com/a.ts', url: 'https://example.com/a.ts' },
    ])
    expect(extractReferences('Config is in `./config/app.yaml` and `.claude/rules/`.')).toEqual<
      Reference[]
    >([
      { kind: 'path', text: './config/app.yaml', path: 'config/app.yaml', line: null, dir: false },
      { kind: 'path', text: '.claude/rules/', path: '.claude/rules', line: null, dir: true },
    ])
    expect(kinds('Edit package.json, README.md and the Makefile; `.env` holds secrets.')).toEqual([
      ['path', 'package.json'],
      ['path', 'README.md'],
      ['path', 'Makefile'],
      ['path', '.env'],
    ])
  })

  it('reads an import in prose as the file after its `@`, a scoped package as before (set CQ)', () => {
    expect(extractReferences('See @.cursor/commands.md for quick test commands.')).toEqual<
      Reference[]
    >([
      {
        kind: 'path',
        text: '@.cursor/commands.md',
        path: '.cursor/commands.md',
        line: null,
        dir: false,
      },
    ])
    expect(kinds('Read @docs/arch.md:12 first; the UI uses @acme/types.')).toEqual([
      ['path', '@docs/arch.md:12'],
    ])
  })

  it('keeps spaces and unicode inside back-ticked paths', () => {
    expect(kinds('The guide is `docs/my guide/ünï code.md`.')).toEqual([
      ['path', 'docs/my guide/ünï code.md'],
    ])
  })

  it("reads Zig's manifest as a file, not a dotted name (blind set P)", () => {
    expect(kinds('zuda v1.15.0 is declared in `build.zig.zon`.')).toEqual([
      ['path', 'build.zig.zon'],
    ])
  })

  it('does not read prose as paths', () => {
    // Lower-case words with a slash are only maybe paths: the audit keeps them when the
    // repository had them at the note (judge-notes.ts `pathThen`), so `and/or` names nothing.
    const slashed = extractReferences('Use and/or client/server, TCP/IP, Node.js and e.g. 3.5.')
    expect(slashed.map((r) => [r.text, r.kind === 'path' && r.maybe])).toEqual([
      ['and/or', true],
      ['client/server', true],
    ])
    expect(kinds('Mail me@host.io about v2.1.63.')).toEqual([])
    // File kinds, one or the other (blind set DS za-r11), and MCP tool names (set DP mc-t03).
    expect(kinds('All `.js/.ts` code is in `./src`')).toEqual([['command', './src']])
    expect(kinds('Read with `mcp__workspace__read_file()`.')).toEqual([])
    // A logging call, not a log file the repository ignores (blind set DU cq-t05).
    expect(
      kinds('Use `console.log` in production code (all removed)').map((k) => k[0]),
    ).not.toContain('path')
    // A path alias names the folder after its `@`, if the repository had it (blind set CW hp-r08).
    expect(extractReferences('Store app pages in @sources/app/(app)/ only.')).toEqual([
      {
        kind: 'path',
        text: '@sources/app/',
        path: 'sources/app',
        line: null,
        dir: true,
        maybe: true,
      },
    ])
    // A `cd` alone on a shell block's line holds for its later lines; a script run there is
    // that folder's, if the repository had it (blind set DB ro-r11).
    const block =
      '```bash\ncd rodski-web\npip install flask\npython src/app.py  # :5002\ncd\npython x/y.py\n```'
    expect(
      extractReferences(block).map((r) => [r.kind, r.kind === 'path' ? r.path : r.text]),
    ).toEqual([
      ['path', 'rodski-web'],
      ['path', 'rodski-web/src/app.py'],
      ['command', 'python x/y.py'],
    ])
    // The checkout a `git clone` made is the repository itself (blind set DA ic-r12).
    for (const clone of [
      '```bash\ngit clone https://github.com/o/Kit.git\ncd Kit\n./install.sh\n```',
      '```bash\ngit clone https://github.com/o/Kit.git && cd Kit && ./install.sh\n```',
    ])
      expect(extractReferences(clone).filter((r) => r.kind === 'command')).toMatchObject([
        { runner: 'file', target: 'install.sh' },
      ])
    // A rate is no path (blind set CV zy-r02: `steps/day`, read as a name and its alias).
    expect(kinds('Aim for 100 push-ups/day, 10,000 steps/day and 40 tokens/sec.')).toEqual([])
    // A path with `<name>` placeholders is a pattern (blind set CV as-r04).
    expect(extractReferences('Copy `plugins/<name>/skills/<name>/` over.')).toEqual([
      {
        kind: 'path',
        text: 'plugins/<name>/skills/<name>/',
        path: 'plugins/<name>/skills/<name>',
        line: null,
        dir: true,
        pattern: true,
      },
    ])
    expect(kinds('The file `~/.claude/projects/<p>/memory/MEMORY.md` is per project.')).toEqual([])
    expect(kinds('Install `@types/node` first.')).toEqual([])
  })

  it('finds symbols: calls, Class.method, snake_case, camelCase in back-ticks', () => {
    expect(
      extractReferences(
        'Call computeTotal() or `Cart.addItem`; `snake_case_name` and `parseLine` too.',
      ),
    ).toEqual<Reference[]>([
      { kind: 'symbol', text: 'computeTotal()', name: 'computeTotal', terms: ['computeTotal'] },
      { kind: 'symbol', text: 'Cart.addItem', name: 'Cart.addItem', terms: ['Cart', 'addItem'] },
      {
        kind: 'symbol',
        text: 'snake_case_name',
        name: 'snake_case_name',
        terms: ['snake_case_name'],
      },
      { kind: 'symbol', text: 'parseLine', name: 'parseLine', terms: ['parseLine'] },
    ])
    expect(kinds('Set `CLAUDE_CODE_DISABLE_AUTO_MEMORY=1` to turn it off.')).toEqual([
      ['symbol', 'CLAUDE_CODE_DISABLE_AUTO_MEMORY=1'],
    ])
  })

  it('never turns plain English words into symbols', () => {
    expect(
      kinds('The JavaScript team uses GitHub and macOS; `db` and `Session` are names.'),
    ).toEqual([])
  })

  it('finds commands in code, and only package-manager commands in prose', () => {
    expect(
      extractReferences(
        'Run `npm run build` then npm test; `make deploy` and `./scripts/release.sh --dry`.',
      ),
    ).toEqual<Reference[]>([
      { kind: 'command', text: 'npm run build', runner: 'npm', target: 'build' },
      { kind: 'command', text: 'npm test', runner: 'npm', target: 'test' },
      { kind: 'command', text: 'make deploy', runner: 'make', target: 'deploy' },
      {
        kind: 'command',
        text: './scripts/release.sh',
        runner: 'file',
        target: 'scripts/release.sh',
      },
    ])
    expect(kinds('Make sure to use npm to install things; pnpm for everything.')).toEqual([])
    expect(kinds('Use `pnpm test:unit`, `yarn build`, `pnpm install` and `npm ci`.')).toEqual([
      ['command', 'pnpm test:unit'],
      ['command', 'yarn build'],
    ])
    expect(kinds('pnpm lint and yarn run e2e:ci are run by CI.')).toEqual([
      ['command', 'pnpm lint'],
      ['command', 'yarn run e2e:ci'],
    ])
  })

  it('reads shell blocks as commands and other blocks as quoted code', () => {
    const text = [
      'Build:',
      '',
      '```bash',
      '$ npm run lint && make test # both',
      'bash scripts/check.sh',
      '```',
      '',
      '```ts',
      'const x = computeTotal(a, b)',
      '```',
    ].join('\n')
    expect(extractReferences(text)).toEqual<Reference[]>([
      { kind: 'command', text: 'npm run lint', runner: 'npm', target: 'lint' },
      { kind: 'command', text: 'make test', runner: 'make', target: 'test' },
      {
        kind: 'command',
        text: 'bash scripts/check.sh',
        runner: 'file',
        target: 'scripts/check.sh',
      },
      {
        kind: 'snippet',
        text: 'const x = computeTotal(a, b)',
        code: 'const x = computeTotal(a, b)',
        fenced: true,
      },
    ])
  })

  it('takes code-like spans as snippets and shortens long ones', () => {
    expect(kinds('Keep `const RETRY_LIMIT = 3;` and `if (a) { b() }` but not `--bare`.')).toEqual([
      ['snippet', 'const RETRY_LIMIT = 3;'],
      ['snippet', 'if (a) { b() }'],
    ])
    const long = Array.from({ length: 12 }, (_, i) => `line${i} = ${i}`).join('\n')
    const [ref] = extractReferences(`\`\`\`py\n${long}\n\`\`\``)
    expect(ref).toEqual({
      kind: 'snippet',
      text: 'line0 = 0 … (12 lines)',
      code: long,
      fenced: true,
    })
  })

  it('reads fences of any length without building a pattern from them', () => {
    // A 100,000-backtick fence: a RegExp built from its length (`{100000,}`) made V8's
    // regexp compiler run out of memory in CI. Closing needs a run at least as long.
    const fence = '`'.repeat(100_000)
    const text = `${fence}ts\nconst x = computeTotal(a, b)\n\`\`\`\n${fence}\nafter()\n`
    const refs = extractReferences(text)
    // The short run inside is body text, not a close; after the long run, prose resumes.
    expect(refs.map((r) => r.kind)).toEqual(['snippet', 'symbol'])
    expect(refs[0]).toMatchObject({ code: 'const x = computeTotal(a, b)\n```', fenced: true })
    expect(refs[1]).toMatchObject({ text: 'after()', name: 'after' })
    // An opening line with a long info string and a stray backtick is no fence (CommonMark).
    expect(kinds('```' + 'a'.repeat(200_000) + '`')).toEqual([])
    // A tilde fence inside a list item still opens.
    expect(kinds('- ~~~py\n  value = compute_total(a)\n  ~~~')).toEqual([
      ['snippet', 'value = compute_total(a)'],
    ])
  })

  it('finds branch names only when the word branch introduces them', () => {
    expect(
      kinds(
        'Release from branch `release/2.x`; work on the `feature/login` branch; branch fix-123 too.',
      ),
    ).toEqual([
      ['branch', 'release/2.x'],
      ['branch', 'feature/login'],
      ['branch', 'fix-123'],
    ])
    expect(kinds('The branch is protected; we merge on main.')).toEqual([])
  })

  it('reads markdown links as URLs or paths', () => {
    expect(
      kinds(
        'See [the guide](docs/guide.md#setup) and [site](https://example.com/x) and [top](#top).',
      ),
    ).toEqual([
      ['path', 'docs/guide.md'],
      ['url', 'https://example.com/x'],
    ])
    // A space in a link's path is written `%20` (blind set S); a stray `%` stays as written.
    expect(
      kinds('In [`ACMP product context/`](ACMP%20product%20context/) and [x](a%zz.md).'),
    ).toEqual([
      ['path', 'ACMP product context/'],
      ['path', 'a%zz.md'],
    ])
  })

  it('dedupes and yields nothing for prose', () => {
    expect(kinds('`src/a.ts` and src/a.ts and `src/a.ts:3`; foo() and `foo()`.')).toEqual([
      ['path', 'src/a.ts'],
      ['symbol', 'foo()'],
    ])
    expect(
      extractReferences('The team prefers small pull requests. Reviews happen on Fridays.'),
    ).toEqual([])
    expect(extractReferences('')).toEqual([])
  })

  it('normalises a written path the one way (core/paths.ts), so spellings of one file are one', () => {
    expect(extractReferences('`src//cart.ts`, `src/./cart.ts` and `src/lib/../cart.ts`')).toEqual<
      Reference[]
    >([{ kind: 'path', text: 'src//cart.ts', path: 'src/cart.ts', line: null, dir: false }])
    expect(extractReferences('Run `./scripts/../tools/x.sh`.')).toEqual<Reference[]>([
      { kind: 'command', text: './scripts/../tools/x.sh', runner: 'file', target: 'tools/x.sh' },
    ])
  })

  it('reads placeholders as patterns, not paths or branches', () => {
    expect(kinds('Branch names: feature/<topic>, fix/<topic>.')).toEqual([])
    expect(kinds('Work on branch feature/<topic>; modules go in src/{area}/index.ts.')).toEqual([])
    expect(kinds('Handlers live in packages/api/… and src/... mirrors it.')).toEqual([])
    // A back-ticked path with `<name>` placeholders is a pattern (checked as a glob); a branch's
    // naming pattern names no files.
    expect(kinds('Use `feature/<topic>` and `src/<module>/index.ts`.')).toEqual([
      ['path', 'src/<module>/index.ts'],
    ])
    expect(extractReferences('Put it in `src/<module>/index.ts`.')[0]).toMatchObject({
      pattern: true,
    })
    expect(kinds('Pages are app/[slug]/page.tsx; see src/ too.')).toEqual([['path', 'src/']])
    // A placeholder glued into code makes it a template, not a quote.
    expect(kinds('Name it `const <name>_LIMIT = 3;` but keep `const RETRY = 3;`.')).toEqual([
      ['snippet', 'const RETRY = 3;'],
    ])
    // Calls joined by `/` are alternatives, each a name.
    expect(kinds('The slider calls `Actions.fogDistance()/setFogDistance()`.')).toEqual([
      ['symbol', 'Actions.fogDistance()'],
      ['symbol', 'setFogDistance()'],
    ])
    // A back-ticked name in a caseless script is a name; plain prose in it is not.
    expect(kinds('결과는 `시설결과` 테이블에, 설정은 `設定値` に。')).toEqual([
      ['symbol', '시설결과'],
      ['symbol', '設定値'],
    ])
    // A command's usage with `<arg>` placeholders is a template; a tag with a body is still code.
    expect(
      kinds('Run `netpath <org>` or `sync <env> [--dry-run]`, then `render <App />`.'),
    ).toEqual([['snippet', 'render <App />']])
    // Generics and JSX are code, not placeholders.
    expect(
      kinds('Keep `const m = new Map<string, number>()` and `return <div>{x}</div>;`.'),
    ).toEqual([
      ['snippet', 'const m = new Map<string, number>()'],
      ['snippet', 'return <div>{x}</div>;'],
    ])
  })

  it('reads quoted command lines as commands: only scripts and file arguments count', () => {
    expect(
      kinds('Use `git worktree add ../acme-shop-<topic> -b feature/<topic>` for parallel work.'),
    ).toEqual([])
    expect(kinds('Run one file with `npx vitest run tests/cart.test.ts`.')).toEqual([
      ['path', 'tests/cart.test.ts'],
    ])
    expect(
      kinds(
        'Try `docker compose -f deploy/compose.yml up`, `curl -s https://x.dev/health`, `cd packages/api && npm test`, `cat ~/.npmrc` and `git checkout -b fix/readme`.',
      ),
    ).toEqual([
      ['path', 'deploy/compose.yml'],
      ['url', 'https://x.dev/health'],
      ['command', 'npm test'],
      // The folder's own manifest, counted only if it had one when the note was written.
      ['path', 'cd packages/api && npm test'],
    ])
    const block = [
      '```',
      'git pull --rebase',
      'npx tsx scripts/seed.ts',
      'npm run build',
      'ls',
      '```',
    ]
    expect(kinds(block.join('\n'))).toEqual([
      ['path', 'scripts/seed.ts'],
      ['command', 'npm run build'],
    ])
    expect(
      kinds('```ts\nimport { x } from "./<module>/index"\n```\n\n```\nconst a = f(…)\n```'),
    ).toEqual([])
    // A script run by its path, with arguments (blind set AY); alone it is a path as before.
    expect(kinds('Status comes from `scripts/topic-log.py status --json`.')).toEqual([
      ['command', 'scripts/topic-log.py'],
    ])
    expect(kinds('See `scripts/topic-log.py`.')).toEqual([['path', 'scripts/topic-log.py']])
    // Alone on a shell block's line it is run; a solution file is a file (blind set BR).
    expect(
      kinds(
        '```shell\nscripts/repo/test-impacted.ps1\n```\n\n```shell\ndotnet test App.slnx --nologo\n```',
      ),
    ).toEqual([
      ['command', 'scripts/repo/test-impacted.ps1'],
      ['path', 'App.slnx'],
    ])
    // An environment variable set to a path is the variable, not the path (blind set BU).
    expect(kinds('Run with `GIT_CONFIG_GLOBAL=/dev/null` and `GIT_TERMINAL_PROMPT=0`.')).toEqual([
      ['symbol', 'GIT_CONFIG_GLOBAL=/dev/null'],
      ['symbol', 'GIT_TERMINAL_PROMPT=0'],
    ])
    // A wrapper runs what follows its `--`; a package manager runs an interpreter's script, and
    // a `cd` before a script names its folder and the folder's manifest (blind set BT).
    // The folder's own manifest: counted only if it had one when the note was written.
    const manifest: Reference = {
      kind: 'path',
      text: 'cd apps/cli && pnpm dev',
      path: 'apps/cli/package.json',
      line: null,
      dir: false,
      maybe: true,
    }
    const wrapped = [
      '```bash',
      'dotenvx run -- pnpm run cli models --json',
      'dotenvx run -- pnpm tsx scripts/examples/car-wash.ts',
      'pnpm dev -- --port 3000',
      'cd apps/cli && pnpm dev',
      '```',
    ].join('\n')
    expect(extractReferences(wrapped)).toEqual<Reference[]>([
      { kind: 'command', text: 'pnpm run cli', runner: 'pnpm', target: 'cli' },
      {
        kind: 'command',
        text: 'tsx scripts/examples/car-wash.ts',
        runner: 'file',
        target: 'scripts/examples/car-wash.ts',
      },
      { kind: 'command', text: 'pnpm dev', runner: 'pnpm', target: 'dev' },
      { kind: 'path', text: 'apps/cli/', path: 'apps/cli', line: null, dir: true },
      { kind: 'command', text: 'pnpm dev', runner: 'pnpm', target: 'dev', dir: 'apps/cli' },
      manifest,
    ])
    // A later `cd` out of the repository leaves no folder behind for the commands after it.
    expect(
      extractReferences('```bash\ncd apps/cli && pnpm dev && cd ~/other && pnpm lint\n```'),
    ).toEqual<Reference[]>([
      { kind: 'path', text: 'apps/cli/', path: 'apps/cli', line: null, dir: true },
      // In a home it may be a checkout of this repository (repo-paths.ts; blind set BA).
      { kind: 'path', text: '~/other/', path: '~/other', line: null, dir: true },
      { kind: 'command', text: 'pnpm dev', runner: 'pnpm', target: 'dev', dir: 'apps/cli' },
      { kind: 'command', text: 'pnpm lint', runner: 'pnpm', target: 'lint' },
      manifest,
    ])
  })

  it('does not take examples introduced by e.g. or such as as references', () => {
    expect(
      kinds('Point `DATABASE_URL` at its own database (e.g. `acme_coupons`) per worktree.'),
    ).toEqual([['symbol', 'DATABASE_URL']])
    expect(
      kinds('Name tables in snake case, for example `order_items`, `cart_lines` or `tax_rates`.'),
    ).toEqual([])
    expect(kinds('Names such as `user_id`; then `cart_id` is the key.')).toEqual([
      ['symbol', 'cart_id'],
    ])
  })

  it('reads a call written with parameter names as the function, not a quote', () => {
    expect(extractReferences('`applyCoupon(subtotal, coupon)` and `Cart.add(item)`.')).toEqual<
      Reference[]
    >([
      {
        kind: 'symbol',
        text: 'applyCoupon(subtotal, coupon)',
        name: 'applyCoupon',
        terms: ['applyCoupon'],
      },
      { kind: 'symbol', text: 'Cart.add(item)', name: 'Cart.add', terms: ['Cart', 'add'] },
    ])
    // Arguments that are values make it quoted code.
    expect(kinds('`(cents / 100).toFixed(2)` and `retry(fn, 3)`')).toEqual([
      ['snippet', '(cents / 100).toFixed(2)'],
      ['snippet', 'retry(fn, 3)'],
    ])
  })

  it('reads a call with elided arguments as the function (blind set AM)', () => {
    expect(kinds('Parse params via `Depends(...)` and `Query(alias, …)`.')).toEqual([
      ['symbol', 'Depends(...)'],
      ['symbol', 'Query(alias, …)'],
    ])
    // A spread is code: `...parts` is no elision.
    expect(kinds('Join them with `merge(...parts)`.')).toEqual([['snippet', 'merge(...parts)']])
  })

  it('finds dot-folder paths in prose', () => {
    expect(
      kinds('Rules live in .claude/rules/api-handlers.md and .github/workflows/; not .eslintrc.'),
    ).toEqual([
      ['path', '.claude/rules/api-handlers.md'],
      ['path', '.github/workflows/'],
    ])
  })

  it('gives a stable key per thing named', () => {
    const [a, b] = extractReferences('`src/a.ts:1` then `npm run x`')
    expect(referenceKey(a)).toBe('path:src/a.ts')
    expect(referenceKey(b)).toBe('command:npm:x')
  })
})

describe('partial paths and non-paths (issue 12 item 2)', () => {
  it('reads a name inside markdown emphasis as the file, never the stars as a glob', () => {
    expect(kinds('Deploy with `**copyLocal.mjs**` and *`src/a.ts`*.')).toEqual([
      ['path', 'copyLocal.mjs'],
      ['path', 'src/a.ts'],
    ])
  })

  it('reads file names joined by slashes as alternatives, each a file (blind set M)', () => {
    expect(kinds('tray.py/splitter.py are the examples; see `index.ts/app.tsx`.')).toEqual([
      ['path', 'tray.py'],
      ['path', 'splitter.py'],
      ['path', 'index.ts'],
      ['path', 'app.tsx'],
    ])
    expect(kinds('see models/tray.py and `src/a.ts`')).toEqual([
      ['path', 'models/tray.py'],
      ['path', 'src/a.ts'],
    ])
  })

  it('does not read a file extension or a property as a path, but keeps real dotfiles', () => {
    expect(kinds('Lint all `.js` files; set `.color` on the node; .html pages too.')).toEqual([])
    expect(
      kinds('Keys live in `.env` and `.env.local`; see `.eslintrc` and `.prettierrc.json`.'),
    ).toEqual([
      ['path', '.env'],
      ['path', '.env.local'],
      ['path', '.eslintrc'],
      ['path', '.prettierrc.json'],
    ])
  })

  it('does not read the root `/` as a path (blind set CH: a crash "on `/`", the root route)', () => {
    expect(kinds('A crash on `/` is unlikely: `app/page.tsx` renders it, like `//`.')).toEqual([
      ['path', 'app/page.tsx'],
    ])
  })

  it('does not read `A/B/C` alternatives or a name/arity as a path', () => {
    expect(kinds('`find_op/2` and `to_stack_item/1` are Erlang functions.')).toEqual([])
    // An HTTP route with its methods (blind set AI).
    expect(kinds('Reports: `GET/POST /reports` and `GET/PATCH /user/profile`.')).toEqual([])
    expect(kinds('The tool is `Read/Write/Edit`; data in `src/Models/user`.')).toEqual([
      ['path', 'src/Models/user'],
    ])
    // A bracketed notation and a class's fields side by side (blind set AY).
    expect(kinds('Exports `getTasks/createTask/deleteTask`.')).toEqual([
      ['symbol', 'getTasks'],
      ['symbol', 'createTask'],
      ['symbol', 'deleteTask'],
    ])
    expect(kinds('See `userProfile/index.ts`.')).toEqual([['path', 'userProfile/index.ts']])
    expect(kinds('Metallicity `[Fe/H]`, fields `_Track.Bes/Fs` and `Track.Lis/Lic`.')).toEqual([])
    expect(kinds('At `[Fe/H]=0.25` and `[Fe/H]≈0.00`.').filter(([k]) => k === 'path')).toEqual([])
    expect(kinds('Routes: `[id]/page.tsx`, `app/[slug]/page.tsx`, `vendor.dir/lib`.')).toEqual([
      ['path', '[id]/page.tsx'],
      ['path', 'app/[slug]/page.tsx'],
      ['path', 'vendor.dir/lib'],
    ])
  })

  it('does not read a web address without its scheme as a path (hidden set J)', () => {
    expect(
      kinds(
        'Renamed; see `github.com/zN3utr4l/Carburo` and docs.example.io/guide/ too; `src/a.ts`.',
      ),
    ).toEqual([['path', 'src/a.ts']])
    // A folder with a dot that is no host name is still a path.
    expect(kinds('Config in `config.d/app.conf`.')).toEqual([['path', 'config.d/app.conf']])
  })

  it('reads a Swift selector as the method it names (hidden set K)', () => {
    const refs = extractReferences(
      'Drag calls `ContentViewModel.updateSplitRatio(splitId:ratio:)`; lists use `Section(isExpanded:)`.',
    )
    expect(refs.map((r) => [r.kind, r.text, r.kind === 'symbol' ? r.name : ''])).toEqual([
      [
        'symbol',
        'ContentViewModel.updateSplitRatio(splitId:ratio:)',
        'ContentViewModel.updateSplitRatio',
      ],
      ['symbol', 'Section(isExpanded:)', 'Section'],
    ])
  })

  it('does not read a slash-joined list a line wrap cut as a folder (hidden set J)', () => {
    expect(
      kinds('- `lib/format.ts` — compact/usd/ms/pct/\n  relTime/shortDate/homeDir. See src/ui/\n'),
    ).toEqual([
      ['path', 'lib/format.ts'],
      ['path', 'src/ui/'],
    ])
    // A folder at a line's end before a line of prose is still a folder.
    expect(kinds('Views live in src/views/\n  and nowhere else.')).toEqual([['path', 'src/views/']])
  })

  it('marks paths holding NNN, dates or [name] placeholders as patterns', () => {
    const refs = extractReferences(
      'Resumes in `batch-NN/`, logs `YYYY-MM-DD.md`, pages `[algo].html`, PHP in `lpm-core/...` or `lib/…/x.php`, and `src/app.ts`.',
    )
    expect(refs.map((r) => [r.text, r.kind === 'path' ? (r.pattern ?? false) : null])).toEqual([
      ['batch-NN/', true],
      ['YYYY-MM-DD.md', true],
      ['[algo].html', true],
      ['lpm-core/...', true],
      ['lib/…/x.php', true],
      ['src/app.ts', false],
    ])
  })

  it('leaves out what the note says is absent, but not what it says not to touch', () => {
    expect(
      kinds('There is no `repositories/` layer, without a `db.ts`; use `a.ts`, not `b.ts`.'),
    ).toEqual([['path', 'a.ts']])
    expect(kinds('Do not edit `src/gen.ts` by hand.')).toEqual([['path', 'src/gen.ts']])
    // A prohibition, through its list: it holds whether or not the code has them (DH ts-t06).
    expect(
      kinds(
        'Do not introduce modal `Dialog<>`, `Alert`, or `TextInputDialog` for editors; use `Popover.java`.',
      ),
    ).toEqual([['path', 'Popover.java']])
    // Where the note says something does not come from (blind set CM nm-r04).
    expect(
      kinds(
        'Facts come from `catalog/providers.yaml`, not from `spec/tables.md`, never in `old/`.',
      ),
    ).toEqual([['path', 'catalog/providers.yaml']])
  })

  it('reads a fenced tree or diagram for the files it names, not as quoted code', () => {
    const tree = [
      '```',
      'deathwatch.mjs (Entry Point)',
      '    ├─→ Sheets (actor-sheet.mjs, item-sheet.mjs)',
      '    └─→ work-evaluators/',
      '```',
    ].join('\n')
    expect(kinds(tree)).toEqual([
      ['path', 'deathwatch.mjs'],
      ['path', 'actor-sheet.mjs'],
      ['path', 'item-sheet.mjs'],
      ['path', 'work-evaluators/'],
    ])
  })

  it('reads a folder tree drawn by indentation as paths under their parents, not quoted code', () => {
    const tree = [
      '```',
      'src/',
      '  app/                 # routing',
      '  features/            # slices',
      '    pools/             #   join-pool/ ...',
      '                       #   a comment line',
      'tests/',
      '  e2e/',
      '```',
    ].join('\n')
    expect(kinds(tree)).toEqual([
      ['path', 'src/'],
      ['path', 'src/app/'],
      ['path', 'src/features/'],
      ['path', 'src/features/pools/'],
      ['path', 'tests/'],
      ['path', 'tests/e2e/'],
    ])
    // Under one top folder (often the project's own name) the entries are partial paths.
    expect(
      kinds(
        ['```', 'my-app/', '├── api/', '│   └── main.py  # entry', '└── README.md', '```'].join(
          '\n',
        ),
      ),
    ).toEqual([
      ['path', 'api/'],
      ['path', 'api/main.py'],
      ['path', 'README.md'],
    ])
    // Code is no tree, even when its lines are single words.
    expect(kinds(['```', 'const a = 1', 'src/', 'lib/', '```'].join('\n'))[0][0]).toBe('snippet')
  })

  it('leaves out what the note says after a mention is gone or absent', () => {
    expect(
      kinds(
        '`AutoDispose<T>` is NOT available; the removed `check_in.dart` and `old.ts` was deleted; use `Notifier<T>`.',
      ),
    ).toEqual([['snippet', 'Notifier<T>']])
  })

  it('reads a `key: value` setting as its key, a name of the code', () => {
    expect(kinds('Upserts with `ignoreDuplicates:true` and `max_retries = 3`.')).toEqual([
      ['symbol', 'ignoreDuplicates:true'],
      ['symbol', 'max_retries = 3'],
    ])
    const refs = extractReferences('Upserts with `ignoreDuplicates:true`.')
    expect(refs[0].kind === 'symbol' && refs[0].name).toBe('ignoreDuplicates')
    // A plain word before a colon is no setting.
    expect(kinds('Status: `done: yes`.')).toEqual([])
  })

  it('reads a slash command as the files that may define it, never as a path on the machine', () => {
    const refs = extractReferences('Run `/skill new-migration` after a schema change.')
    expect(refs.map((r) => (r.kind === 'path' ? [r.path, r.maybe] : [r.kind]))).toEqual([
      ['.claude/commands/skill.md', true],
      ['.claude/skills/skill/SKILL.md', true],
      ['.claude/skills/skill.md', true],
      ['.agents/skills/skill/SKILL.md', true],
      ['commands/skill.md', true],
      ['skills/skill/SKILL.md', true],
      ['skills/skill.md', true],
      ['.claude/commands/new-migration.md', true],
      ['.claude/skills/new-migration/SKILL.md', true],
      ['.claude/skills/new-migration.md', true],
      ['.agents/skills/new-migration/SKILL.md', true],
      ['commands/new-migration.md', true],
      ['skills/new-migration/SKILL.md', true],
      ['skills/new-migration.md', true],
    ])
    // A path with more than one segment stays a path.
    expect(kinds('See `/etc/hosts`.')).toEqual([['path', '/etc/hosts']])
  })

  it('reads a page’s address on the site as the page’s file, not a path at the disk’s root', () => {
    const refs = extractReferences('Standalone viewer at /object-viewer.html and (/admin.php).')
    expect(refs.map((r) => [r.kind, r.text, r.kind === 'path' ? r.path : ''])).toEqual([
      ['path', '/object-viewer.html', 'object-viewer.html'],
      ['path', '/admin.php', 'admin.php'],
    ])
    // A longer absolute path or a URL's path is not a page address.
    expect(kinds('Logs in /var/log/app.html, see https://x.io/a.html')).toEqual([
      ['url', 'https://x.io/a.html'],
    ])
  })
})
