/** Verification stamps: valid until the note or a file it names changes. */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hashContent } from '../../../../src/node/edits/safe-write'
import { curationEnvs } from './curation-env'
import { git } from '../../../helpers/git'

const fresh = curationEnvs()

describe('verification stamps', () => {
  it('is valid until a referenced file changes, and its key survives the entry moving lines', async () => {
    const env = await fresh()
    const repo = join(env.base, 'repo')
    await mkdir(join(repo, 'src'), { recursive: true })
    await writeFile(join(repo, 'src', 'x.ts'), 'export const x = 1\n')
    await writeFile(join(repo, 'CLAUDE.md'), '# Rules\n\nKeep `package.json` scripts short.\n')
    await writeFile(join(repo, 'package.json'), '{"scripts":{}}\n')
    git(repo, 'init', '-q', '-b', 'main')
    git(repo, 'add', '.')
    git(repo, 'commit', '-q', '-m', 'init')

    const index = join(env.mem, 'MEMORY.md')
    await writeFile(index, '# Memory\n- [X](x.md) — where x lives\n')
    await writeFile(
      join(env.mem, 'x.md'),
      '---\nname: X\ntype: project\n---\nThe value is in `src/x.ts`; `src/gone.ts` reads it.\n',
    )

    const stamp = await env.curation.verifyNote(env.mem, repo, index, 2)
    expect(stamp).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{64}$/),
      file: index,
      title: 'X',
      noteHash: hashContent(
        '- [X](x.md) — where x lives\n\nThe value is in `src/x.ts`; `src/gone.ts` reads it.\n',
      ),
      references: {
        [join(repo, 'src', 'gone.ts')]: null,
        [join(repo, 'src', 'x.ts')]: hashContent('export const x = 1\n'),
      },
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
    const day = stamp.at.slice(0, 10)
    expect(await env.curation.listStamps(env.mem, repo)).toEqual([
      { stamp, state: 'valid', reasons: [] },
    ])

    // The entry moves down two lines: same key, still valid; verifying again keeps one stamp.
    await writeFile(index, '# Memory\n- [Y](y.md) — other\n\n- [X](x.md) — where x lives\n')
    const later = env.restart()
    expect(await later.listStamps(env.mem, repo)).toEqual([{ stamp, state: 'valid', reasons: [] }])
    const moved = await later.verifyNote(env.mem, repo, index, 4)
    expect(moved.key).toBe(stamp.key)
    expect((await env.restart().listStamps(env.mem, repo)).map((s) => s.stamp.key)).toEqual([
      stamp.key,
    ])

    // The referenced file changes in a commit: the stamp expires and says why.
    await writeFile(join(repo, 'src', 'x.ts'), 'export const x = 2\n')
    git(repo, 'commit', '-q', '-am', 'change x')
    expect(await env.restart().listStamps(env.mem, repo)).toEqual([
      {
        stamp: moved,
        state: 'expired',
        reasons: [`\`src/x.ts\` changed since you verified it on ${day}`],
      },
    ])

    // Editing the note's text is a reason of its own.
    await writeFile(index, '# Memory\n- [Y](y.md) — other\n\n- [X](x.md) — where x lives now\n')
    expect((await env.restart().listStamps(env.mem, repo))[0].reasons).toEqual([
      `the note's text changed since you verified it on ${day}`,
      `\`src/x.ts\` changed since you verified it on ${day}`,
    ])
  })

  it('stamps a paragraph of an instruction file and lists it with the memory folder', async () => {
    const env = await fresh()
    const repo = join(env.base, 'repo')
    await mkdir(repo, { recursive: true })
    await writeFile(join(repo, 'CLAUDE.md'), '# Rules\n\nKeep `package.json` scripts short.\n')
    await writeFile(join(repo, 'package.json'), '{"scripts":{}}\n')
    git(repo, 'init', '-q', '-b', 'main')
    const claude = join(repo, 'CLAUDE.md')
    const stamp = await env.curation.verifyNote(env.mem, repo, claude, 3)
    expect([stamp.file, stamp.title, stamp.references]).toEqual([
      claude,
      'Keep `package.json` scripts short.',
      { [join(repo, 'package.json')]: hashContent('{"scripts":{}}\n') },
    ])
    await rm(join(repo, 'package.json'))
    expect((await env.curation.listStamps(env.mem, repo))[0]).toEqual({
      stamp,
      state: 'expired',
      reasons: [`\`package.json\` is gone since you verified the note on ${stamp.at.slice(0, 10)}`],
    })
    // Another memory folder lists none of these stamps.
    expect(await env.curation.listStamps(join(env.base, 'other'), repo)).toEqual([])
  })

  it("counts an entry's continuation lines: their references and their text", async () => {
    const env = await fresh()
    const repo = join(env.base, 'plain') // not a git repository: paths resolve in the folder
    await mkdir(join(repo, 'lib'), { recursive: true })
    await writeFile(join(repo, 'lib', 'y.py'), 'y = 1\n')
    const index = join(env.mem, 'MEMORY.md')
    await writeFile(index, '- Y lives in one place\n  see `lib/y.py`\n')
    const stamp = await env.curation.verifyNote(env.mem, repo, index, 2)
    expect([stamp.title, stamp.references]).toEqual([
      'Y lives in one place',
      { [join(repo, 'lib', 'y.py')]: hashContent('y = 1\n') },
    ])
    await writeFile(index, '- Y lives in one place\n  see `lib/y.py` (moved?)\n')
    expect((await env.curation.listStamps(env.mem, null))[0].reasons).toEqual([
      `the note's text changed since you verified it on ${stamp.at.slice(0, 10)}`,
    ])
  })

  it('rejects a line where no note is', async () => {
    const env = await fresh()
    await writeFile(join(env.mem, 'MEMORY.md'), '# Memory\n\n- [X](x.md)\n')
    await expect(
      env.curation.verifyNote(env.mem, null, join(env.mem, 'MEMORY.md'), 2),
    ).rejects.toThrow(`no note at ${join(env.mem, 'MEMORY.md')}:2`)
  })
})
