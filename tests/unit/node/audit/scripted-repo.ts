/**
 * The scripted repository the audit tests run on: a history with a rename chain, a deletion,
 * edited quotes, scripts and make targets, and a memory folder whose notes name them. Each
 * test file that imports this builds its own copy in its own temp folder.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { AuditNote } from '../../../../src/shared/model'
import { git, gitAt } from '../../../helpers/git'

export const base = realpathSync(mkdtempSync(join(tmpdir(), 'mc-audit-')))
export const repo = join(base, 'repo')
export const mem = join(base, 'memory')
export const shas: Record<string, string> = {}

export function write(root: string, rel: string, text: string | Buffer): void {
  const p = join(root, rel)
  mkdirSync(dirname(p), { recursive: true })
  writeFileSync(p, text)
}

function commit(label: string, date: string): void {
  git(repo, 'add', '-A')
  gitAt(date, repo, 'commit', '-q', '-m', label)
  shas[label] = git(repo, 'rev-parse', 'HEAD').trim().slice(0, 7)
}

export const TOTAL = [
  'export function computeTotal(items: Item[]): number {',
  '  let sum = 0',
  '  for (const item of items) {',
  '    sum += item.price * item.quantity',
  '  }',
  '  return sum',
  '}',
].join('\n')

const BIG = Array.from({ length: 5000 }, (_, i) => `export const value${i} = ${i} * 3 + 1`).join(
  '\n',
)

/** A time for the scripted notes after c1 and before every later change (they went stale since). */
export const BEFORE_CHANGES = '2026-01-15T00:00:00Z'

export const topic = (body: string, date = '2026-03-10T00:00:00Z'): string =>
  `---\nname: t\ndescription: a note\ntype: project\nupdated: ${date}\n---\n${body}\n`

/**
 * Build the repository and the memory folder (once per test file, in `beforeAll`); the topic
 * notes say they were written at `notesWritten`.
 */
export function buildScriptedRepo(notesWritten = '2026-03-10T00:00:00Z'): void {
  mkdirSync(repo)
  git(repo, 'init', '-q', '-b', 'main')
  write(repo, 'src/auth/session.ts', 'export function createSession() {\n  return 1\n}\n')
  write(
    repo,
    'src/a.ts',
    'export const helpers = 1\n// helper module with enough text to be renamed\n',
  )
  write(repo, 'src/billing/total.ts', `import type { Item } from './item'\n\n${TOTAL}\n`)
  write(repo, 'src/old.ts', 'export function parseLegacy() {\n  return 0\n}\n')
  write(repo, 'src/stable.ts', 'export const stableValue = 7\n')
  write(repo, 'src/edited.ts', 'export const RETRY_LIMIT = 3\nexport function retry() {}\n')
  write(repo, 'src/util.ts', 'export function legacyHelper() {}\nexport function keptHelper() {}\n')
  write(repo, 'src/big.ts', `${BIG}\n`)
  write(
    repo,
    'package.json',
    JSON.stringify(
      { name: 'x', scripts: { build: 'tsc', lint: 'eslint .', test: 'vitest' } },
      null,
      2,
    ),
  )
  write(
    repo,
    'Makefile',
    '.PHONY: deploy test\ndeploy: build\n\t./scripts/release.sh\ntest:\n\tnpm test\nVAR := 1\n',
  )
  write(repo, 'scripts/release.sh', '#!/bin/sh\necho release\n')
  write(repo, 'docs/my guide/ünï code.md', '# Guide\n')
  write(repo, 'assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3, 0, 255]))
  write(
    repo,
    'CLAUDE.md',
    '# Project\n\n- Build with `npm run build`.\n- Helpers live in `src/a.ts`.\n- `onlyInClaudeMd()` is named nowhere else.\n',
  )
  commit('c1', '2026-01-01T12:00:00Z')
  git(repo, 'mv', 'src/a.ts', 'src/b.ts')
  commit('c2', '2026-02-01T12:00:00Z')
  git(repo, 'mv', 'src/auth/session.ts', 'src/auth/token-session.ts')
  commit('c3', '2026-03-01T12:00:00Z')
  git(repo, 'mv', 'src/b.ts', 'src/c.ts')
  git(repo, 'rm', '-q', 'src/old.ts')
  write(
    repo,
    'package.json',
    JSON.stringify({ name: 'x', scripts: { build: 'tsc', test: 'vitest' } }, null, 2),
  )
  write(repo, 'src/util.ts', 'export function keptHelper() {}\n')
  commit('c4', '2026-03-05T12:00:00Z')
  write(
    repo,
    'src/billing/total.ts',
    `import type { Item } from './item'\n\n${TOTAL.replace('item.quantity', 'item.qty')}\n`,
  )
  write(repo, 'src/edited.ts', 'export const RETRY_LIMIT = 5\nexport function retry() {}\n')
  commit('c5', '2026-04-01T12:00:00Z')

  mkdirSync(mem)
  const entries = [
    [
      'Session handling',
      'session.md',
      'Sessions are created in `src/auth/session.ts` by `createSession()`.',
    ],
    ['Helpers', 'helpers.md', 'Helpers live in `src/a.ts`.'],
    ['Legacy parser', 'legacy.md', '`src/old.ts` holds the legacy parser.'],
    ['Scripts', 'scripts.md', 'Run `npm run lint` before pushing; `npm run build` compiles.'],
    ['Dates', 'dates.md', '`legacyHelper()` in src/util.ts formats dates.'],
    ['Stable', 'stable.md', '`src/stable.ts` exports `stableValue`.'],
    ['Retries', 'retries.md', 'Retries are handled in src/edited.ts.'],
    ['Team', 'team.md', 'The team prefers small pull requests and reviews on Fridays.'],
    ['Totals', 'totals.md', `Totals:\n\n\`\`\`ts\n${TOTAL}\n\`\`\``],
    [
      'Answer',
      'answer.md',
      'The answer helper:\n\n```js\nfunction neverWritten() {\n  return 42\n}\n```',
    ],
    ['Make', 'make.md', 'Deploy with `make deploy`; `make publish` uploads.'],
    ['Guide', 'guide.md', 'The guide is `docs/my guide/ünï code.md`.'],
    ['Logo', 'logo.md', 'The logo is `assets/logo.png`.'],
    ['Values', 'values.md', `All values:\n\n\`\`\`ts\n${BIG}\n\`\`\``],
    ['Links', 'links.md', 'See https://example.com/docs and branch `release/2.x`.'],
    ['Limit', 'limit.md', 'The limit is `const RETRY_LIMIT = 3` in the code.'],
    ['Release script', 'release.md', 'Release with `./scripts/release.sh`.'],
  ]
  const index = [
    '# Memory',
    '',
    ...entries.map(([t, f]) => `- [${t}](${f}) — about ${t.toLowerCase()}`),
    '- [Gone](gone.md) — dangling',
  ]
  writeFileSync(join(mem, 'MEMORY.md'), `${index.join('\n')}\n`)
  for (const [, f, body] of entries) writeFileSync(join(mem, f), topic(body, notesWritten))
  writeFileSync(join(mem, 'orphan.md'), topic('Orphaned: `src/c.ts` is the helper module.'))
}

/** Remove the temp folder and everything the tests made in it. */
export function removeBase(): void {
  rmSync(base, { recursive: true, force: true })
}

export const byTitle = (notes: readonly AuditNote[], title: string): AuditNote => {
  const n = notes.find((x) => x.title === title)
  if (!n) throw new Error(`no note ${title}`)
  return n
}

/** References without their diff basis (issue 12 item 8; note-diffs tests cover it). */
export const plain = (
  refs: AuditNote['references'],
): Omit<AuditNote['references'][number], 'compare'>[] =>
  refs.map(({ compare: _compare, ...r }) => r)
