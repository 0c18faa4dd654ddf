/**
 * A Claude home whose one project has a repository with a scripted history, so its notes
 * come out fresh, suspect, stale and unverifiable (docs/cli.md §7 `audit`): a renamed
 * file, a deleted script, a removed symbol, and a file edited after the note was written.
 * Built fresh in a temp folder per test; never touches the real ~/.claude.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import { transcriptLine } from './fixture-home'
import { createTempHomes, homeArgs } from './temp-homes'
import { commitFiles, git, gitAt } from './git'

export interface AuditFixture {
  readonly root: string
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  readonly stateDir: string
  readonly repo: string
  readonly memoryDir: string
  readonly index: string
  /** Titles of the notes by the verdict the audit must give them. */
  readonly notes: {
    readonly renamed: string
    readonly deletedScript: string
    readonly removedSymbol: string
    readonly editedAfter: string
    readonly fresh: string
    readonly fresh2: string
    readonly prose: string
  }
  /** The `serve` arguments for this home. */
  serveArgs(): string[]
  cleanup(): void
}

const NOTE_DATE = '2026-01-20T00:00:00Z'
const topic = (name: string, body: string): string =>
  `---\nname: ${name}\ndescription: ${name.toLowerCase()}\ntype: project\nupdated: ${NOTE_DATE}\n---\n\n${body}\n`

export function createAuditFixture(): AuditFixture {
  const homes = createTempHomes('mc-audit-fx-', true)
  const { root, claudeHome, codexHome, managedDir, stateDir } = homes
  const repo = join(root, 'repos', 'shop')
  mkdirSync(repo, { recursive: true })

  // History: 10 Jan the code as the notes (of 20 Jan) describe it; Feb a rename, a deleted
  // script and a removed symbol; Apr an edit to a file a note names.
  git(repo, 'init', '-q', '-b', 'main')
  commitFiles(
    repo,
    'initial',
    {
      'src/auth/session.ts':
        'export function createSession(user: string) {\n  return { user, at: Date.now() }\n}\n',
      'scripts/legacy-import.sh': '#!/bin/sh\necho importing legacy data\n',
      'package.json':
        JSON.stringify(
          {
            name: 'shop',
            scripts: { test: 'vitest', 'import:legacy': 'sh scripts/legacy-import.sh' },
          },
          null,
          2,
        ) + '\n',
      'src/money.ts':
        'export function formatPrice(cents: number): string {\n  return `$${(cents / 100).toFixed(2)}`\n}\n',
      'src/retry.ts':
        'export async function withRetry<T>(fn: () => Promise<T>): Promise<T> {\n  for (let i = 0; i < 3; i++) {\n    try {\n      return await fn()\n    } catch {}\n  }\n  return fn()\n}\n',
      'src/stable.ts': 'export const stableValue = 7\n',
      'src/cart.ts':
        'export function cartTotal(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0)\n}\n',
    },
    '2026-01-10T10:00:00Z',
  )
  git(repo, 'mv', 'src/auth/session.ts', 'src/auth/token-session.ts')
  gitAt('2026-02-01T10:00:00Z', repo, 'commit', '-q', '-m', 'rename session to token-session')
  git(repo, 'rm', '-q', 'scripts/legacy-import.sh')
  commitFiles(
    repo,
    'drop legacy import; formatPrice becomes formatMoney',
    {
      'package.json': JSON.stringify({ name: 'shop', scripts: { test: 'vitest' } }, null, 2) + '\n',
      'src/money.ts':
        'export function formatMoney(cents: number): string {\n  return `$${(cents / 100).toFixed(2)}`\n}\n',
    },
    '2026-02-15T10:00:00Z',
  )
  // The line holding `withRetry` loses a word (`fn`): what the note names changed since (suspect,
  // docs/cli.md §7); a line that only gained an argument would not count.
  commitFiles(
    repo,
    'retry: configurable tries',
    {
      'src/retry.ts':
        'export async function withRetry<T>(run: () => Promise<T>, tries = 5): Promise<T> {\n  for (let i = 0; i < tries - 1; i++) {\n    try {\n      return await run()\n    } catch {}\n  }\n  return run()\n}\n',
    },
    '2026-04-01T10:00:00Z',
  )

  const projectDir = join(claudeHome, 'projects', encodeProjectDir(repo))
  const memoryDir = join(projectDir, 'memory')
  mkdirSync(memoryDir, { recursive: true })
  const sessionId = '33333333-3333-4333-8333-333333333333'
  writeFileSync(
    join(projectDir, `${sessionId}.jsonl`),
    transcriptLine({ cwd: repo, sessionId, gitBranch: 'main' }) + '\n',
  )

  const notes = {
    renamed: 'Session handling',
    deletedScript: 'Legacy import',
    removedSymbol: 'Money formatting',
    editedAfter: 'Retries',
    fresh: 'Stable value',
    fresh2: 'Cart totals',
    prose: 'Team habits',
  }
  const entries: [string, string, string][] = [
    [
      notes.renamed,
      'session.md',
      'Sessions are created in `src/auth/session.ts` by `createSession()`.',
    ],
    [notes.deletedScript, 'legacy-import.md', 'Import old data with `npm run import:legacy`.'],
    [notes.removedSymbol, 'money.md', 'Prices are formatted by `formatPrice()` in `src/money.ts`.'],
    [notes.editedAfter, 'retries.md', 'Retries are handled by `withRetry()` in `src/retry.ts`.'],
    [notes.fresh, 'stable.md', '`src/stable.ts` exports `stableValue`.'],
    [notes.fresh2, 'cart.md', '`cartTotal()` in `src/cart.ts` sums the cart.'],
    [notes.prose, 'team.md', 'The team prefers small pull requests and reviews on Fridays.'],
  ]
  const index = join(memoryDir, 'MEMORY.md')
  writeFileSync(
    index,
    [
      '# Project memory',
      '',
      ...entries.map(([t, f]) => `- [${t}](${f}) — about ${t.toLowerCase()}`),
    ].join('\n') + '\n',
  )
  for (const [t, f, body] of entries) writeFileSync(join(memoryDir, f), topic(t, body))

  return {
    root,
    claudeHome,
    codexHome,
    managedDir,
    stateDir,
    repo,
    memoryDir,
    index,
    notes,
    serveArgs: () => homeArgs(homes),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  }
}
