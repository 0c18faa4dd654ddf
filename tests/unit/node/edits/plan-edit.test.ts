/** planEdit on real files: each kind of plan applied through the safe paths, then undone. */
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EditOutcome, EditPlan } from '../../../../src/shared/model'
import type { Curation } from '../../../../src/node/edits/edit-actions'
import { hashContent } from '../../../../src/node/edits/safe-write'
import { curationEnvs } from './curation-env'

const fresh = curationEnvs()

const read = (p: string): Promise<string> => readFile(p, 'utf8')

/** Apply every change of a plan through the curation's own safe paths. */
async function apply(c: Curation, plan: EditPlan): Promise<EditOutcome[]> {
  expect(plan.problems).toEqual([])
  const out: EditOutcome[] = []
  for (const ch of plan.changes) {
    out.push(
      ch.after === null
        ? await c.deleteFile(ch.path, ch.expectedHash as string, plan.title)
        : await c.writeFile(ch.path, ch.expectedHash, ch.after, plan.title),
    )
  }
  return out
}

describe('planEdit on real files, applied and undone', () => {
  /** 199 entries, then `Last` (200), `New` (201), `Newer` (202). */
  function longIndex(eol: string, finalNewline: boolean): string {
    const lines = Array.from(
      { length: 199 },
      (_, i) => `- [E${i + 1}](e${i + 1}.md) — hook ${i + 1}`,
    )
    lines.push(
      '- [Last](last.md) — last to load',
      '- [New](new.md) — new',
      '- [Newer](newer.md) — newest',
    )
    return lines.join(eol) + (finalNewline ? eol : '')
  }

  it('move-entry-above-cutoff: a \\r\\n file without a final newline, applied then undone byte for byte', async () => {
    const env = await fresh()
    const file = join(env.mem, 'MEMORY.md')
    const text = longIndex('\r\n', false)
    await writeFile(file, text)
    const plan = await env.curation.planEdit({ kind: 'move-entry-above-cutoff', file, line: 202 })
    expect(plan.title).toBe(
      'Move “Newer” above the load cutoff (line 202 to line 200); “Last” (now line 201) falls below it',
    )
    expect(plan.changes).toHaveLength(1)
    expect(plan.changes[0].expectedHash).toBe(hashContent(text))
    const [w] = await apply(env.curation, plan)
    expect(w.kind).toBe('written')
    const now = await read(file)
    expect(now.split('\r\n').slice(199)).toEqual([
      '- [Newer](newer.md) — newest',
      '- [Last](last.md) — last to load',
      '- [New](new.md) — new',
    ])
    expect(now.endsWith('\n')).toBe(false)
    // Planning again now finds the entry loads.
    expect(
      (await env.curation.planEdit({ kind: 'move-entry-above-cutoff', file, line: 200 })).problems,
    ).toEqual([
      { path: file, reason: 'it already loads at session start (the cutoff is at line 201)' },
    ])
    expect((await env.restart().undo(null)).kind).toBe('written')
    expect(await readFile(file)).toEqual(Buffer.from(text))
  })

  it('delete-entry with its topic file: both changes apply, and two undos restore both', async () => {
    const env = await fresh()
    const file = join(env.mem, 'MEMORY.md')
    const topic = join(env.mem, 'a.md')
    const index = '# Memory\n- [A](a.md) — first\n  more on A\n- [B](b.md) — second\n'
    await writeFile(file, index)
    await writeFile(topic, '---\nname: A\n---\nBody of A\n')
    await writeFile(join(env.mem, 'b.md'), 'B\n')
    const plan = await env.curation.planEdit({
      kind: 'delete-entry',
      file,
      line: 2,
      deleteTopic: true,
    })
    expect(plan.title).toBe('Delete the entry “A” (lines 2–3) and its topic file a.md')
    expect(plan.changes.map((c) => [c.path, c.after])).toEqual([
      [file, '# Memory\n- [B](b.md) — second\n'],
      [topic, null],
    ])
    const outcomes = await apply(env.curation, plan)
    expect(outcomes.map((o) => o.kind)).toEqual(['written', 'deleted'])
    expect((await readdir(env.mem)).sort()).toEqual(['MEMORY.md', 'b.md'])
    expect((await env.curation.undo(null)).kind).toBe('written')
    expect((await env.curation.undo(null)).kind).toBe('written')
    expect(await read(file)).toBe(index)
    expect(await read(topic)).toBe('---\nname: A\n---\nBody of A\n')

    // A topic linked twice is kept, a missing one is explained.
    await writeFile(file, '- [A](a.md)\n- [A again](a.md)\n- [Gone](gone.md)\n')
    const shared = await env.curation.planEdit({
      kind: 'delete-entry',
      file,
      line: 1,
      deleteTopic: true,
    })
    expect(shared.changes.map((c) => c.path)).toEqual([file])
    expect(shared.problems).toEqual([
      {
        path: topic,
        reason: 'the topic file a.md is also linked by “A again” (line 2), so it is kept',
      },
    ])
    const gone = await env.curation.planEdit({
      kind: 'delete-entry',
      file,
      line: 3,
      deleteTopic: true,
    })
    expect(gone.problems).toEqual([
      {
        path: join(env.mem, 'gone.md'),
        reason: 'the topic file gone.md does not exist, so there is nothing to delete',
      },
    ])
  })

  it('extract-to-topic creates the topic file (must not exist) and shortens the index line', async () => {
    const env = await fresh()
    const file = join(env.mem, 'MEMORY.md')
    const index =
      '- Tests run with `npx vitest run`. Keep each file fast.\n  Use real temp folders.\n- [B](b.md)\n'
    await writeFile(file, index)
    const plan = await env.curation.planEdit({
      kind: 'extract-to-topic',
      file,
      line: 1,
      topicName: 'testing.md',
    })
    expect(plan.changes.map((c) => [c.path, c.expectedHash, c.after])).toEqual([
      [
        file,
        hashContent(index),
        '- [Testing](testing.md) — Tests run with `npx vitest run`.\n- [B](b.md)\n',
      ],
      [
        join(env.mem, 'testing.md'),
        null,
        '---\nname: Testing\ndescription: Tests run with `npx vitest run`.\ntype: project\n---\n\n' +
          'Tests run with `npx vitest run`. Keep each file fast.\nUse real temp folders.\n',
      ],
    ])
    expect((await apply(env.curation, plan)).map((o) => o.kind)).toEqual(['written', 'written'])
    expect((await env.curation.listOperations()).map((o) => o.op)).toEqual(['create', 'write'])
    const again = await env.curation.planEdit({
      kind: 'extract-to-topic',
      file,
      line: 1,
      topicName: 'testing.md',
    })
    expect(again.problems).toEqual([
      {
        path: join(env.mem, 'testing.md'),
        reason: 'testing.md already exists; choose another name',
      },
    ])
    // Undo the creation, then the index edit.
    expect((await env.curation.undo(null)).kind).toBe('deleted')
    expect((await env.curation.undo(null)).kind).toBe('written')
    expect(await read(file)).toBe(index)
    expect((await readdir(env.mem)).sort()).toEqual(['MEMORY.md'])
  })

  it('replace-text changes the index line and its topic file, not other entries', async () => {
    const env = await fresh()
    const file = join(env.mem, 'MEMORY.md')
    const topic = join(env.mem, 'a.md')
    await writeFile(file, '- [A](a.md) — see src/old.ts\n- [B](b.md) — src/old.ts here too\n')
    await writeFile(topic, '---\r\nname: A\r\n---\r\nEdit src/old.ts.\r\n')
    const plan = await env.curation.planEdit({
      kind: 'replace-text',
      file,
      line: 1,
      from: 'src/old.ts',
      to: 'src/new.ts',
    })
    expect(plan.title).toBe('Replace “src/old.ts” with “src/new.ts” in “A” (2 places)')
    await apply(env.curation, plan)
    expect(await read(file)).toBe(
      '- [A](a.md) — see src/new.ts\n- [B](b.md) — src/old.ts here too\n',
    )
    expect(await read(topic)).toBe('---\r\nname: A\r\n---\r\nEdit src/new.ts.\r\n')

    // An instruction file: only the paragraph at the line.
    const claude = join(env.base, 'CLAUDE.md')
    await writeFile(claude, '# Rules\n\nRun make test\nbefore pushing.\n\nmake test is slow.\n')
    const p2 = await env.curation.planEdit({
      kind: 'replace-text',
      file: claude,
      line: 4,
      from: 'make test',
      to: 'make check',
    })
    expect(p2.changes.map((c) => c.after)).toEqual([
      '# Rules\n\nRun make check\nbefore pushing.\n\nmake test is slow.\n',
    ])
    const p3 = await env.curation.planEdit({
      kind: 'replace-text',
      file: claude,
      line: 2,
      from: 'x',
      to: 'y',
    })
    expect(p3.problems).toEqual([{ path: claude, reason: 'no note starts at or spans line 2' }])
  })

  it('turns an unreadable file or a bad line into a problem', async () => {
    const env = await fresh()
    const missing = join(env.mem, 'MEMORY.md')
    expect(
      await env.curation.planEdit({ kind: 'move-entry-above-cutoff', file: missing, line: 1 }),
    ).toEqual({
      title: 'Move an entry above the load cutoff',
      changes: [],
      problems: [{ path: missing, reason: 'no such file' }],
    })
    expect(
      (
        await env.curation.planEdit({
          kind: 'delete-entry',
          file: missing,
          line: 0,
          deleteTopic: false,
        })
      ).problems,
    ).toEqual([{ path: missing, reason: 'line 0 is not a line number' }])
  })
})
