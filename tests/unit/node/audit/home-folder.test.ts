/**
 * The app's own folder in the home, on a real git repository (issue 12 item 3; blind set Z2:
 * "creds at `~/.clawdis/credentials/`", the code joining `".clawdis"` to the home then and
 * `".openclaw"` now). Outside the repository, but text its code holds: held when the note was
 * written and by no code now, the note is stale. A home folder no code ever named stays
 * unchecked, as another program's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

describe("a note naming the app's folder in the home", () => {
  const { repo, mem, commit, sha } = historyCase('home-folder')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    const utils = (dir: string): string =>
      `import os from 'node:os'\nimport path from 'node:path'\nexport const CONFIG_DIR = path.join(os.homedir(), "${dir}")\n`
    write(repo, 'src/utils.ts', utils('.clawdis'))
    write(repo, 'src/keep.ts', 'export const CACHE = path.join(os.homedir(), ".keepme", "cache")\n')
    commit('c1', '2026-01-10T12:00:00Z')
    write(repo, 'src/utils.ts', utils('.openclaw'))
    write(repo, 'docs/migrate.md', 'Move `~/.clawdis` to `~/.openclaw`.\n')
    commit('rename', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Creds', '- The web provider stores creds at `~/.clawdis/credentials/`.'],
        ['Keep', '- The cache lives in `~/.keepme/cache/`.'],
        ['Other', '- Editor settings are in `~/.someeditor/settings.json`.'],
        ['Shared', '- Tokens go to `~/.config/tool/token`.'],
      ],
      '2026-01-20T12:00:00Z',
    )
  }, 120_000)

  it('calls a note stale when the code held the folder then and holds it nowhere now', () => {
    const n = byTitle(notes, 'Creds')
    const text = n.reasons.join('\n')
    expect(n.verdict, text).toBe('stale')
    expect(text).toContain('`.clawdis` was in')
    expect(text).toContain(sha.rename.slice(0, 7))
  })

  it('keeps a folder the code still names, and leaves one it never named unchecked', () => {
    expect(byTitle(notes, 'Keep').verdict).not.toBe('stale')
    expect(byTitle(notes, 'Other').verdict).toBe('unverifiable')
    expect(byTitle(notes, 'Shared').verdict).toBe('unverifiable')
  })
})
