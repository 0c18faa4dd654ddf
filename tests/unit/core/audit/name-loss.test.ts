/** What a note's names lost since it was written (issue 12 items 4 and 5): the pure rules. */
import { describe, expect, it } from 'vitest'
import {
  codeOf,
  isCommentLine,
  isMigrationFile,
  isTestFile,
  leftEveryFile,
  lostLines,
  onlyGained,
  type CodeLine,
} from '../../../../src/core/audit/name-loss'
import {
  accessOnly,
  argumentKept,
  boundAnew,
  callPassedOn,
  enclosingBlock,
  literalsOnly,
  localRenamed,
  reflowed,
  valueOnly,
} from '../../../../src/core/audit/line-changes'

const L = (file: string, line: number, text: string): CodeLine => ({ file, line, text })

describe('lostLines', () => {
  it('loses nothing when lines were only added', () => {
    const then = [L('src/a.ts', 1, 'export function go() {')]
    const now = [...then, L('src/b.ts', 3, 'go()')]
    expect(lostLines(then, now)).toEqual([])
  })

  it('loses a line whose value changed, and names the line now', () => {
    const then = [L('src/a.ts', 1, 'export const LIMIT = 3')]
    const now = [L('src/a.ts', 1, 'export const LIMIT = 5')]
    expect(lostLines(then, now)).toEqual([{ then: then[0], now: now[0] }])
  })

  it('keeps a use its file let go that another file makes the same way (blind set X uc-r04)', () => {
    const add = (v: string): string => `OutValidation.Add(TEXT("asset_in_registry"), ${v});`
    const then = [L('Builders/AIController.cpp', 82, add('(Assets.Num() > 0) ? T : F'))]
    const now = [L('Builders/Generic.cpp', 258, add('bInRegistry ? T : F'))]
    const name = 'asset_in_registry'
    expect(lostLines(then, now, { name })).toEqual([])
    // Named by the note, its file still counts; in its own file, a new value is a change.
    expect(lostLines(then, now, { name, named: new Set([then[0].file]) })).toHaveLength(1)
    const same = [L('Builders/AIController.cpp', 82, add('bInRegistry ? T : F'))]
    expect(lostLines(then, same, { name })).toHaveLength(1)
    // A callee made the same way elsewhere is not the use: every test file calls it so.
    const skip = [L('src/col.test.ts', 3, "describe.skipIf(!archive)('reads a library', () => {")]
    const other2 = [L('src/rig.test.ts', 9, "describe.skipIf(!assets)('builds a rig', () => {")]
    expect(lostLines(skip, other2, { name: 'skipIf' })).toHaveLength(1)
    // The same file moved to another folder, its call changed: a change (visible set).
    const moved = [L('apps/web/Builders/AIController.cpp', 90, add('bInRegistry ? T : F'))]
    expect(lostLines(then, moved, { name })).toHaveLength(1)
    // Another use of the name elsewhere is not the same use.
    const other = [L('Builders/Generic.cpp', 9, `Keys.Add(TEXT("asset_in_registry"));`)]
    expect(lostLines(then, other, { name })).toHaveLength(1)
  })

  it('does not count one lost use of a name many code files use, unless it defined the name', () => {
    const uses = ['a', 'b', 'c', 'd'].map((f) =>
      L(`app/${f}.rb`, 1, `class ${f.toUpperCase()} < Base`),
    )
    const then = [
      L('app/gone.rb', 1, 'class Gone < Base'),
      L('app/base.rb', 1, 'class Base < Object'),
    ]
    const now = [...uses, L('app/base.rb', 1, 'class Base < Record')]
    const lost = lostLines(then, now, { nowAnywhere: now, name: 'Base' })
    // The subclass that went says nothing of `Base`; its own definition line changed.
    expect(lost.map((l) => l.then.file)).toEqual(['app/base.rb'])
    // Used in fewer files, every lost use counts.
    expect(lostLines(then, now.slice(2), { nowAnywhere: now.slice(2), name: 'Base' })).toHaveLength(
      2,
    )
    // A typed method definition is a definition too.
    const def = [L('x/Runner.cs', 9, 'private void OnSnap(Packet p) => Apply(p);')]
    const many = ['a', 'b', 'c', 'd'].map((f) => L(`x/${f}.cs`, 1, 'void OnSnap(Packet p) {}'))
    expect(lostLines(def, many, { nowAnywhere: many, name: 'OnSnap' })).toHaveLength(1)
  })

  it('takes template comments (`<%#`, `{{!`, `{#`, JSX `{/*`) as comments', () => {
    // Blind set CD: `{/* NextAuth v5 sign-in URL */}` in an Astro page read as code.
    for (const c of [
      '<%# Upcoming Events %>',
      '{{! Events }}',
      '{# Events #}',
      '{/* NextAuth v5 */}',
    ])
      expect(isCommentLine(c)).toBe(true)
    expect(isCommentLine('{count}')).toBe(false)
    // A JSON file's comment key (blind set CE: `.mcp.json`'s "$comment").
    expect(isCommentLine('"$comment": "Docs via Context7",')).toBe(true)
    expect(isCommentLine('"comment": "a field of the data"')).toBe(false)
  })

  it('loses a line that is gone, with nothing now', () => {
    expect(lostLines([L('src/a.ts', 4, '  return go(x)')], [])).toEqual([
      { then: L('src/a.ts', 4, '  return go(x)'), now: null },
    ])
  })

  it('does not count a move to another file, a reindent or a line that only gained words', () => {
    const then = [
      L('src/a.ts', 1, 'export function go() {'),
      L('src/a.ts', 9, "import { go } from './b'"),
      L('src/a.ts', 12, 'go(x)'),
    ]
    const now = [
      L('src/c.ts', 5, 'export function go() {'),
      L('src/a.ts', 2, "import { go, stop } from './b'"),
      L('src/a.ts', 14, '    go(x, { fast: true })'),
    ]
    expect(lostLines(then, now)).toEqual([])
  })

  it('ignores comments', () => {
    expect(lostLines([L('a.py', 1, '# go() is slow')], [L('a.py', 1, '# go() is fast')])).toEqual(
      [],
    )
  })

  it('leaves test lines out when the name lives outside tests, not when it lives only there', () => {
    const then = [L('tests/a.test.ts', 3, "it('go', () => go(1))")]
    const now = [L('tests/a.test.ts', 3, "it('go', () => go(2))")]
    expect(lostLines(then, now, { outsideTestsNow: true })).toEqual([])
    expect(lostLines(then, now)).toHaveLength(1)
  })

  it('counts only the lines in files the note names when one of them holds the name', () => {
    const then = [L('src/a.ts', 1, 'go(1)'), L('src/b.ts', 1, 'go(2)')]
    const now = [L('src/a.ts', 1, 'go(1)'), L('src/b.ts', 1, 'go(3)')]
    expect(lostLines(then, now, { named: new Set(['src/a.ts']) })).toEqual([])
    expect(lostLines(then, now, { named: new Set(['src/z.ts']) })).toHaveLength(1)
    // A folder the note names names the files in it (blind set CS mm-t06).
    const copies = [
      L('ui/_primitives/menu.tsx', 9, 'function Menu({'),
      L('design/x/menu.tsx', 9, 'function Menu({'),
    ]
    const later = [
      L('ui/_primitives/menu.tsx', 9, 'function Menu({'),
      L('design/x/menu.tsx', 9, 'Menu,'),
    ]
    expect(lostLines(copies, later, { named: new Set(['ui/_primitives']) })).toEqual([])
    expect(lostLines(copies, later, { named: new Set(['ui']) })).toEqual([])
    expect(lostLines(copies, later, { named: new Set(['ui/_prim']) })).toHaveLength(1)
  })

  it('does not let a kept duplicate hide a removed one', () => {
    const then = [L('src/a.ts', 1, 'go(1)'), L('src/a.ts', 2, 'go(1)')]
    expect(lostLines(then, [L('src/a.ts', 1, 'go(1)')])).toHaveLength(1)
  })
})

describe('the line rules', () => {
  it('tells comments from code', () => {
    for (const c of ['// x', '/* x', ' * x', '# x', '-- x', '% x', ';; x', '<!-- x', '"""x'])
      expect(isCommentLine(c), c).toBe(true)
    for (const c of ['#include <x>', '#continuation{}.', 'x = 1 # y', '*ptr = 1', 'return -1'])
      expect(isCommentLine(c), c).toBe(false)
  })

  it('tells test files from code', () => {
    for (const f of [
      'tests/a.ts',
      'src/__tests__/x.ts',
      'a.test.ts',
      'b_spec.rb',
      'test_x.py',
      'Tests/NetTests.swift',
      'notebooks/data_preparation.ipynb',
    ])
      expect(isTestFile(f), f).toBe(true)
    for (const f of ['src/testing-lib.ts', 'src/contest.ts', 'latest.py', 'src/ipynb.py'])
      expect(isTestFile(f), f).toBe(false)
  })

  it('knows a line that only gained words from one that lost some', () => {
    expect(onlyGained('go(a)', 'go(a, b)')).toBe(true)
    expect(onlyGained('const X = 3', 'const X = 5')).toBe(false)
  })

  it('finds the enclosing block of a line', () => {
    const text = [
      'export function a() {',
      '  const x = 1',
      '  return x',
      '}',
      '',
      'export const B = 2',
      'export const C = 3',
    ].join('\n')
    expect(enclosingBlock(text, 3)).toEqual([1, 4])
    expect(enclosingBlock(text, 6)).toEqual([3, 7])
  })
})

describe('imports and copies', () => {
  it('does not count a changed import, or a line the code still holds in another file', () => {
    const then = [
      L('src/a.ts', 1, "const { go, stop } = await import('./b')"),
      L('old/7.1/php.ini', 3, 'short_open_tag = On'),
    ]
    const now = [L('src/a.ts', 1, "import { go } from './b'")]
    const anywhere = [...now, L('conf/7.3/php.ini', 3, 'short_open_tag = On')]
    expect(lostLines(then, now, { nowAnywhere: anywhere })).toEqual([])
    expect(lostLines(then, now)).toHaveLength(1)
    // A type-only member of an import list spread over lines (blind set CS tp-t05); a type
    // alias defined is code.
    const member = [L('src/c.ts', 3, '  type Client,'), L('src/c.ts', 4, '  type Row as R }')]
    expect(lostLines(member, [L('src/c.ts', 9, 'db: Client,')])).toEqual([])
    const alias = [L('src/c.ts', 3, 'type Client = Db<Schema>')]
    expect(lostLines(alias, [L('src/c.ts', 3, 'type Client = Db<Other>')])).toHaveLength(1)
  })
})

describe('onlyGained', () => {
  it('wants the old words in their order', () => {
    expect(onlyGained('a = b', 'b = a')).toBe(false)
    expect(onlyGained('"build": "astro build"', '"build": "npm run x && astro build"')).toBe(true)
  })
})

describe('leftEveryFile', () => {
  const changed = new Set(['src/a.cs', 'src/b.cs', 'scripts/m.py', 'src/new.ts'])

  it('finds a name that left every file holding it, kept only by a new file', () => {
    const then = [
      L('src/a.cs', 2, 'Db.Insert("t_results")'),
      L('src/b.cs', 9, 'Select("t_results")'),
    ]
    const now = [L('scripts/m.py', 1, 'rename("t_results", "t_result")')]
    expect(leftEveryFile(then, now, changed)).toEqual({ then: then[0], onlyIn: ['scripts/m.py'] })
  })

  it('says nothing when a file that held it still does, or an unchanged file holds it', () => {
    const then = [L('src/a.cs', 2, 'Db.Insert("t_results")')]
    expect(leftEveryFile(then, [L('src/a.cs', 3, 'Db.Upsert("t_results")')], changed)).toBeNull()
    expect(leftEveryFile(then, [L('src/same.cs', 1, 'x("t_results")')], changed)).toBeNull()
  })

  it('says nothing for a line moved word for word, a name gone everywhere, or comments only', () => {
    const then = [L('src/a.cs', 2, 'Db.Insert("t_results")')]
    expect(leftEveryFile(then, [L('src/new.ts', 5, 'Db.Insert("t_results")')], changed)).toBeNull()
    expect(leftEveryFile(then, [], changed)).toBeNull()
    expect(
      leftEveryFile(then, [L('src/new.ts', 1, '// t_results was renamed')], changed),
    ).toBeNull()
  })

  it('takes a literal that is the name as code, a message that holds it as words (blind set BY)', () => {
    const now = [L('scripts/m.py', 1, 'gl = WebGL.create()')]
    const table = [L('src/a.cs', 2, 'if (Db.TableExists(conn, "WebGL")) return;')]
    expect(leftEveryFile(table, now, changed, 'WebGL')?.onlyIn).toEqual(['scripts/m.py'])
    const message = [L('src/a.cs', 2, "console.warn('WebGL not supported, falling back')")]
    expect(leftEveryFile(message, now, changed, 'WebGL')).toBeNull()
  })
})

describe('reflowed', () => {
  const now = [
    '<head>',
    '  <link',
    '    rel="preload"',
    '    href="/a.jpg"',
    '  />',
    '</head>',
  ].join('\n')
  it('takes a line wrapped over several lines, or re-spaced, as the same code', () => {
    expect(reflowed('<link rel="preload" href="/a.jpg" />', now, 3)).toBe(true)
    expect(reflowed('call(alpha, beta)', 'x\ncall(\n  alpha,\n  beta,\n)\n', 2)).toBe(true)
  })
  it('does not when a word changed, or the code is elsewhere in the file', () => {
    expect(reflowed('<link rel="prefetch" href="/a.jpg" />', now, 3)).toBe(false)
    const far = `${'// filler\n'.repeat(40)}call(alpha, beta)\n`
    expect(reflowed('call(alpha, beta)', far, 1)).toBe(false)
  })
})

describe('literalsOnly and codeOf (hidden set G)', () => {
  it('takes a line whose code is the same but for versions the note does not write', () => {
    const then = "export const APP_VERSION = '2.2.464';"
    const now = "export const APP_VERSION = '2.710.0';"
    expect(literalsOnly(then, now, 'Bump `APP_VERSION` in `src/version.js`')).toBe(true)
    // The note writes the old value: the change is its claim.
    expect(literalsOnly(then, now, '`APP_VERSION` is 2.2.464')).toBe(false)
    // Code that changed beside the literal is a change.
    expect(literalsOnly(then, "export let APP_VERSION = '2.710.0';", '')).toBe(false)
    // Any other value is behaviour (item 5), stated or not.
    expect(literalsOnly('const LIMIT = 30;', 'const LIMIT = 60;', 'the limit')).toBe(false)
    expect(literalsOnly("const API = 'a.io';", "const API = 'b.io';", '')).toBe(false)
    expect(literalsOnly('enabled = true', 'enabled = false', '')).toBe(false)
    expect(literalsOnly('const A = 1;', 'const A = 1;', '')).toBe(false)
  })

  it('cuts a trailing comment off a code line, not a URL or a colour', () => {
    expect(codeOf('const CHUNK = 1000; // PostgREST cap')).toBe('const CHUNK = 1000;')
    expect(codeOf('limit = 5  # server cap')).toBe('limit = 5 ')
    expect(codeOf('SELECT 1 -- note')).toBe('SELECT 1')
    expect(codeOf("const u = 'https://x.io/a'")).toBe("const u = 'https://x.io/a'")
    expect(codeOf('color: #fff;')).toBe('color: #fff;')
    expect(codeOf('call(/* PostgREST */ x)')).toBe('call(  x)')
  })
})

describe('a call at the start of a line is not a definition (hidden set I)', () => {
  const at = (file: string, line: number, text: string): CodeLine => ({ file, line, text })
  const now = ['a.rb', 'b.rb', 'c.rb', 'd.rb'].map((f) => at(f, 1, '  Failure([:other, x])'))

  it('drops a changed use of a widely used name in a file the note does not name', () => {
    const then = [at('gw.rb', 36, '  Failure([ :timeout, "timed out" ])')]
    const changed = [at('gw.rb', 38, '  Failure([ :timeout, TIMEOUT_MESSAGE ])')]
    const opts = { nowAnywhere: [...now, ...changed], name: 'Failure' }
    expect(lostLines(then, changed, opts)).toEqual([])
  })

  it('still keeps a changed definition of it (`def`, `X = `, a method `X(a) {`)', () => {
    for (const [was, is] of [
      ['  def Failure(tuple)', '  def Failure(pair)'],
      ['Failure = build(1)', 'Failure = build(2)'],
      ['  Failure(a) {', '  Failure(b) {'],
    ]) {
      const lost = lostLines([at('gw.rb', 1, was)], [at('gw.rb', 1, is)], {
        nowAnywhere: [...now, at('gw.rb', 1, is)],
        name: 'Failure',
      })
      expect(lost.map((l) => l.then.text)).toEqual([was])
    }
  })
})

describe('migrations are history, not uses (hidden set G)', () => {
  const at = (file: string, line: number, text: string): CodeLine => ({ file, line, text })
  const migrations = [1, 2, 3, 4, 5].map((i) =>
    at(`supabase/migrations/2026080${i}_x.sql`, 1, 'CREATE OR REPLACE FUNCTION upsert_customers('),
  )
  const then = [at('supabase/functions/sync/index.ts', 9, "await db.rpc('upsert_customers', rows)")]

  it('keeps the lost call site of a name that only migrations hold now', () => {
    const lost = lostLines(then, [], { nowAnywhere: migrations, name: 'upsert_customers' })
    expect(lost.map((l) => l.then.file)).toEqual(['supabase/functions/sync/index.ts'])
    // Shown beside a use now, not beside a migration that still creates it.
    const use = at('scripts/fix.py', 3, 'client.call("upsert_customers", names=pending)')
    const grant = at(
      'supabase/migrations/20260809_g.sql',
      2,
      "SELECT db.rpc('upsert_customers', rows);",
    )
    const shown = lostLines(then, [grant, use], {
      nowAnywhere: [...migrations, grant, use],
      name: 'upsert_customers',
    })
    expect(shown.map((l) => l.now?.file)).toEqual(['scripts/fix.py'])
  })

  it('still drops it when as many code files use the name', () => {
    const uses = [1, 2, 3, 4].map((i) => at(`src/c${i}.ts`, 1, "db.rpc('upsert_customers', x)"))
    expect(lostLines(then, [], { nowAnywhere: uses, name: 'upsert_customers' })).toEqual([])
  })

  it("drops a migration's lost line while the name lives on: history squashed (blind set BZ)", () => {
    const legacy = at(
      'supabase/legacy_migrations/1_legacy.sql',
      14,
      'CREATE TABLE public.unified_tags (',
    )
    const now = at('supabase/migrations/2_vocab.sql', 180, 'insert into public.unified_tags (')
    expect(lostLines([legacy], [now], { nowAnywhere: [now], name: 'unified_tags' })).toEqual([])
    // Unless the note names the migration.
    const named = new Set([legacy.file])
    expect(
      lostLines([legacy], [now], { nowAnywhere: [now], name: 'unified_tags', named }).length,
    ).toBe(1)
  })

  it('knows a migration folder by its name', () => {
    for (const f of ['db/migrate/1_a.rb', 'supabase/migrations-legacy/a.sql', 'app/migration/a.py'])
      expect(isMigrationFile(f)).toBe(true)
    for (const f of ['src/migrationTool/a.ts', 'src/app.ts']) expect(isMigrationFile(f)).toBe(false)
  })
})

describe('an access modifier is not behaviour (hidden set K)', () => {
  it('takes a line whose code is the same but for access modifiers the note does not write', () => {
    const then = '  private(set) var selectedSession: ClaudeSession?'
    expect(accessOnly(then, '  var selectedSession: ClaudeSession?', '')).toBe(true)
    expect(accessOnly('export const A = 1', 'const A = 1', 'A is 1')).toBe(true)
    // The note writes the modifier: it is the claim.
    expect(accessOnly(then, '  var selectedSession: ClaudeSession?', 'it is private(set)')).toBe(
      false,
    )
    // Another change beside it counts.
    expect(accessOnly(then, '  var selectedSession: Session?', '')).toBe(false)
    expect(accessOnly('static var a = 1', 'var a = 1', '')).toBe(false)
  })

  it('keeps such a line in lostLines, and loses it with another change', () => {
    const at = (text: string): CodeLine => ({ file: 'App/VM.swift', line: 5, text })
    const then = [at('  private(set) var selectedSession: ClaudeSession?')]
    const opts = { name: 'selectedSession', noteText: '`selectedSession` tracks the pane' }
    expect(lostLines(then, [at('  var selectedSession: ClaudeSession?')], opts)).toEqual([])
    expect(lostLines(then, [at('  var selectedSession: Pane?')], opts)).toHaveLength(1)
  })
})

describe('a value changed under a key the note names (blind sets L and M)', () => {
  it('takes a setting line whose key is the name and whose value the note does not write', () => {
    const dev = '    "dev": "concurrently \\"npm run dev:main\\" \\"npm run dev:renderer\\"",'
    expect(
      valueOnly(dev, '    "dev": "node scripts/dev.mjs",', 'dev', 'npm run dev # hot reload'),
    ).toBe(true)
    expect(
      valueOnly('legal_basis: "Art 63"', 'legal_basis:', 'legal_basis', 'cites `legal_basis`'),
    ).toBe(true)
    expect(
      valueOnly('self.timeout = 30', 'self.timeout = 60', 'timeout', 'the `timeout` guard'),
    ).toBe(true)
    const prod = '"dev:prod-data": "USE_PROD_DATA=1 concurrently a b",'
    expect(
      valueOnly(prod, '"dev:prod-data": "node scripts/dev.mjs",', 'dev', '`dev:prod-data`'),
    ).toBe(true)
    // The note writes the old value: it is the claim.
    expect(valueOnly('timeout = 30', 'timeout = 60', 'timeout', '`timeout` is 30')).toBe(false)
    // Not the key, another key, or not a setting.
    expect(valueOnly('"build": "tsc && vite"', '"build": "vite"', 'vite', 'uses vite')).toBe(false)
    expect(valueOnly('dev: a', 'prod: a', 'dev', '')).toBe(false)
    expect(valueOnly('if (x == dev) run()', 'if (x == dev) stop()', 'dev', '')).toBe(false)
    expect(valueOnly('const f = (dev) => 1', 'const f = (dev) => 2', 'dev', '')).toBe(false)
  })

  it('keeps such a line in lostLines, but not a command a package.json runs', () => {
    const at = (file: string, text: string): CodeLine => ({ file, line: 9, text })
    const then = [at('config/schema.yaml', 'legal_basis: "Art 63"')]
    const opts = { name: 'legal_basis', noteText: 'schemas cite a `legal_basis`' }
    expect(lostLines(then, [at('config/schema.yaml', 'legal_basis:')], opts)).toEqual([])
    expect(lostLines(then, [at('config/schema.yaml', 'legalBasis: "Art 63"')], opts)).toHaveLength(
      1,
    )
    // `pnpm test # Run tests (Node.js)`: the command is what the note describes.
    const test = [at('package.json', '    "test": "node run-tests.js",')]
    const cmd = { name: 'test', noteText: 'pnpm test # Run tests (Node.js)' }
    expect(lostLines(test, [at('package.json', '    "test": "vitest run",')], cmd)).toHaveLength(1)
  })
})

describe('a file named after a type the note names is named (hidden set K)', () => {
  const at = (file: string, line: number, text: string): CodeLine => ({ file, line, text })
  const then = [at('App/Settings.swift', 94, '    ClaudeThemeSync.apply(appearanceMode)')]
  const now = [at('App/Settings.swift', 140, '    themeSync: ThemeSyncing = ClaudeThemeSync(),')]
  const view = at('App/ContentView.swift', 30, '    ClaudeThemeSync.apply(.system)')
  const opts = { name: 'ClaudeThemeSync', nowAnywhere: [...now, view] }

  it('counts only the lines of `ContentView.swift` for a note naming `ContentView`', () => {
    expect(lostLines(then, now, { ...opts, types: new Set(['ContentView']) })).toEqual([])
    // Without the type, the call refactored in another file is a loss.
    expect(lostLines(then, now, opts)).toHaveLength(1)
    // A type whose file does not hold the name restricts nothing.
    expect(lostLines(then, now, { ...opts, types: new Set(['AppDelegate']) })).toHaveLength(1)
  })
})

describe('a call passed on, or a local renamed, is not what the name does (blind set P)', () => {
  const f = 'server/ChunkManager.java'
  it('takes a nested call kept to the end of the line, the outer call changed', () => {
    const then = '    player.sendPacket(new MapChunkPacketV573('
    expect(
      callPassedOn(then, '  collected.add(new MapChunkPacketV573(', 'MapChunkPacketV573'),
    ).toBe(true)
    // The call itself changed, or it stands alone (sync → async), or the name is not called.
    expect(
      callPassedOn(then, '  collected.add(new MapChunkPacketV573(x,', 'MapChunkPacketV573'),
    ).toBe(false)
    expect(
      callPassedOn('clearResumeState();', 'await clearResumeState();', 'clearResumeState'),
    ).toBe(false)
    expect(
      callPassedOn('emit({ b: m.holonBalance })', 'create({ b: m.holonBalance })', 'holonBalance'),
    ).toBe(false)
  })

  it('takes one lower-case local renamed that the note does not write', () => {
    const then = 'VarInts.writeInt(data, airRuntimeId);'
    expect(localRenamed(then, 'VarInts.writeInt(buf, airRuntimeId);', 'VarInts.writeInt', '')).toBe(
      true,
    )
    // The note writes it; a type, a property, a key, the name itself, or two tokens changed.
    expect(
      localRenamed(then, 'VarInts.writeInt(buf, airRuntimeId);', 'VarInts.writeInt', 'writes data'),
    ).toBe(false)
    expect(localRenamed('f(ByteBuf a)', 'f(ByteBufAllocator a)', 'f', '')).toBe(false)
    expect(localRenamed('x = cfg.mode', 'x = cfg.theme', 'x', '')).toBe(false)
    expect(localRenamed('{ light: 1 }', '{ dark: 1 }', 'x', '')).toBe(false)
    expect(localRenamed('run(a)', 'walk(a)', 'run', '')).toBe(false)
    expect(localRenamed('f(a, b)', 'f(c, d)', 'f', '')).toBe(false)
  })

  it('keeps such lines in lostLines, and loses a line that changed otherwise', () => {
    const then = [L(f, 9, '    player.sendPacket(new MapChunkPacketV573(')]
    const opts = { name: 'MapChunkPacketV573', noteText: 'Requires `MapChunkPacketV573`' }
    expect(lostLines(then, [L(f, 40, '  collected.add(new MapChunkPacketV573(')], opts)).toEqual([])
    expect(
      lostLines(then, [L(f, 40, '  collected.add(new MapChunkPacketV577(')], opts),
    ).toHaveLength(1)
    const w = [L(f, 3, 'VarInts.writeInt(data, id);')]
    const o2 = { name: 'VarInts.writeInt', noteText: 'use `VarInts.writeInt`' }
    expect(lostLines(w, [L(f, 3, 'VarInts.writeInt(buf, id);')], o2)).toEqual([])
    expect(lostLines(w, [L(f, 3, 'VarInts.writeUnsignedInt(buf, id);')], o2)).toHaveLength(1)
  })
})

describe('a value bound anew is the same use (blind set R)', () => {
  const f = 'apps/action/src/index.ts'
  it('takes a local folded into an object with the same value, and no other change', () => {
    const then = "const maxTurns = core.getInput('max-turns');"
    expect(boundAnew(then, "  maxTurns: core.getInput('max-turns'),", 'maxTurns')).toBe(true)
    expect(boundAnew('maxTurns = 5', 'let maxTurns = 5;', 'maxTurns')).toBe(true)
    // Another value, another name, or the same line.
    expect(boundAnew(then, "  maxTurns: core.getInput('turns'),", 'maxTurns')).toBe(false)
    expect(boundAnew(then, "  maxRounds: core.getInput('max-turns'),", 'maxTurns')).toBe(false)
    expect(boundAnew(then, then, 'maxTurns')).toBe(false)
    expect(boundAnew('Role::Tool => 1', 'Role: 1', 'Role')).toBe(false)
  })

  it('keeps such a definition in lostLines', () => {
    const then = [L(f, 9, "const maxTurns = core.getInput('max-turns');")]
    const opts = { name: 'maxTurns', noteText: 'a `maxTurns` guard' }
    expect(lostLines(then, [L(f, 12, "  maxTurns: core.getInput('max-turns'),")], opts)).toEqual([])
    expect(lostLines(then, [L(f, 12, '  maxTurns: 10,')], opts)).toHaveLength(1)
  })
})

describe('a name passed as an argument, the call around it changed (blind sets AF and AG)', () => {
  const boost = 'scoring.INTERACTION_BOOST'
  const then = 'self.store.reinforce(decision.target_id, boost=scoring.INTERACTION_BOOST["create"])'
  it('keeps the name with its own index, key and neighbours the same', () => {
    const now = 'self.store.reinforce(target_id, boost=scoring.INTERACTION_BOOST["create"])'
    expect(argumentKept(then, now, boost, 'Interaction boosts')).toBe(true)
    const reg = 'builder.Services.AddExceptionHandler<GlobalExceptionHandler>();'
    const moved = 'services.AddExceptionHandler<GlobalExceptionHandler>();'
    expect(argumentKept(reg, moved, 'GlobalExceptionHandler', '')).toBe(true)
    expect(argumentKept('x = run(a, helper(b))', 'x = walk(a, helper(b))', 'helper', '')).toBe(true)
  })

  it("counts a change to the name's own phrase, its key, its place, or a word the note writes", () => {
    const view = 'self.store.reinforce(target_id, boost=scoring.INTERACTION_BOOST["view"])'
    expect(argumentKept(then, view, boost, '')).toBe(false)
    const key = 'self.store.reinforce(target_id, weight=scoring.INTERACTION_BOOST["create"])'
    expect(argumentKept(then, key, boost, '')).toBe(false)
    const now = 'self.store.reinforce(target_id, boost=scoring.INTERACTION_BOOST["create"])'
    expect(argumentKept(then, now, boost, 'reinforces the `decision` target')).toBe(false)
    // The callee's own arguments are its call; a generic's owner is its place; a key in quotes
    // is paired with its value.
    expect(argumentKept('foo(a, b)', 'foo(a)', 'foo', '')).toBe(false)
    expect(argumentKept('List<Handler> x;', 'Set<Handler> x;', 'Handler', '')).toBe(false)
    const add = (v: string): string => `Out.Add(TEXT("asset_in_registry"), ${v});`
    expect(argumentKept(add('a > 0'), add('ok'), 'asset_in_registry', '')).toBe(false)
  })

  it('keeps such a line in lostLines, in its file or moved to another', () => {
    const f = 'engraphis/core/engine.py'
    const now = [
      L(
        f,
        1164,
        '        self.store.reinforce(target_id, boost=scoring.INTERACTION_BOOST["create"])',
      ),
    ]
    expect(lostLines([L(f, 119, then)], now, { name: boost, noteText: '' })).toEqual([])
    const reg = [
      L(
        'Invoicer/Program.cs',
        98,
        'builder.Services.AddExceptionHandler<GlobalExceptionHandler>();',
      ),
    ]
    const ext = 'Invoicer/Infrastructure/ServiceExtensions.cs'
    const moved = [L(ext, 25, 'services.AddExceptionHandler<GlobalExceptionHandler>();')]
    const opts = { name: 'GlobalExceptionHandler', noteText: '', nowAnywhere: moved }
    expect(lostLines(reg, moved, opts)).toEqual([])
    // The note names the file it was registered in: it is gone from there.
    expect(lostLines(reg, moved, { ...opts, named: new Set([reg[0].file]) })).toHaveLength(1)
  })
})

describe('a local bound in many files is no one symbol (blind set AF)', () => {
  const bind = (f: string, rhs: string): CodeLine => L(f, 39, `  const storeId = ${rhs}`)
  const routes = ['a', 'b', 'c', 'd'].map((r) => bind(`app/api/${r}/route.ts`, 'lojaId(req)'))
  const then = [bind('app/api/e/route.ts', 'lojaId(req) || "loja-1"')]
  const now = [bind('app/api/e/route.ts', 'lojaId(req)')]
  const name = 'storeId'
  it('does not count one of its bindings changed', () => {
    expect(lostLines(then, now, { name, nowAnywhere: [...routes, ...now] })).toEqual([])
  })
  it('counts it in fewer files, in a file the note names, or when it is no local', () => {
    expect(lostLines(then, now, { name, nowAnywhere: [...routes.slice(2), ...now] })).toHaveLength(
      1,
    )
    const named = new Set([then[0].file])
    expect(lostLines(then, now, { name, named, nowAnywhere: [...routes, ...now] })).toHaveLength(1)
    const fields = routes.map((l) => ({ ...l, text: '  storeId = lojaId(req)' }))
    const was = [{ ...then[0], text: '  storeId = lojaId(req) || "loja-1"' }]
    const is = [{ ...now[0], text: '  storeId = lojaId(req)' }]
    expect(lostLines(was, is, { name, nowAnywhere: [...fields, ...is] })).toHaveLength(1)
  })
})

describe('a notebook and a local passed on are no code the note describes (blind set AH)', () => {
  it('leaves a notebook cell out when the name lives in code', () => {
    const nb = 'notebooks/data_preparation.ipynb'
    const cell = `"alpaca = Alpaca(os.environ['ALPACA_API_KEY'])\\n",`
    const code = L('src/tiportfolio/data.py', 64, 'api_key = os.environ.get("ALPACA_API_KEY", "")')
    const name = 'ALPACA_API_KEY'
    expect(lostLines([L(nb, 28, cell), code], [code], { name })).toEqual([])
    // A name that lives only in notebooks is judged on their lines.
    expect(lostLines([L(nb, 28, cell)], [L(nb, 28, '"alpaca = None\\n",')], { name })).toHaveLength(
      1,
    )
  })

  it('takes `name: name` for a use, which a name many files hold does not lose', () => {
    const name = 'world_config'
    const uses = ['a', 'b', 'c', 'd'].map((f) => L(`src/${f}.ts`, 3, 'if (!world_config) return'))
    const then = [L('src/app/page.tsx', 522, '        world_config: world_config,')]
    expect(lostLines(then, [], { name, nowAnywhere: uses })).toEqual([])
    // A key given a value of its own in a literal is a use too (blind sets BQ and BR), but a
    // binding that ends the statement is a definition, and stays lost.
    const own = [L('src/app/page.tsx', 522, '        world_config: defaults(),')]
    expect(lostLines(own, [], { name, nowAnywhere: uses })).toEqual([])
    const bound = [L('src/app/page.tsx', 522, 'world_config = defaults()')]
    expect(lostLines(bound, [], { name, nowAnywhere: uses })).toHaveLength(1)
  })
})

describe('a field given a value, a setting in another syntax (blind sets BQ and BR)', () => {
  it('takes `key: value,` and `Key = value,` for uses of a name many files hold', () => {
    const uses = ['a', 'b', 'c', 'd'].map((f) => L(`src/${f}.ts`, 3, 'row.client_id'))
    const lost = (text: string, name: string, nowAnywhere = uses): number =>
      lostLines([L('app/page.tsx', 337, text)], [], { name, nowAnywhere }).length
    expect(lost('    client_id: selectedClientId,', 'client_id')).toBe(0)
    expect(lost('    Path = Security.ToRelative(fs, root, p),', 'Path')).toBe(0)
    // In fewer files, a changed use is still a change.
    expect(lost('    client_id: selectedClientId,', 'client_id', uses.slice(0, 2))).toBe(1)
    // A declaration or a binding that ends its statement defines the name.
    expect(lost('export const client_id = pick(a, b);', 'client_id')).toBe(1)
    expect(lost('  client_id: string;', 'client_id')).toBe(1)
  })

  it('does not lose a key-value line whose key and value another file sets in its own syntax', () => {
    const name = 'QYL_PORT'
    const then = [L('compose.yaml', 14, '            QYL_PORT: 5100')]
    for (const text of ['      - QYL_PORT=5100', "      QYL_PORT: '5100',", '"QYL_PORT": "5100",'])
      expect(lostLines(then, [], { name, nowAnywhere: [L('eng/compose.yaml', 15, text)] })).toEqual(
        [],
      )
    // A constant moved to another file with `export` and other quotes sets the same (blind set BV).
    const decl = [L('src/cms/domain.ts', 37, 'const SLUGS = "cms_domain_slugs";')]
    const moved = [L('src/cms/core.ts', 39, "export const SLUGS = 'cms_domain_slugs';")]
    expect(lostLines(decl, [], { name: 'cms_domain_slugs', nowAnywhere: moved })).toEqual([])
    const renamed = [L('src/cms/core.ts', 39, "export const SLUGS = 'cms_slugs';")]
    expect(lostLines(decl, [], { name: 'cms_domain_slugs', nowAnywhere: renamed })).toHaveLength(1)
    // Another value is a change.
    const other = [L('eng/compose.yaml', 15, '      - QYL_PORT=5200')]
    expect(lostLines(then, [], { name, nowAnywhere: other })).toHaveLength(1)
  })
  it("reads an env template's line by its key, its value a placeholder (blind set BT)", () => {
    const name = 'GOOGLE_API_KEY'
    const then = [L('.env.example', 5, 'GOOGLE_API_KEY=your-google-api-key')]
    const now = [L('deploy/.env.example', 2, 'GOOGLE_API_KEY=')]
    expect(lostLines(then, [], { name, nowAnywhere: now })).toEqual([])
    // Set now only by code, or by a file that is no template, the template's line is lost.
    const code = [L('mise.toml', 63, '  -e GOOGLE_API_KEY \\')]
    expect(lostLines(then, [], { name, nowAnywhere: code })).toHaveLength(1)
    const env = [L('deploy/.env', 2, 'GOOGLE_API_KEY=')]
    expect(lostLines(then, [], { name, nowAnywhere: env })).toHaveLength(1)
  })

  it("takes a function's local for no symbol of a name many files hold (blind set BT)", () => {
    const name = 'rate'
    const uses = ['a', 'b', 'c', 'd'].map((f) => L(`src/${f}.ts`, 3, 'return rate * 2'))
    const lost = (text: string, named?: ReadonlySet<string>): number =>
      lostLines([L('src/run.tsx', 310, text)], [], { name, nowAnywhere: uses, named }).length
    expect(lost('    const rate = passRates[cat] ?? -1;')).toBe(0)
    expect(lost('\trate := float64(n) / total')).toBe(0)
    // A module's binding, or a local in a file the note names, still counts.
    expect(lost('const rate = passRates[cat] ?? -1;')).toBe(1)
    expect(lost('    const rate = passRates[cat] ?? -1;', new Set(['src/run.tsx']))).toBe(1)
  })
})
