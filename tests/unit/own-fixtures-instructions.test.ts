/**
 * The instruction-file rules the shared-corpus tests check (cutoff, notes, imports, rules and
 * load order), on fixtures this project wrote itself (tests/fixtures/README.md), so a clone with
 * no ../shared/corpus still covers them. Figures are those of our fixtures.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawDirOrder } from '../helpers/raw-dir'
import { computeCutoff } from '../../src/core/cutoff'
import { findImports } from '../../src/core/imports'
import { stripForLoading } from '../../src/core/markdown-strip'
import { notesFromInstructionFile } from '../../src/core/notes'
import { parseRule, ruleMatches } from '../../src/core/rules'
import { loadOrder } from '../../src/node/load-order'
import { FIXTURES_ROOT } from '../helpers/corpus'

const INSTRUCTIONS = `${FIXTURES_ROOT}/instructions`
const RULES = `${FIXTURES_ROOT}/rules`
const read = (path: string): string => readFileSync(path, 'utf8')

describe('a CLAUDE.md that starts with a block-level HTML comment', () => {
  const path = `${INSTRUCTIONS}/comment-first-CLAUDE.md`

  it('cutoff: the 3 comment lines are stripped and counted out of lines, characters and bytes', () => {
    const text = read(path)
    const r = computeCutoff({ file: path, text, totalBytes: Buffer.byteLength(text), topicFiles: [] })
    const disk = text.split('\n')
    disk.pop() // the file ends with a newline
    expect(disk[0].startsWith('<!--')).toBe(true)
    expect(disk[2].endsWith('-->')).toBe(true)
    // 18 lines; 613 bytes but 608 characters (two em dashes and an é).
    expect([r.totalLines, r.totalChars, r.totalBytes]).toEqual([18, 608, 613])
    // Lines 1–3 are the comment; what remains is trimmed (memory-facts §2 [agent]), so the blank
    // line 4 goes too: 14 lines load.
    const rest = disk.slice(3).join('\n').trim()
    expect([r.loadedLines, r.loadedChars, r.loadedBytes]).toEqual([14, rest.length, Buffer.byteLength(rest)])
    expect([rest.length, Buffer.byteLength(rest)]).toEqual([397, 400])
    expect(r.limitHit).toBeNull()
    expect(r.firstUnloadedLine).toBeNull()
    expect(r.problems).toEqual([])
    const stripped = stripForLoading(text)
    expect(stripped.lineMap[0]).toBe(4)
    expect(stripped.text.includes('Maintainers')).toBe(false)
    expect(stripped.text.startsWith('\n# Café Ledger\n')).toBe(true)
  })

  it('notes: the first note is the paragraph on line 7, not the comment', () => {
    const notes = notesFromInstructionFile(path, read(path))
    expect(notes[0].line).toBe(7)
    expect(notes[0].title).toBe(
      'This guide is for Claude Code and for people: it says how the ledger service is…',
    )
    expect(notes.some((n) => n.title.includes('Maintainers'))).toBe(false)
  })
})

describe('a CLAUDE.md that is only @AGENTS.md, and that AGENTS.md', () => {
  it('imports: the one line is one import of AGENTS.md', () => {
    expect(findImports(read(`${INSTRUCTIONS}/import-only-CLAUDE.md`))).toEqual([
      { raw: 'AGENTS.md', path: 'AGENTS.md', line: 1 },
    ])
  })

  it('notes: paragraphs with their indented commands, at their disk lines', () => {
    const path = `${INSTRUCTIONS}/import-only-AGENTS.md`
    const notes = notesFromInstructionFile(path, read(path))
    expect(notes.map((n) => [n.line, n.endLine, n.title])).toEqual([
      [1, 3, 'Uses pnpm. Check the types like this:'],
      [5, 7, 'Start the local server like this:'],
      [9, 9, 'Write the failing test first, then the code that makes it pass.'],
      [11, 11, 'Keep commits small: one behaviour with its test and its docs.'],
    ])
    expect(notes.every((n) => n.kind === 'instruction' && n.file === path)).toBe(true)
  })
})

describe('a CLAUDE.local.md whose back-ticked @docs/… are code spans', () => {
  it('imports: none, though the same text without back-ticks has four', () => {
    const text = read(`${INSTRUCTIONS}/code-spans-CLAUDE.local.md`)
    expect(text).toContain('`@docs/guides/naming.md`')
    expect(text).toContain('``@docs/guides/money.md``')
    expect(findImports(text)).toEqual([])
    // Control: the parser does see these paths once they are plain text.
    expect(findImports(text.replaceAll('`', '')).map((i) => [i.path, i.line])).toEqual([
      ['docs/guides/naming.md', 5],
      ['docs/guides/errors.md', 6],
      ['docs/guides/money.md', 7],
      ['docs/guides/index.md', 9],
    ])
  })
})

describe('rules with Cursor-style globs: frontmatter', () => {
  it('both load unconditionally with a globs-not-paths warning', () => {
    for (const name of ['globs-tests.md', 'globs-typescript.md']) {
      const r = parseRule(read(`${RULES}/${name}`))
      expect(r.condition).toEqual({ kind: 'unconditional' })
      expect(r.warnings.map((w) => w.code)).toEqual(['globs-not-paths'])
    }
  })

  it('the same globs renamed to paths: become a comma-separated pattern list', () => {
    const r = parseRule(read(`${RULES}/globs-typescript.md`).replace(/^globs:/m, 'paths:'))
    expect(r.condition).toEqual({
      kind: 'paths',
      patterns: ['src/api/**/*.ts', 'src/web/**/*.tsx', 'src/worker/**/*.ts'],
    })
    expect(ruleMatches(r.condition, 'src/web/pages/home.tsx')).toBe(true)
    expect(ruleMatches(r.condition, 'src/db/schema.ts')).toBe(false)
  })

  it('a globs: value starting with ** (a YAML alias sign) renamed to paths: still parses', () => {
    const r = parseRule(read(`${RULES}/globs-tests.md`).replace(/^globs:/m, 'paths:'))
    expect(r.condition).toEqual({
      kind: 'paths',
      patterns: ['**/*.test.ts', '**/*.spec.tsx', '**/test_*.py'],
    })
    expect(ruleMatches(r.condition, 'src/api/ledger.test.ts')).toBe(true)
    expect(ruleMatches(r.condition, 'src/api/ledger.ts')).toBe(false)
  })
})

describe('loadOrder on these fixtures in a real git repository', () => {
  let root: string
  const p = (rel: string) => join(root, rel)
  const put = (from: string, rel: string) => {
    mkdirSync(dirname(p(rel)), { recursive: true })
    copyFileSync(from, p(rel))
  }

  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'own-fixtures-load-')))
    put(`${INSTRUCTIONS}/comment-first-CLAUDE.md`, 'repo/CLAUDE.md')
    put(`${RULES}/globs-tests.md`, 'repo/.claude/rules/tests.md')
    put(`${RULES}/globs-typescript.md`, 'repo/.claude/rules/typescript.md')
    put(`${INSTRUCTIONS}/import-only-CLAUDE.md`, 'repo/sub/CLAUDE.md')
    put(`${INSTRUCTIONS}/import-only-AGENTS.md`, 'repo/sub/AGENTS.md')
    put(`${INSTRUCTIONS}/code-spans-CLAUDE.local.md`, 'repo/sub/CLAUDE.local.md')
    execFileSync('git', ['init', '-q'], { cwd: p('repo'), stdio: 'pipe' })
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('globs rules warn and load, the comment is not counted, @AGENTS.md imports, code spans do not', async () => {
    const r = await loadOrder({
      cwd: p('repo/sub'),
      claudeHome: p('home/.claude'),
      codexHome: p('codex'),
      managedDir: p('managed'),
      env: { HOME: p('home') },
    })
    const mine = <T extends { path: string }>(xs: readonly T[]) => xs.filter((x) => x.path.startsWith(root + '/'))
    expect(mine(r.claude.startup).map((s) => [s.path, s.scope, s.lines, s.chars, s.importedBy])).toEqual([
      // 18 lines less the 3-line comment; 608 characters less the comment's 209.
      [p('repo/CLAUDE.md'), 'project', 15, 399, null],
      // Rule bodies without their frontmatter: 7 and 6 lines, in the raw order the filesystem
      // lists them (memory-facts §3 [agent]).
      ...rawDirOrder(p('repo/.claude/rules')).map((n) =>
        n === 'tests.md' ? [p('repo/.claude/rules/tests.md'), 'rule', 7, 241, null] : [p('repo/.claude/rules/typescript.md'), 'rule', 6, 172, null],
      ),
      [p('repo/sub/CLAUDE.md'), 'project', 1, 11, null],
      [p('repo/sub/AGENTS.md'), 'import', 11, 250, p('repo/sub/CLAUDE.md')],
      [p('repo/sub/CLAUDE.local.md'), 'local', 9, 327, null],
    ])
    expect(mine(r.claude.warnings).map((w) => [w.path, w.code])).toEqual(
      rawDirOrder(p('repo/.claude/rules')).map((n) => [p(`repo/.claude/rules/${n}`), 'globs-not-paths']),
    )
    expect(mine(r.claude.skipped)).toEqual([])
    // Codex reads AGENTS.md where it stands (one file per folder; none in repo/).
    expect(r.codex.files.map((f) => f.path)).toEqual([p('repo/sub/AGENTS.md')])
  })
})
