/**
 * A Claude home whose memory folder was written by a recorded session (issue 12 items 7, 9, 10):
 * a repository, a transcript in which the person asks, a tool answers (with hostile text) and the
 * agent writes MEMORY.md, its linked topic file and a topic file two folders down; plus notes no
 * session wrote (a line typed by hand, an `OLD.MD` topic dated before any transcript).
 * Built fresh in a temp folder; never touches the real ~/.claude.
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import { createTempHomes, homeArgs, type TempHomes } from './temp-homes'
import { commitFiles, git } from './git'
import { toolResultLine, toolUseLine, writeLines, type SessionCtx } from './transcript-lines'

export const SESSION = '5e5e5e5e-0000-4000-8000-00000000e0e0'
/** What the tool answered: markup and control characters the window must show as plain text. */
export const HOSTILE_RESULT =
  '#!/bin/sh\nrsync -a dist/ host:/srv <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>\u001b[31mred\u001b[0m\u202Eevil'
export const PERSON_WORDS = 'Deploys go through scripts/deploy.sh, remember that for next time.'
export const PERSON_WORDS_2 = 'Also keep a note about the CSV export, filed under team/build.'

export interface EvidenceFixture extends TempHomes {
  readonly repo: string
  readonly projectDir: string
  readonly memoryDir: string
  readonly index: string
  /** The topic file the Deploy entry links. */
  readonly deployTopic: string
  /** The orphan topic file two folders down (team/build/export.md). */
  readonly deepTopic: string
  /** A topic file in upper case, dated before any transcript (OLD.MD). */
  readonly oldTopic: string
  readonly transcript: string
  serveArgs(): string[]
  cleanup(): void
}

const ts = (m: number, s: number): string =>
  `2026-03-01T10:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.000Z`

function said(ctx: SessionCtx, timestamp: string, text: string): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    sessionId: ctx.sessionId,
    cwd: ctx.cwd,
    gitBranch: ctx.gitBranch,
    version: '2.1.90',
    uuid: `u-${timestamp}`,
    timestamp,
    message: { role: 'user', content: text },
  })
}

function agentSays(ctx: SessionCtx, timestamp: string, text: string): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: 'assistant',
    sessionId: ctx.sessionId,
    cwd: ctx.cwd,
    gitBranch: ctx.gitBranch,
    version: '2.1.90',
    uuid: `a-${timestamp}`,
    timestamp,
    message: { role: 'assistant', content: [{ type: 'text', text }] },
  })
}

export const INDEX_WRITTEN =
  '# Memory\n- [Deploy](deploy.md) — deploys run `scripts/deploy.sh`\n  from the repository root\n'
export const DEPLOY_TOPIC =
  '---\nname: deploy\ntype: project\n---\nRun `scripts/deploy.sh`; it rsyncs `dist/`.\n'
export const DEEP_TOPIC =
  '---\nname: CSV export\ntype: project\n---\n`src/export.ts` writes CSV with `toCsv()`.\n'
export const HAND_LINE = '- Reviews happen on Fridays (typed by hand)'

export function createEvidenceFixture(): EvidenceFixture {
  const homes = createTempHomes('mc-evidence-', true)
  const repo = join(homes.root, 'repos', 'ledger')
  mkdirSync(repo, { recursive: true })
  git(repo, 'init', '-q', '-b', 'main')
  commitFiles(
    repo,
    'initial',
    {
      'scripts/deploy.sh': '#!/bin/sh\nrsync -a dist/ host:/srv\n',
      'src/export.ts':
        "export function toCsv(rows: string[][]): string {\n  return rows.map((r) => r.join(',')).join('\\n')\n}\n",
    },
    '2026-02-20T10:00:00Z',
  )
  const projectDir = join(homes.claudeHome, 'projects', encodeProjectDir(repo))
  const memoryDir = join(projectDir, 'memory')
  const index = join(memoryDir, 'MEMORY.md')
  const deployTopic = join(memoryDir, 'deploy.md')
  const deepTopic = join(memoryDir, 'team', 'build', 'export.md')
  const oldTopic = join(memoryDir, 'OLD.MD')
  mkdirSync(join(memoryDir, 'team', 'build'), { recursive: true })

  const ctx: SessionCtx = { sessionId: SESSION, cwd: repo, gitBranch: 'main' }
  const transcript = join(projectDir, `${SESSION}.jsonl`)
  const lines = [
    '{"type":"file-history-snapshot","messageId":"m","snapshot":{}}',
    said(ctx, ts(0, 0), PERSON_WORDS),
    agentSays(ctx, ts(0, 1), 'Let me look at the script first.'),
    toolUseLine(ctx, 'toolu_bash1', ts(0, 2), 'Bash', { command: 'cat scripts/deploy.sh' }),
    toolResultLine(ctx, 'toolu_bash1', ts(0, 3), { stdout: HOSTILE_RESULT, stderr: '' }),
    ...writeLines(ctx, 'toolu_index', ts(0, 4), index, INDEX_WRITTEN, 'create'),
    ...writeLines(ctx, 'toolu_deploy', ts(0, 5), deployTopic, DEPLOY_TOPIC, 'create'),
    said(ctx, ts(1, 0), PERSON_WORDS_2),
    ...writeLines(ctx, 'toolu_deep', ts(1, 1), deepTopic, DEEP_TOPIC, 'create'),
  ]
  // The tool result's own text: toolResultLine answers "done"; the real output is the content.
  lines[4] = lines[4].replace('"content":"done"', `"content":${JSON.stringify(HOSTILE_RESULT)}`)
  writeFileSync(transcript, lines.join('\n') + '\n')

  writeFileSync(index, `${INDEX_WRITTEN}${HAND_LINE}\n`)
  writeFileSync(deployTopic, DEPLOY_TOPIC)
  writeFileSync(deepTopic, DEEP_TOPIC)
  writeFileSync(
    oldTopic,
    '---\nname: Old habit\nupdated: 2025-06-01\n---\nWe used to deploy by hand.\n',
  )
  const old = new Date('2025-06-01T00:00:00Z')
  utimesSync(oldTopic, old, old)

  return {
    ...homes,
    repo,
    projectDir,
    memoryDir,
    index,
    deployTopic,
    deepTopic,
    oldTopic,
    transcript,
    serveArgs: () => homeArgs(homes),
    cleanup: () => rmSync(homes.root, { recursive: true, force: true }),
  }
}
