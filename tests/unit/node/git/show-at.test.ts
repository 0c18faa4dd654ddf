/**
 * `showAt` reads a file as it was at a commit; a folder there has no text (git would list its
 * entries under a `tree <rev>:<path>` header, which a diff would show as the folder's "text").
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { showAt } from '../../../../src/node/git/history'
import { git, gitAt } from '../../../helpers/git'
import { write } from '../audit/scripted-repo'

const root = mkdtempSync(join(tmpdir(), 'mc-show-at-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('showAt', () => {
  it('gives a file its text and a folder a reason', async () => {
    const repo = join(root, 'repo')
    git(root, 'init', '-q', '-b', 'main', repo)
    write(repo, 'src/ui/hud/overlay.tsx', 'export const overlay = 1\n')
    git(repo, 'add', '-A')
    gitAt('2026-01-01T12:00:00Z', repo, 'commit', '-q', '-m', 'c1')
    const sha = git(repo, 'rev-parse', 'HEAD')
    expect(await showAt(repo, sha, 'src/ui/hud/overlay.tsx', 1 << 20)).toEqual({
      ok: true,
      text: 'export const overlay = 1\n',
    })
    expect(await showAt(repo, sha, 'src/ui/hud', 1 << 20)).toEqual({
      ok: false,
      reason: `\`src/ui/hud\` was a folder in ${sha.slice(0, 7)}: no text to compare`,
    })
    expect(await showAt(repo, `${sha}`, 'src/gone.ts', 1 << 20)).toMatchObject({ ok: false })
    // The commit before a deletion keeps its `^` in the reason.
    git(repo, 'rm', '-q', '-r', 'src/ui/hud')
    gitAt('2026-02-01T12:00:00Z', repo, 'commit', '-q', '-m', 'gone')
    const gone = git(repo, 'rev-parse', 'HEAD')
    expect(await showAt(repo, `${gone}^`, 'src/ui/hud', 1 << 20)).toEqual({
      ok: false,
      reason: `\`src/ui/hud\` was a folder in ${gone.slice(0, 7)}^: no text to compare`,
    })
  })
})
