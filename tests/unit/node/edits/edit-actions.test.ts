import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  realpath,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EditOutcome, EditPlan } from '../../../../src/shared/model'
import {
  createCuration,
  type Curation,
  type CurationDeps,
} from '../../../../src/node/edits/edit-actions'
import { createJsonFileStore } from '../../../../src/node/fs/json-store'
import { hashContent } from '../../../../src/node/edits/safe-write'
import { git } from '../../../helpers/git'

let root: string
let n = 0

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'mc-curation-')))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

interface Env {
  readonly base: string
  readonly mem: string
  readonly state: string
  readonly trashDir: string
  readonly deps: CurationDeps
  readonly curation: Curation
  /** A new createCuration over the same folders, as after a restart. */
  restart(): Curation
}

/** A moving fake trash: renames into a folder of its own. */
function folderTrash(dir: string) {
  return async (path: string): Promise<void> => {
    await mkdir(dir, { recursive: true })
    await rename(path, join(dir, `${Date.now()}-${basename(path)}`))
  }
}

async function fresh(trash: 'folder' | 'failing' | 'none' = 'folder'): Promise<Env> {
  const base = join(root, `t${n++}`)
  const mem = join(base, 'memory')
  const state = join(base, 'state')
  const trashDir = join(base, 'trash')
  await mkdir(mem, { recursive: true })
  const make = (): CurationDeps => ({
    stateDir: state,
    trash:
      trash === 'folder'
        ? folderTrash(trashDir)
        : trash === 'failing'
          ? async () => {
              throw new Error('no trash on this test system')
            }
          : null,
    stamps: createJsonFileStore(join(state, 'stamps.json')),
  })
  const deps = make()
  return {
    base,
    mem,
    state,
    trashDir,
    deps,
    curation: createCuration(deps),
    restart: () => createCuration(make()),
  }
}

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

describe('writeFile, listOperations and undo', () => {
  it('creates, replaces, refuses a stale hash, and undoes step by step, also after a restart', async () => {
    const env = await fresh()
    const file = join(env.mem, 'MEMORY.md')
    const v1 = '- [A](a.md) — one\n'
    const v2 = '- [A](a.md) — two\n'

    const created = await env.curation.writeFile(file, null, v1, 'create the index')
    expect(created).toEqual({
      kind: 'written',
      path: file,
      hash: hashContent(v1),
      operationId: expect.any(String),
    })
    const again = await env.curation.writeFile(file, null, 'x', 'must not exist')
    expect(again).toEqual({
      kind: 'conflict',
      path: file,
      currentHash: hashContent(v1),
      currentText: v1,
    })

    const replaced = await env.curation.writeFile(file, hashContent(v1), v2, 'reword A')
    expect(replaced.kind).toBe('written')
    const stale = await env.curation.writeFile(file, hashContent(v1), 'lost\n', 'stale edit')
    expect(stale).toEqual({
      kind: 'conflict',
      path: file,
      currentHash: hashContent(v2),
      currentText: v2,
    })
    expect(await read(file)).toBe(v2)

    const ops = await env.curation.listOperations()
    expect(ops.map((o) => [o.op, o.reason, o.undone])).toEqual([
      ['write', 'reword A', false],
      ['create', 'create the index', false],
    ])
    expect(ops[0].path).toBe(file)
    expect(ops[0].id).toBe((replaced as { operationId: string }).operationId)

    // Restart: a new instance on the same state folder sees the same log.
    const later = env.restart()
    expect((await later.listOperations()).map((o) => o.id)).toEqual(ops.map((o) => o.id))
    const undone = await later.undo(null)
    expect(undone).toEqual({
      kind: 'written',
      path: file,
      hash: hashContent(v1),
      operationId: expect.any(String),
    })
    expect(await read(file)).toBe(v1)

    const afterUndo = await later.listOperations()
    expect(afterUndo.map((o) => [o.op, o.reason, o.undone])).toEqual([
      ['write', `undo ${ops[0].id}`, false],
      ['write', 'reword A', true],
      ['create', 'create the index', false],
    ])

    // The next undo walks further back: the creation is undone by moving the file to the trash.
    const removed = await env.restart().undo(null)
    expect(removed).toEqual({
      kind: 'deleted',
      path: file,
      trashed: true,
      operationId: expect.any(String),
      warning: null,
    })
    expect(await readdir(env.mem)).toEqual([])
    expect(await env.restart().undo(null)).toEqual({
      kind: 'error',
      path: join(env.state, 'backups'),
      reason: 'there is nothing to undo',
    })
  })

  it('refuses to undo over a change made since, and names unknown operations', async () => {
    const env = await fresh()
    const file = join(env.mem, 'note.md')
    await writeFile(file, 'original\n')
    const w = await env.curation.writeFile(file, hashContent('original\n'), 'ours\n', 'edit')
    await writeFile(file, 'someone else\n')
    const r = await env.curation.undo((w as { operationId: string }).operationId)
    expect(r).toEqual({
      kind: 'conflict',
      path: file,
      currentHash: hashContent('someone else\n'),
      currentText: 'someone else\n',
    })
    expect(await read(file)).toBe('someone else\n')
    expect(await env.curation.undo('20260101T000000000Z-000001-abcdef')).toEqual({
      kind: 'error',
      path: join(env.state, 'backups'),
      reason: 'no operation 20260101T000000000Z-000001-abcdef in the undo log',
    })
  })

  it('reports a write it cannot do as an error naming the path', async () => {
    const env = await fresh()
    const r = await env.curation.writeFile(env.mem, null, 'x', 'write onto a folder')
    expect(r).toEqual({
      kind: 'error',
      path: env.mem,
      reason: `cannot write ${env.mem}: is a directory`,
    })
    const missingDir = join(env.mem, 'no', 'such', 'x.md')
    const e = await env.curation.writeFile(missingDir, null, 'x', 'create')
    expect(e.kind).toBe('error')
    expect(e.path).toBe(missingDir)
  })
})

describe('deleteFile', () => {
  it('keeps the file and says so when the trash fails', async () => {
    const env = await fresh('failing')
    const file = join(env.mem, 'topic.md')
    await writeFile(file, 'keep me\n')
    const r = await env.curation.deleteFile(file, hashContent('keep me\n'), 'delete topic')
    expect(r.kind).toBe('error')
    expect((r as { reason: string }).reason).toMatch(
      new RegExp(
        `^could not move to the trash ${file}: no trash on this test system; the file was left in place \\(backup [0-9A-Za-z-]+\\)$`,
      ),
    )
    expect(await read(file)).toBe('keep me\n')
    expect(await env.curation.listOperations()).toEqual([])
  })

  it('keeps the file when there is no trash at all', async () => {
    const env = await fresh('none')
    const file = join(env.mem, 'topic.md')
    await writeFile(file, 'keep me\n')
    expect(await env.curation.deleteFile(file, hashContent('keep me\n'), 'delete')).toEqual({
      kind: 'error',
      path: file,
      reason: `no trash is available here, so ${file} was not deleted`,
    })
    expect(await read(file)).toBe('keep me\n')
  })

  it('trashes the file, refuses a stale hash, and undo brings the exact bytes back', async () => {
    const env = await fresh()
    const file = join(env.mem, 'topic.md')
    const bytes = 'line one\r\nline two'
    await writeFile(file, bytes)
    expect(await env.curation.deleteFile(file, hashContent('other'), 'delete')).toEqual({
      kind: 'conflict',
      path: file,
      currentHash: hashContent(bytes),
      currentText: bytes,
    })
    const r = await env.curation.deleteFile(file, hashContent(bytes), 'delete topic')
    expect(r).toEqual({
      kind: 'deleted',
      path: file,
      trashed: true,
      operationId: expect.any(String),
      warning: null,
    })
    expect(await readdir(env.mem)).toEqual([])
    expect((await readdir(env.trashDir)).length).toBe(1)
    expect((await env.curation.listOperations())[0]).toMatchObject({
      op: 'delete',
      path: file,
      reason: 'delete topic',
    })
    expect(await env.restart().undo(null)).toEqual({
      kind: 'written',
      path: file,
      hash: hashContent(bytes),
      operationId: expect.any(String),
    })
    expect(await read(file)).toBe(bytes)
  })
})

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
      '---\nname: X\ntype: project\n---\nThe value is in `src/x.ts`; `src/gone.ts` was removed.\n',
    )

    const stamp = await env.curation.verifyNote(env.mem, repo, index, 2)
    expect(stamp).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{64}$/),
      file: index,
      title: 'X',
      noteHash: hashContent(
        '- [X](x.md) — where x lives\n\nThe value is in `src/x.ts`; `src/gone.ts` was removed.\n',
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
