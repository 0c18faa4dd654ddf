/**
 * A Claude home where two worktrees of one real git repository share one memory folder
 * (docs/memory-rules.md §1.5): session A in the main worktree (branch main) and session B in a linked
 * worktree (branch feature) both write MEMORY.md. B fails one edit, then overwrites the file
 * from its stale view and so loses a line A had added (docs/memory-rules.md §6.4). Never touches ~/.claude.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import { toolResultLine, toolUseLine, writeLines } from './transcript-lines'
import { git, initialCommit } from './git'
import { createTempHomes, type TempHomes } from './temp-homes'

export const SESSION_A = 'aaaaaaaa-1111-4111-8111-00000000000a'
export const SESSION_B = 'bbbbbbbb-2222-4222-8222-00000000000b'

/** `2026-03-01T10:MM:00.000Z` for minute `m`. */
export const at = (m: number): string => `2026-03-01T10:${String(m).padStart(2, '0')}:00.000Z`

/** The line A added that B's overwrite lost. */
export const LOST_LINE = '- Build cache lives in `.cache/build`; delete it when builds act up'

/** The contents the sessions produced, in order. */
export const VERSIONS = {
  /** A creates the file. */
  a1: '# Project memory\n\n## Build\n- Run `npm test` before committing\n',
  /** A adds the cache note under Build. */
  a2: `# Project memory\n\n## Build\n- Run \`npm test\` before committing\n${LOST_LINE}\n`,
  /** B rewrites the whole file from the version it read first (a1) plus its own section. */
  b1: '# Project memory\n\n## Build\n- Run `npm test` before committing\n\n## Worktrees\n- Feature work happens in `wt-feature`\n',
  /** A appends a deploy note (an edit on B's version). */
  a3: '# Project memory\n\n## Build\n- Run `npm test` before committing\n\n## Worktrees\n- Feature work happens in `wt-feature`\n- Deploy with `npm run deploy` from main only\n',
} as const

/** What is on disk: the last recorded version. */
export const ON_DISK = VERSIONS.a3

/** ON_DISK with exactly the lost line put back where it stood (after its surviving neighbour). */
export const AFTER_RESTORE = ON_DISK.replace(
  '- Run `npm test` before committing\n',
  `- Run \`npm test\` before committing\n${LOST_LINE}\n`,
)

export interface WorktreeFixture extends TempHomes {
  /** Main worktree (branch main). */
  readonly repo: string
  /** Linked worktree (branch feature). */
  readonly worktree: string
  readonly memoryDir: string
  readonly memoryFile: string
  readonly transcriptA: string
  readonly transcriptB: string
  cleanup(): void
}

/** Who a transcript line speaks for. */
export interface Ctx {
  readonly sessionId: string
  readonly cwd: string
  readonly gitBranch: string
}

function meta(ctx: Ctx, minute: number) {
  return {
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    cwd: ctx.cwd,
    sessionId: ctx.sessionId,
    version: '2.1.90',
    gitBranch: ctx.gitBranch,
    timestamp: at(minute),
  }
}

function say(ctx: Ctx, minute: number, text: string): string {
  return JSON.stringify({
    ...meta(ctx, minute),
    type: 'user',
    uuid: `say-${ctx.sessionId.slice(0, 4)}-${minute}`,
    message: { role: 'user', content: text },
  })
}

/** An assistant line with one tool_use block, `minute` minutes into the fixture's morning. */
export function toolCall(
  ctx: Ctx,
  id: string,
  minute: number,
  name: string,
  input: object,
): string {
  return toolUseLine(ctx, id, at(minute), name, input)
}

/** The user line answering a tool_use (failed when `isError`). */
export function toolResult(
  ctx: Ctx,
  id: string,
  minute: number,
  toolUseResult: unknown,
  isError = false,
): string {
  return toolResultLine(ctx, id, at(minute), toolUseResult, isError)
}

export function createWorktreeFixture(): WorktreeFixture {
  const homes = createTempHomes('mc-worktrees-', true)
  const { root, claudeHome } = homes
  const repo = join(root, 'repos', 'acme-api')
  const worktree = join(root, 'repos', 'wt-feature')
  initialCommit(repo, {
    'package.json': JSON.stringify({ name: 'acme-api', scripts: { test: 'vitest' } }, null, 2),
  })
  git(repo, 'worktree', 'add', '-q', '-b', 'feature', worktree)

  // Worktrees share the main worktree's memory folder; transcripts stay in each launch folder (§1).
  const dirA = join(claudeHome, 'projects', encodeProjectDir(repo))
  const dirB = join(claudeHome, 'projects', encodeProjectDir(worktree))
  const memoryDir = join(dirA, 'memory')
  const memoryFile = join(memoryDir, 'MEMORY.md')
  mkdirSync(memoryDir, { recursive: true })
  mkdirSync(dirB, { recursive: true })
  writeFileSync(memoryFile, ON_DISK)

  const a: Ctx = { sessionId: SESSION_A, cwd: repo, gitBranch: 'main' }
  const b: Ctx = { sessionId: SESSION_B, cwd: worktree, gitBranch: 'feature' }
  const transcriptA = join(dirA, `${SESSION_A}.jsonl`)
  const transcriptB = join(dirB, `${SESSION_B}.jsonl`)
  const { a1, b1 } = VERSIONS

  writeFileSync(
    transcriptA,
    [
      say(a, 0, 'remember how we build'),
      ...writeLines(a, 'toolu_A1', at(1), memoryFile, a1, 'create'),
      toolCall(a, 'toolu_A2', 3, 'Edit', {
        file_path: memoryFile,
        old_string: '- Run `npm test` before committing\n',
        new_string: `- Run \`npm test\` before committing\n${LOST_LINE}\n`,
      }),
      toolResult(a, 'toolu_A2', 3, {
        filePath: memoryFile,
        originalFile: a1,
        structuredPatch: [],
        userModified: false,
      }),
      toolCall(a, 'toolu_A3', 9, 'Edit', {
        file_path: memoryFile,
        old_string: '- Feature work happens in `wt-feature`\n',
        new_string:
          '- Feature work happens in `wt-feature`\n- Deploy with `npm run deploy` from main only\n',
      }),
      toolResult(a, 'toolu_A3', 9, {
        filePath: memoryFile,
        originalFile: b1,
        structuredPatch: [],
        userModified: false,
      }),
      '',
    ].join('\n'),
  )
  writeFileSync(
    transcriptB,
    [
      say(b, 2, 'note how worktrees are laid out'),
      // A failed edit changes nothing (docs/memory-rules.md §5.3).
      toolCall(b, 'toolu_B1', 5, 'Edit', {
        file_path: memoryFile,
        old_string: '## Worktree notes',
        new_string: '## Worktrees',
      }),
      toolResult(b, 'toolu_B1', 5, 'Error: String to replace not found in file.', true),
      // B overwrites from the version it read at the start: A's cache note is lost.
      ...writeLines(b, 'toolu_B2', at(7), memoryFile, b1, 'update'),
      '',
    ].join('\n'),
  )

  return {
    ...homes,
    repo,
    worktree,
    memoryDir,
    memoryFile,
    transcriptA,
    transcriptB,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  }
}
