/**
 * The healthy tree the bad inputs of the reliability tests (issue 8) are planted into: a Claude
 * home with one project, its memory folder and transcript, a git repository, Codex and managed
 * folders, and a folder "outside" that imports and symlinks point at. Plus the shape of one bad input.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeProjectDir } from '../../../src/core/memory/project-path'
import { transcriptLine } from '../fixture-home'
import { initialCommit } from '../git'

export const SESSION = '33333333-3333-4333-8333-333333333333'

export interface BadTree {
  readonly root: string
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  readonly repo: string
  readonly projectDir: string
  readonly memoryDir: string
  readonly transcript: string
  /** A folder outside every root: imports and symlinks that escape point here. */
  readonly outside: string
  /** HOME and XDG folders of the process under test (its own state may change). */
  readonly processHome: string
  /** The folders whose bytes and mtimes must not change without an edit. */
  readonly watched: readonly string[]
  cleanup(): void
}

/** A healthy tree the bad inputs are planted into. */
export function createBadTree(prefix = 'mc-bad-'): BadTree {
  const root = mkdtempSync(join(tmpdir(), prefix))
  const claudeHome = join(root, 'claude')
  const codexHome = join(root, 'codex')
  const managedDir = join(root, 'managed')
  const repo = join(root, 'repos', 'app')
  const outside = join(root, 'outside')
  const processHome = join(root, 'process-home')
  for (const d of [claudeHome, codexHome, managedDir, repo, outside, processHome])
    mkdirSync(d, { recursive: true })
  writeFileSync(join(outside, 'secret.md'), 'CANARY-OUTSIDE-SECRET\n')
  initialCommit(
    repo,
    {
      'CLAUDE.md': '# App\n\nRun `npm test`.\n',
      'src/main.ts': 'export function main(): void {}\n',
      'package.json': '{"name":"app","scripts":{"test":"vitest"}}\n',
    },
    '2026-03-01T10:00:00Z',
  )
  const projectDir = join(claudeHome, 'projects', encodeProjectDir(repo))
  const memoryDir = join(projectDir, 'memory')
  mkdirSync(memoryDir, { recursive: true })
  const transcript = join(projectDir, `${SESSION}.jsonl`)
  const memoryFile = join(memoryDir, 'MEMORY.md')
  writeFileSync(
    transcript,
    [
      transcriptLine({ cwd: repo, sessionId: SESSION, gitBranch: 'main' }),
      JSON.stringify({
        type: 'assistant',
        sessionId: SESSION,
        cwd: repo,
        gitBranch: 'main',
        uuid: 'a1',
        timestamp: '2026-03-02T09:01:00.000Z',
        message: {
          id: 'm1',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'tu1',
              name: 'Write',
              input: { file_path: memoryFile, content: '# Memory\n' },
            },
          ],
        },
      }),
      JSON.stringify({
        type: 'user',
        sessionId: SESSION,
        cwd: repo,
        uuid: 'u2',
        timestamp: '2026-03-02T09:01:01.000Z',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'ok' }],
        },
        toolUseResult: { type: 'create', filePath: memoryFile, content: '# Memory\n' },
      }),
    ].join('\n') + '\n',
  )
  writeFileSync(memoryFile, '# Memory\n\n- [Main](main-note.md) — `src/main.ts` holds `main`\n')
  writeFileSync(
    join(memoryDir, 'main-note.md'),
    '---\nname: Main\ndescription: the entry point\ntype: project\n---\n\n`main` in `src/main.ts` starts the app.\n',
  )
  return {
    root,
    claudeHome,
    codexHome,
    managedDir,
    repo,
    projectDir,
    memoryDir,
    transcript,
    outside,
    processHome,
    watched: [claudeHome, codexHome, managedDir, join(root, 'repos'), outside],
    cleanup: () => {
      // Undo permission changes first so removal works for non-root runs too.
      try {
        execFileSync('chmod', ['-R', 'u+rwX', root], { stdio: 'ignore' })
      } catch {
        /* best effort */
      }
      rmSync(root, { recursive: true, force: true })
    },
  }
}

export interface BadInput {
  readonly id: string
  /** What the input is, for the report. */
  readonly what: string
  plant(t: BadTree): void
}

/** A file in the tree's memory folder (MEMORY.md unless named). */
export const mem = (t: BadTree, name = 'MEMORY.md'): string => join(t.memoryDir, name)
