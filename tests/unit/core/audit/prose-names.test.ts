/**
 * Which words of a note's prose are name candidates (src/core/audit/prose-names.ts): only
 * identifier shapes, never plain English; a name next to a value as a pair; and how a code
 * line stands to a pair. Whether a candidate counts is decided on real repositories
 * (tests/unit/node/audit/prose-then.test.ts).
 */
import { describe, expect, it } from 'vitest'
import {
  classSpans,
  identifierShaped,
  pairInLine,
  proseNames,
  versionMatches,
} from '../../../../src/core/audit/prose-names'
import { wordRe } from '../../../../src/core/audit/word-match'
import { acronymNames, quotedPhrases } from '../../../../src/core/audit/quoted-phrases'
import { boldNames, dependencyIn } from '../../../../src/core/audit/manifest-names'
import { extractReferences } from '../../../../src/core/audit/references'
import { isClassList, spanPathRef } from '../../../../src/core/audit/reference-paths'

const ENGLISH = [
  'Make sure the Release Notes mention Phase 2 and step 3 of the Setup.',
  'The API and the URLs it returns are JSON; see the README for the APIs we call.',
  'Use well-known names: Hello World, Node.js, e.g. and i.e. are prose.',
  'Deploy on Friday at 5 (never on a Monday), then run the smoke tests 2 times.',
  '**Important**: _always_ ask before pushing; __never__ force-push.',
].join('\n')

describe('prose names', () => {
  it('never takes an English word as a name, however it is written', () => {
    const { names, pairs } = proseNames(ENGLISH)
    expect(names).toEqual([])
    // A plain word next to a number is only a manifest pair: it counts in a manifest key.
    expect(pairs.every((p) => p.manifest)).toBe(true)
  })

  it('takes identifier shapes: inner capitals, capital runs, underscores, letters with digits', () => {
    for (const w of [
      'useV2Sheets',
      'APIConfigure',
      'haul_to_stockpile',
      'LOCAL_DIR',
      'iOS',
      'sha256',
    ])
      expect(identifierShaped(w), w).toBe(true)
    for (const w of ['Hello', 'API', 'APIs', 'Phase', 'v2', 'h3', 'README', 'x_y'])
      expect(identifierShaped(w), w).toBe(false)
  })

  it('takes an underscored name in any script: a Korean table name is an identifier', () => {
    expect(identifierShaped('처리시설_측정결과')).toBe(true)
    expect(identifierShaped('처리시설')).toBe(false)
    expect(proseNames('Results go to tables (분석의뢰및결과, 처리시설_측정결과).').names).toEqual([
      '처리시설_측정결과',
    ])
  })

  it('reads names in emphasis, lists and fenced code, not in code spans, links or URLs', () => {
    const text = [
      '- **APIConfigure**: base settings; kinds (eat、haul_to_stockpile、wander)',
      '- `tickedName` is checked as a symbol; [see](docs/someLinkTarget.md) https://x.io/fooBar',
      '```ts',
      'const fencedName = Store.make(plain)',
      '```',
    ].join('\n')
    expect(proseNames(text).names).toEqual(['APIConfigure', 'haul_to_stockpile', 'fencedName'])
  })

  it("does not read a tree drawing's top folder as a name of the code (blind set CK)", () => {
    const tree = [
      '```',
      'i_story_dapp/',
      '├── app/',
      '│   └── api_routes/',
      '├── lib/',
      '└── scripts/',
      '```',
    ]
    expect(proseNames(tree.join('\n')).names).toEqual(['api_routes'])
    // Entries written as lists (`admin/, ai/`) make no tree treeListing reads; the top still goes.
    const drawn = ['```', 'i_story_dapp/', '├── app/', '│   ├── admin/, ai/', '└── lib/', '```']
    expect(proseNames(drawn.join('\n')).names).toEqual([])
  })

  it('leaves out the components a JSX example renders but never imports (blind set DO ag-r09)', () => {
    const example = [
      '```tsx',
      "import { testcaseMolecule } from '@acme/entities/testcase'",
      'function TestcaseEditor({ id }) {',
      '  const [state] = testcaseMolecule.useController(id)',
      '  if (!state.data) return <NotFound />',
      '  return <DirtyBadge id={id} />',
      '}',
      'const DirtyBadge = () => <Badge>Modified</Badge>',
      '```',
    ]
    expect(proseNames(example.join('\n')).names).toEqual([
      'testcaseMolecule',
      'TestcaseEditor',
      'useController',
      'DirtyBadge',
    ])
    // With no import, the block is the code itself: its elements are names.
    const code = ['```tsx', 'export const Page = () => <NotFound />', '```']
    expect(proseNames(code.join('\n')).names).toEqual(['NotFound'])
  })

  it('reads names written as alternatives, and leaves paths and word pairs alone (blind set N)', () => {
    const text = [
      '[ ] Every new query of convex/*.ts goes through requireRole/requireUser',
      '- hooks: useAuth/useSession/useOrg; and/or query/mutation; see src/components/AuthGate',
      '- services/authService.ts and lib/apiClient/index.ts are paths',
    ].join('\n')
    expect(proseNames(text).names).toEqual([
      'requireRole',
      'requireUser',
      'useAuth',
      'useSession',
      'useOrg',
    ])
  })

  it('leaves out a name the prose only negates (blind set S)', () => {
    const text =
      '**hints_window** is always visible (not a ConditionalContainer), unlike SidePanel; no LegacyBar.'
    expect(proseNames(text).names).toEqual(['hints_window', 'SidePanel'])
    // Named plainly once, it is a name again.
    expect(proseNames(`${text} The LegacyBar is gone.`).names).toContain('LegacyBar')
  })

  it('pairs a name with the version or number written next to it', () => {
    const text = [
      '- `lodash-es` pinned to 4.17.23 in overrides',
      '| @lhci/cli | 0.15.x | Lighthouse CI |',
      '- iOS 26.0+ / macOS 26.0+',
      '- Vite chunkSizeWarningLimit 1200 (set for p5.js)',
    ].join('\n')
    expect(proseNames(text).pairs).toEqual([
      { name: 'lodash-es', value: '4.17.23', manifest: true },
      { name: '@lhci/cli', value: '0.15.x', manifest: true },
      { name: 'iOS', value: '26.0', manifest: false },
      { name: 'macOS', value: '26.0', manifest: false },
      { name: 'chunkSizeWarningLimit', value: '1200', manifest: false },
    ])
  })

  it('pairs a short constant with its value as code, not as a package (blind set X)', () => {
    expect(proseNames('Config flashed: (K_P 0.3/K_I 0.4, LR 0.45, PWM 3000)').pairs).toEqual([
      { name: 'K_P', value: '0.3', manifest: false },
      { name: 'K_I', value: '0.4', manifest: false },
      { name: 'PWM', value: '3000', manifest: true },
    ])
  })

  it('matches versions by their written parts', () => {
    const v = (s: string): string[] => s.split('.')
    expect(versionMatches('5', v('5.17.2'))).toBe(true)
    expect(versionMatches('26.0', v('26'))).toBe(true)
    expect(versionMatches('0.15.x', v('0.15.1'))).toBe(true)
    expect(versionMatches('4.17.23', v('4.18.1'))).toBe(false)
    expect(versionMatches('5', v('6.4.8'))).toBe(false)
  })

  it('reads a pair in a code line: held, another value, or not given', () => {
    const astro = { name: 'Astro', value: '5', manifest: true }
    expect(pairInLine('    "astro": "^5.17.2",', astro)).toBe('holds')
    expect(pairInLine('    "astro": "^6.4.8",', astro)).toBe('other')
    expect(pairInLine('    "astro": "astro",', astro)).toBe('none')
    expect(pairInLine("import { x } from 'astro' // 5 uses", astro)).toBe('none')
    const ios = { name: 'iOS', value: '26.0', manifest: false }
    expect(pairInLine('        .iOS(.v26),', ios)).toBe('holds')
    expect(pairInLine('        .iOS(.v16),', ios)).toBe('other')
    expect(pairInLine('        // lower iOS/tvOS floors', ios)).toBe('none')
  })

  it('reads a version under its key in a manifest inline table (blind set R)', () => {
    const ratatui = { name: 'ratatui', value: '0.30.0', manifest: true }
    const line =
      'ratatui = { version = "0.30.0", default-features = false, features = ["crossterm"] }'
    expect(pairInLine(line, ratatui)).toBe('holds')
    expect(pairInLine('ratatui = { version = "^0.29", features = ["macros"] }', ratatui)).toBe(
      'other',
    )
    expect(
      pairInLine('requests = {version = "0.30.0", optional = true}', {
        ...ratatui,
        name: 'requests',
      }),
    ).toBe('holds')
    // Another key's number is not the version.
    expect(pairInLine('ratatui = { path = "../ratatui", rev = "30" }', ratatui)).toBe('none')
    expect(pairInLine('ratatui = { workspace = true }', ratatui)).toBe('none')
  })
})

describe('paths in emphasis and globs (issue 12 item 2)', () => {
  it('reads a bold file name as a file, the `**` not as a glob', () => {
    const refs = extractReferences('- **deploy.yml** — builds and deploys; see src/* for more')
    expect(refs).toEqual([
      { kind: 'path', text: 'deploy.yml', path: 'deploy.yml', line: null, dir: false },
    ])
  })

  it('reads a back-ticked glob as a pattern of files', () => {
    expect(extractReferences('Profiles (`targets/profiles/*.json`) hold bios.')).toEqual([
      {
        kind: 'path',
        text: 'targets/profiles/*.json',
        path: 'targets/profiles/*.json',
        line: null,
        dir: false,
        pattern: true,
      },
    ])
  })
})

describe('bold package names and manifest dependency lines', () => {
  it('takes bold package-shaped words, not files, sentences or short words', () => {
    expect(
      boldNames('- **pandas** / **numpy** - Data; **copyLocal.mjs** and **7 products**, **UI**'),
    ).toEqual(['pandas', 'numpy'])
  })

  it('reads a dependency in package.json, pyproject, requirements and a Gemfile', () => {
    expect(dependencyIn('    "astro": "^5.17.2",', 'astro')).toBe(true)
    expect(dependencyIn('    "pandas>=2.3.3",', 'pandas')).toBe(true)
    expect(dependencyIn('uvicorn[standard]==0.30', 'uvicorn')).toBe(true)
    expect(dependencyIn('gem "money-rails"', 'money-rails')).toBe(true)
    expect(dependencyIn('requests = "^2.31"', 'requests')).toBe(true)
    expect(dependencyIn('  "name": "pandas-tools",', 'pandas')).toBe(false)
    expect(dependencyIn('# pandas was removed', 'pandas')).toBe(false)
  })

  it('takes a list entry only when the string is the name with a version spec (blind set U)', () => {
    // pyproject.toml and setup.py lists: a spec may be spaced; pip compares names in any case.
    expect(dependencyIn('  "requests >= 2.0",', 'requests', 'pyproject.toml')).toBe(true)
    expect(dependencyIn('  "PyYAML>=6",', 'pyyaml', 'pyproject.toml')).toBe(true)
    expect(dependencyIn("gem 'rails', '~> 7.1'", 'rails', 'Gemfile')).toBe(true)
    // A sentence that starts with the word is prose, in any manifest.
    expect(
      dependencyIn('description = "Project utility scripts"', 'project', 'pyproject.toml'),
    ).toBe(false)
    expect(dependencyIn('  "Project utility scripts for the workspace",', 'project')).toBe(false)
  })

  it('takes a JSON manifest dependencies as keys only, in their own case (blind set U)', () => {
    expect(dependencyIn('    "astro": "^5.17.2",', 'astro', 'web/package.json')).toBe(true)
    expect(
      dependencyIn('  "description": "Project utility scripts",', 'project', 'package.json'),
    ).toBe(false)
    expect(dependencyIn('    "route",', 'route', 'package.json')).toBe(false)
    expect(dependencyIn('  "keywords": ["route", "router"],', 'route', 'package.json')).toBe(false)
    expect(dependencyIn('  "Project": "1.0",', 'project', 'package.json')).toBe(false)
  })

  it('takes a JSON key as a dependency only with a version spec, not a command (blind set AL)', () => {
    // "Start new docs from …": a script named `start` is no package the repository dropped.
    const pkg = 'apps/docs/package.json'
    expect(dependencyIn('    "start": "mint dev -p 6660 --no-open",', 'start', pkg)).toBe(false)
    expect(dependencyIn('    "lint": "eslint .",', 'lint', pkg)).toBe(false)
    expect(dependencyIn('    "deploy": "git push origin main",', 'deploy', pkg)).toBe(false)
    for (const spec of [
      '^5.1.0',
      '~1.2',
      '>=2 <3',
      '*',
      '',
      'latest',
      'v1.0.0',
      'workspace:*',
      'npm:react@18',
      'file:../lib',
      'git+https://github.com/a/b.git',
      'github:a/b',
      'expressjs/express#v4',
      'https://example.com/x.tgz',
    ])
      expect(dependencyIn(`    "mint": "${spec}",`, 'mint', pkg), spec).toBe(true)
  })

  it('never takes the manifest own name or description as a dependency (blind set Z2)', () => {
    expect(dependencyIn('    name: "Clawdis",', 'clawdis', 'apps/macos/Package.swift')).toBe(false)
    expect(dependencyIn('name = "pandas-lite"', 'pandas-lite', 'pyproject.toml')).toBe(false)
    const swift = 'Package.swift'
    expect(
      dependencyIn('    .executable(name: "Clawdis", targets: ["Clawdis"]),', 'clawdis', swift),
    ).toBe(false)
    expect(
      dependencyIn('    .product(name: "Sparkle", package: "Sparkle"),', 'sparkle', swift),
    ).toBe(true)
    expect(dependencyIn('    .package(url: "x", from: "1.0"), "Clawdis",', 'clawdis')).toBe(true)
  })
})

describe('utility classes are not paths (issue 12 item 2)', () => {
  it('reads a class with an opacity or fraction, and a class list, as no path', () => {
    for (const s of [
      'text-violet-500/70',
      'w-1/2',
      'bg-white/10',
      'hover:bg-red-500/20',
      'bg-slate-50/95 backdrop-blur-xl border-b border-slate-200/60',
    ]) {
      expect(isClassList(s)).toBe(true)
      expect(spanPathRef(s)).toBeNull()
    }
  })

  it('keeps paths as paths', () => {
    for (const s of [
      'src/my dir/a.ts',
      'docs/sprints/2',
      'ops/infra/derived',
      'api-v2/routes/1',
      'app/shared/types/',
    ])
      expect(isClassList(s)).toBe(false)
    expect(spanPathRef('src/components/fractal-viewer/index.tsx')).not.toBeNull()
  })

  it('checks a class list cut with an ellipsis by its parts, and nothing else', () => {
    expect(
      classSpans('Class: `flex bg-white/10 backdrop-blur-2xl ... rounded-[2.5rem] h-[4rem]` here'),
    ).toEqual(['flex bg-white/10 backdrop-blur-2xl', 'rounded-[2.5rem] h-[4rem]'])
    expect(classSpans('Call `load(...)` and `a ... b`.')).toEqual([])
    expect(
      classSpans('Card: `shadow-md -translate-y-px`; run `git push -f`, `npm run build`.'),
    ).toEqual(['shadow-md -translate-y-px'])
  })
})

describe('quotedPhrases (hidden set K)', () => {
  it('reads phrases of two to eight words in straight or curly quotes, outside code', () => {
    expect(
      quotedPhrases(
        'Pick "Initialize Git & Create Worktree" or “Open Plain Terminal”; `"not this one"` nor "one".',
      ),
    ).toEqual(['Initialize Git & Create Worktree', 'Open Plain Terminal'])
    expect(quotedPhrases('```\nlog("Loaded all the things")\n```\nand a "b c" pair')).toEqual([])
  })
})

describe('acronymNames (blind set CA)', () => {
  it('reads a name given with its initials, and only when they are its first letters', () => {
    expect(
      acronymNames(
        'Claude Projects Interface (CPI) is the app; Foo Bar (XY) is not; the Model Context Protocol (MCP)',
      ),
    ).toEqual(['Claude Projects Interface', 'Model Context Protocol'])
    expect(acronymNames('```\nAcme Projects Console (APC)\n```')).toEqual([])
  })
})

describe('wordRe (blind set AJ)', () => {
  it("finds a constant after a shell's `$`, and no name inside another", () => {
    const w = wordRe('SKIP_FRONTEND_LINT')
    expect(w.test('    if [ "$SKIP_FRONTEND_LINT" != "1" ]; then')).toBe(true)
    expect(w.test('echo ${SKIP_FRONTEND_LINT}')).toBe(true)
    expect(w.test('SKIP_FRONTEND_LINT=1 git commit')).toBe(true)
    expect(w.test('X$SKIP_FRONTEND_LINT')).toBe(false)
    expect(w.test('$$SKIP_FRONTEND_LINT')).toBe(false)
    expect(w.test('NO_SKIP_FRONTEND_LINT=1')).toBe(false)
    // A lower-case name after `$` is another identifier (`$store` is not `store`).
    expect(wordRe('store').test('const x = $store')).toBe(false)
    expect(wordRe('store').test('const x = store.get()')).toBe(true)
  })

  it("lets a constant's prefix run on, at a word's start (DG mx-t03)", () => {
    expect(wordRe('METATRON_').test('url = env("METATRON_DB_URL")')).toBe(true)
    expect(wordRe('METATRON_').test('env_prefix = "METATRON_"')).toBe(true)
    expect(wordRe('METATRON_').test('X_METATRON_DB')).toBe(false)
    expect(proseNames('env vars with METATRON_ prefix; _emphasis_ and SKIP_LINT').names).toEqual([
      'METATRON_',
      'SKIP_LINT',
    ])
  })
})
