/**
 * Builds a realistic Claude home in a temp folder for tests: a real git repository,
 * transcripts whose `cwd` names it, a MEMORY.md that runs past the cutoff, topic files,
 * an orphan, a dangling link, and some bad input. Never touches the real ~/.claude.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import { initialCommit } from './git'
import { createTempHomes, type TempHomes } from './temp-homes'

export interface FixtureHome extends TempHomes {
  readonly repo: string
  readonly projectDir: string
  readonly memoryDir: string
  cleanup(): void
}

export function transcriptLine(fields: Record<string, unknown>): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    userType: 'external',
    version: '2.1.90',
    type: 'user',
    message: { role: 'user', content: 'hello' },
    uuid: `u-${Math.random().toString(36).slice(2)}`,
    timestamp: '2026-03-02T09:00:00.000Z',
    ...fields,
  })
}

/** A MEMORY.md of `entries` index entries under headings (one line each), newest at the bottom. */
export function memoryIndex(entries: number): string {
  const lines = ['# Project memory', '']
  for (let i = 1; i <= entries; i++) {
    if (i % 20 === 1) lines.push(`## Section ${Math.ceil(i / 20)}`)
    lines.push(`- [Note ${i}](note-${i}.md) — what to remember number ${i}`)
  }
  return lines.join('\n') + '\n'
}

export function createFixtureHome(): FixtureHome {
  const homes = createTempHomes('mc-fixture-')
  const { root, claudeHome } = homes
  const repo = join(root, 'repos', 'acme-shop')

  // A real repository.
  initialCommit(
    repo,
    {
      'package.json': JSON.stringify(
        { name: 'acme-shop', scripts: { test: 'vitest', build: 'vite build' } },
        null,
        2,
      ),
      'src/cart.ts':
        'export function computeTotal(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0)\n}\n',
      'CLAUDE.md': '# Acme shop\n\nRun `npm test` before committing.\n',
    },
    '2026-03-01T10:00:00Z',
  )

  // The project folder, named as Claude Code names it, with a transcript that says where it was launched.
  const projectDir = join(claudeHome, 'projects', encodeProjectDir(repo))
  const memoryDir = join(projectDir, 'memory')
  mkdirSync(memoryDir, { recursive: true })
  writeFileSync(
    join(projectDir, '11111111-1111-4111-8111-111111111111.jsonl'),
    [
      JSON.stringify({ type: 'summary', summary: 'Cart totals', leafUuid: 'x' }),
      transcriptLine({
        cwd: repo,
        sessionId: '11111111-1111-4111-8111-111111111111',
        gitBranch: 'main',
      }),
    ].join('\n') + '\n',
  )
  writeFileSync(join(memoryDir, 'MEMORY.md'), memoryIndex(230))
  for (let i = 1; i <= 5; i++) {
    writeFileSync(
      join(memoryDir, `note-${i}.md`),
      `---\nname: Note ${i}\ndescription: test note ${i}\ntype: project\n---\n\n\`computeTotal\` in \`src/cart.ts\` sums the cart.\n`,
    )
  }
  writeFileSync(
    join(memoryDir, 'orphan-topic.md'),
    '---\nname: Orphan\ndescription: nobody links me\ntype: reference\n---\nOrphaned.\n',
  )

  // A project whose transcript has a malformed first line and whose MEMORY.md is binary.
  const broken = join(
    claudeHome,
    'projects',
    encodeProjectDir(join(root, 'elsewhere', 'broken-app')),
  )
  mkdirSync(join(broken, 'memory'), { recursive: true })
  writeFileSync(
    join(broken, '22222222-2222-4222-8222-222222222222.jsonl'),
    '{"type":"user", this is not json\n' +
      transcriptLine({
        cwd: join(root, 'elsewhere', 'broken-app'),
        sessionId: '22222222-2222-4222-8222-222222222222',
        gitBranch: '',
      }) +
      '\n',
  )
  writeFileSync(
    join(broken, 'memory', 'MEMORY.md'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]),
  )

  // A project folder without transcripts.
  mkdirSync(join(claudeHome, 'projects', '-tmp-no-transcripts'), { recursive: true })

  return {
    ...homes,
    repo,
    projectDir,
    memoryDir,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  }
}
