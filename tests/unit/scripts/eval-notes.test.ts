/**
 * The evaluation runner rebuilds each labelled note from git (scripts/eval/notes.mjs): lines
 * picked from inside a fenced block are read in their fence, as the app reads the file (blind
 * set BX: shell commands picked from the middle of a block read as prose).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module of the evaluation scripts, without types
import { noteText } from '../../../scripts/eval/notes.mjs'
import { git, initialCommit } from '../../helpers/git'

const dir = mkdtempSync(join(tmpdir(), 'mc-eval-notes-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('noteText', () => {
  const doc = [
    '# Commands', // 1
    '', // 2
    '```bash', // 3
    '# Run tests', // 4
    'cd backend && uv run pytest', // 5
    'cd executor && uv run pytest', // 6
    '```', // 7
    '', // 8
    '- After the block.', // 9
    '~~~~', // 10
    'inside tildes', // 11
    '~~~~', // 12
  ].join('\n')
  initialCommit(dir, { 'AGENTS.md': `${doc}\n` })
  const sha = git(dir, 'rev-parse', 'HEAD')
  const gitDir = join(dir, '.git')
  const at = (lines: [number, number]): string =>
    noteText(gitDir, { source: { commit: sha, path: 'AGENTS.md', lines } }) as string

  it('puts lines picked inside a fence back in it, closed', () => {
    expect(at([5, 6])).toBe(
      '```bash\ncd backend && uv run pytest\ncd executor && uv run pytest\n```\n',
    )
    expect(at([11, 11])).toBe('~~~~\ninside tildes\n~~~~\n')
  })

  it('keeps a range that closes its fence, or one outside any, as written', () => {
    expect(at([6, 9])).toBe('```bash\ncd executor && uv run pytest\n```\n\n- After the block.\n')
    expect(at([9, 9])).toBe('- After the block.\n')
    expect(at([3, 7])).toBe(
      '```bash\n# Run tests\ncd backend && uv run pytest\ncd executor && uv run pytest\n```\n',
    )
  })
})
