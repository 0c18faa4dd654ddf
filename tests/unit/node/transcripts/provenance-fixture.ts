/**
 * The provenance tests' fixture: transcript line builders, the memory versions the sessions
 * write, and the temp tree (repository, worktree, Claude home) built once per test file.
 */
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import { findRepo } from '../../../../src/node/git/repo'
import { toolResultLine, toolUseLine } from '../../../helpers/transcript-lines'
import { git } from '../../../helpers/git'

export const A = 'aaaaaaaa-0000-4000-8000-000000000001'
export const B = 'bbbbbbbb-0000-4000-8000-000000000002'
export const ts = (s: number): string => `2026-03-01T10:00:${String(s).padStart(2, '0')}.000Z`

export interface Ctx {
  readonly sessionId: string
  readonly cwd: string
  readonly gitBranch: string
  readonly agentId?: string
}

export const call = (ctx: Ctx, id: string, t: number, name: string, input: object): string =>
  toolUseLine(ctx, id, ts(t), name, input)

export const answer = (
  ctx: Ctx,
  id: string,
  t: number,
  toolUseResult: unknown,
  isError = false,
): string => toolResultLine(ctx, id, ts(t), toolUseResult, isError)

export function chat(ctx: Ctx, t: number, text: string): string {
  return JSON.stringify({
    type: 'user',
    sessionId: ctx.sessionId,
    cwd: ctx.cwd,
    timestamp: ts(t),
    message: { role: 'user', content: text },
  })
}

export const v1 = '# Memory\n- [Build](build.md) — how to build\n- A note one\n'
export const v2 = '# Memory\n- [Build](build.md) — how to build\n- A note one\n- A note two\n'
export const v3 =
  '# Project memory\n- [Build](build.md) — how to build\n- A note one\n- A note two\n- B note\n'
export const v6 =
  '# Project memory\n- [Build](build.md) — how to build\n- A note one\n- B note\n- B note final\n'
export const onDisk = `${v6}- typed by hand\n`
export const buildMd = '---\nname: build\ntype: project\n---\nRun `npm run build`.\n'

/** Where buildProvenanceTree put each thing the tests read (live bindings: read them after it ran). */
export let root = ''
export let home = ''
export let repo = ''
export let wt = ''
export let memDir = ''
export let memory = ''
export let topic = ''
export let transcriptA = ''
export let transcriptB = ''
export let subagent = ''
export let cacheDir = ''
export let partialLine = ''
export let partialRest = ''

/**
 * A temp tree with a repository, a linked worktree and a Claude home whose transcripts (two
 * sessions and a subagent) write the memory folder: v1..v6, a failed write, a partial last line.
 */
export async function buildProvenanceTree(): Promise<void> {
  root = await realpath(await mkdtemp(join(tmpdir(), 'mc-prov-')))
  repo = join(root, 'repo')
  wt = join(root, 'wt-feature')
  home = join(root, 'claude')
  cacheDir = join(root, 'cache')
  await mkdir(repo)
  git(repo, 'init', '-q', '-b', 'main')
  await writeFile(join(repo, 'README.md'), 'hi\n')
  git(repo, 'add', '.')
  git(repo, 'commit', '-q', '-m', 'init')
  git(repo, 'worktree', 'add', '-q', '-b', 'feature', wt)

  // Both sessions share the main worktree's memory folder (docs/memory-rules.md §1.5).
  const info = await findRepo(wt)
  if (!info) throw new Error('worktree not found')
  expect(info.isLinkedWorktree).toBe(true)
  memDir = join(home, 'projects', encodeProjectDir(info.mainRoot), 'memory')
  memory = join(memDir, 'MEMORY.md')
  topic = join(memDir, 'build.md')
  const dirA = join(home, 'projects', encodeProjectDir(repo))
  const dirB = join(home, 'projects', encodeProjectDir(wt))
  expect(dirA).not.toBe(dirB)
  await mkdir(memDir, { recursive: true })
  await mkdir(dirB, { recursive: true })
  await mkdir(join(dirA, A, 'subagents'), { recursive: true })
  await writeFile(memory, onDisk)
  await writeFile(topic, buildMd)

  const a: Ctx = { sessionId: A, cwd: repo, gitBranch: 'main' }
  const b: Ctx = { sessionId: B, cwd: wt, gitBranch: 'feature' }
  const sub: Ctx = { ...a, agentId: 'a1b2c3' }
  transcriptA = join(dirA, `${A}.jsonl`)
  transcriptB = join(dirB, `${B}.jsonl`)
  subagent = join(dirA, A, 'subagents', 'agent-a1b2c3.jsonl')

  const huge = call(a, 'toolu_huge', 2, 'Write', {
    file_path: memory,
    content: 'z'.repeat(9 * 1024 * 1024),
  })
  await writeFile(
    transcriptA,
    [
      '{"type":"file-history-snapshot","messageId":"m","snapshot":{}}',
      chat(a, 0, 'remember how we build'),
      call(a, 'toolu_A1', 1, 'Write', { file_path: memory, content: v1 }),
      answer(a, 'toolu_A1', 1, {
        type: 'create',
        filePath: memory,
        content: v1,
        structuredPatch: [],
      }),
      call(a, 'toolu_bash', 2, 'Bash', { command: 'cat MEMORY.md' }),
      answer(a, 'toolu_bash', 2, { stdout: '"Write" to memory', stderr: '' }),
      huge,
      '{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Write","input":{"file_path":"/x/memory/',
      '["tool_use","Write","/memory/"]',
      '{"type":"hologram","blocks":[{"type":"tool_use","name":"Write","input":{"file_path":"/h/memory/x"}}]}',
      '{"type":"hologram","x":"tool_use","n":"Write","p":"/m/memory/"}',
      call(a, 'toolu_A2', 3, 'Edit', {
        file_path: memory,
        old_string: '- A note one\n',
        new_string: '- A note one\n- A note two\n',
      }),
      answer(a, 'toolu_A2', 3, {
        filePath: memory,
        oldString: '- A note one\n',
        newString: '- A note one\n- A note two\n',
        originalFile: v1,
        structuredPatch: [],
        userModified: false,
        replaceAll: false,
      }),
      call(a, 'toolu_A5', 9, 'Edit', {
        file_path: memory,
        old_string: '- B note\n',
        new_string: '- B note\n- A note three\n',
      }),
      answer(a, 'toolu_A5', 9, { filePath: memory, originalFile: v3, structuredPatch: [] }),
      call(a, 'toolu_src', 10, 'Write', {
        file_path: join(repo, 'src', 'memory.ts'),
        content: 'x',
      }),
      answer(a, 'toolu_src', 10, {
        type: 'create',
        filePath: join(repo, 'src', 'memory.ts'),
        content: 'x',
      }),
      '',
    ].join('\n'),
  )
  await writeFile(
    subagent,
    [
      call(sub, 'toolu_S1', 4, 'Write', { file_path: topic, content: buildMd }),
      answer(sub, 'toolu_S1', 4, {
        type: 'create',
        filePath: topic,
        content: buildMd,
        structuredPatch: [],
      }),
      '',
    ].join('\n'),
  )
  const late = call(b, 'toolu_B9', 20, 'Write', {
    file_path: join(memDir, 'late.md'),
    content: 'late\n',
  })
  partialLine = late.slice(0, 60)
  partialRest = late.slice(60)
  await writeFile(
    transcriptB,
    [
      chat(b, 5, 'note the B thing'),
      call(b, 'toolu_B3', 6, 'MultiEdit', {
        file_path: memory,
        edits: [
          { old_string: '# Memory', new_string: '# Project memory' },
          { old_string: '- A note two\n', new_string: '- A note two\n- B note\n' },
        ],
      }),
      answer(b, 'toolu_B3', 6, {
        filePath: memory,
        edits: [],
        originalFileContents: v2,
        structuredPatch: [],
      }),
      call(b, 'toolu_B4', 7, 'Edit', {
        file_path: memory,
        old_string: '- not there',
        new_string: '- nope',
      }),
      answer(b, 'toolu_B4', 7, 'Error: String to replace not found in file.', true),
      // B overwrites from its stale view: "A note two" and "A note three" (A's) are lost.
      call(b, 'toolu_B6', 11, 'Write', { file_path: memory, content: v6 }),
      answer(b, 'toolu_B6', 11, {
        type: 'update',
        filePath: memory,
        content: v6,
        structuredPatch: [],
      }),
      partialLine,
    ].join('\n'),
  )
}
