/**
 * Rules blind sets L and M (docs/eval-audit.md) showed were missing, on real git repositories.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { clearMissingBlobCache } from '../../../../src/node/git/missing-blobs'
import { git } from '../../../helpers/git'
import { base, byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const fence = (lang: string, body: string): string => `\`\`\`${lang}\n${body}\n\`\`\``

describe('a clone without the blobs of its 3D prints', () => {
  const { repo: source, commit } = historyCase('lm-pc')
  const clone = join(base, 'lm-pc-clone')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      source,
      'pkg/cutter.py',
      'def cut_with_wires(m, *specs):\n    return m\n\n\nclass CutSpec:\n    pass\n',
    )
    write(
      source,
      'src/tray.py',
      'from pkg.cutter import cut_with_wires, CutSpec\n\nmodel = build()\n',
    )
    write(source, 'models/tray.stl', randomBytes(8192))
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      source,
      'src/tray.py',
      'from pkg.cutter import CutSpec, cut_with_wires\n\nmodel = build()\n',
    )
    write(source, 'models/tray.stl', randomBytes(8192))
    commit('lint', '2026-03-01T12:00:00Z')
    git(source, 'config', 'uploadpack.allowFilter', 'true')
    git(base, 'clone', '-q', '--filter=blob:limit=1k', `file://${source}`, clone)
    expect(git(clone, 'rev-list', '--objects', '--missing=print', 'HEAD')).toContain('?')
    clearMissingBlobCache()
    notes = await auditTopics(
      clone,
      join(base, 'lm-pc-mem'),
      [
        [
          'Example',
          `Cutting along wires:\n\n${fence('python', 'from pkg.cutter import cut_with_wires, CutSpec\npieces = cut_with_wires(model, CutSpec(wire, plane), CutSpec(wire2, plane2))')}`,
        ],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('reads an example as an example although a binary blob was missing then', () => {
    const n = byTitle(notes, 'Example')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
    expect(n.reasons.join('\n')).toContain('when the note was written')
  })
})
