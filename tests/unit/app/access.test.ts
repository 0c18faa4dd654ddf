/**
 * Issue 11 items 3–5: access follows purpose, not roots. Attacks through the back end's API
 * (and through `serve` over HTTP) on a real fixture home with a real git repository; each
 * failed on the root-based guard. The legitimate flows the window uses still work.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { encodeProjectDir } from '../../../src/core/memory/project-path'
import { startServe, type RunningServe } from '../../../src/cli/serve'
import type { Backend } from '../../../src/node/app/backend'
import { hashContent } from '../../../src/node/edits/safe-write'
import { API_PREFIX, TOKEN_HEADER } from '../../../src/shared/channels'
import { fixtureBackend } from '../../helpers/test-backend'
import { createFixtureHome, transcriptLine, type FixtureHome } from '../../helpers/fixture-home'
import { git } from '../../helpers/git'

const SECRET = 'PRIVATE KEY canary 7f3a'
const OUTSIDE_TEXT = 'outside-the-memory-folder canary 91c2'

interface Env {
  readonly f: FixtureHome
  /** A folder outside every home: nothing may be read from or created in it. */
  readonly outside: string
  readonly backend: Backend
}

/** A transcript in its own project folder whose first line names `cwd` (hostile input). */
function plantTranscript(claudeHome: string, cwd: string, id: string): void {
  const dir = join(claudeHome, 'projects', encodeProjectDir(cwd) || `-${id}`)
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, `${id}.jsonl`),
    transcriptLine({ cwd, sessionId: id, gitBranch: '' }) + '\n',
  )
}

async function build(): Promise<Env> {
  const f = createFixtureHome()
  const outside = mkdtempSync(join(tmpdir(), 'mc-access-outside-'))
  // A HOME with a private key, named as the launch directory of a session (item 4).
  mkdirSync(join(f.home, '.ssh'), { recursive: true })
  writeFileSync(join(f.home, '.ssh', 'id_rsa'), `-----BEGIN ${SECRET}-----\n`)
  plantTranscript(f.claudeHome, f.home, '33333333-3333-4333-8333-333333333333')
  // A crafted line whose cwd is the file system's root.
  plantTranscript(f.claudeHome, '/', '44444444-4444-4444-8444-444444444444')
  // A topic file that is a symlink to a file outside the memory folder (item 5).
  writeFileSync(join(outside, 'elsewhere.md'), `${OUTSIDE_TEXT}\n`)
  symlinkSync(join(outside, 'elsewhere.md'), join(f.memoryDir, 'note-6.md'))
  const backend = await fixtureBackend(f)
  // The window scans first; on the old guard that made every transcript cwd a root.
  const scan = await backend.scan()
  expect(scan.projects.flatMap((p) => p.cwds)).toEqual(
    expect.arrayContaining([f.home, '/', f.repo]),
  )
  return { f, outside, backend }
}

const refusal = async (work: Promise<unknown>): Promise<string> => {
  try {
    const r = await work
    throw new Error(`answered: ${JSON.stringify(r).slice(0, 300)}`)
  } catch (err) {
    expect((err as { code?: string }).code, String(err)).toBe('forbidden')
    return (err as Error).message
  }
}

/** Line of the index entry `- [Note n](note-n.md)` in the fixture's MEMORY.md. */
function entryLine(f: FixtureHome, n: number): number {
  const lines = readFileSync(join(f.memoryDir, 'MEMORY.md'), 'utf8').split('\n')
  return lines.findIndex((l) => l.startsWith(`- [Note ${n}](`)) + 1
}

describe('writes and reads through the back end follow purpose (issue 11 items 3–5)', () => {
  let env: Env
  beforeEach(async () => {
    env = await build()
  })
  afterEach(async () => {
    await env.backend.dispose()
    env.f.cleanup()
    rmSync(env.outside, { recursive: true, force: true })
  })

  it('refuses writes to .git/config, repository code and home files outside memory', async () => {
    const { f, backend, outside } = env
    const config = join(f.repo, '.git', 'config')
    const configBefore = readFileSync(config, 'utf8')
    const cart = join(f.repo, 'src', 'cart.ts')
    const cartBefore = readFileSync(cart, 'utf8')
    const hostile = '[core]\n\tfsmonitor = touch /tmp/pwned\n'
    expect(await refusal(backend.writeFile(config, hashContent(configBefore), hostile, 'x'))).toBe(
      `${config}: inside .git`,
    )
    expect(
      await refusal(backend.writeFile(cart, hashContent(cartBefore), 'pwned()\n', 'x')),
    ).toContain(`${cart}: not a memory file`)
    // Repository code is not an instruction file even after its chain is computed.
    await backend.loadOrder(f.repo)
    expect(
      await refusal(backend.writeFile(cart, hashContent(cartBefore), 'pwned()\n', 'x')),
    ).toContain('not a memory file')
    for (const p of [
      join(f.home, '.bashrc'),
      join(f.claudeHome, 'settings.json'),
      join(f.projectDir, 'x.jsonl'),
      join(f.memoryDir, 'run.sh'),
      join(outside, 'created.md'),
      join(f.repo, '.git', 'hooks', 'pre-commit'),
    ]) {
      expect(await refusal(backend.writeFile(p, null, 'echo pwned\n', 'x'))).toContain(p)
      expect(existsSync(p), p).toBe(false)
    }
    expect(
      await refusal(
        backend.deleteFile(
          join(f.repo, 'CLAUDE.md'),
          hashContent(readFileSync(join(f.repo, 'CLAUDE.md'), 'utf8')),
          'x',
        ),
      ),
    ).toContain('not a memory file')
    expect(readFileSync(config, 'utf8')).toBe(configBefore)
    expect(readFileSync(cart, 'utf8')).toBe(cartBefore)
  })

  it('a transcript cwd opens nothing: not ~/.ssh of a HOME it names, not /etc/hostname for "cwd": "/"', async () => {
    const { f, backend, outside } = env
    const key = join(f.home, '.ssh', 'id_rsa')
    expect(await refusal(backend.readFile(key))).toContain(`${key}: not a memory file`)
    expect(await refusal(backend.cutoff(key))).toContain(key)
    expect(await refusal(backend.readFile('/etc/hostname'))).toContain('/etc/hostname')
    expect(
      await refusal(backend.noteDiffs(f.memoryDir, f.repo, '/etc/hostname', 1, null)),
    ).toContain('/etc/hostname')
    // Not a repository either: no diffs or references read from `/` or the HOME.
    expect(await refusal(backend.audit(f.memoryDir, '/'))).toContain(
      'not the repository of a scanned project',
    )
    expect(
      await refusal(backend.verifyNote(f.memoryDir, f.home, join(f.memoryDir, 'note-1.md'), 1)),
    ).toContain(f.home)
    // No file created outside the homes, whatever the transcript named.
    const created = join(outside, 'MEMORY.md')
    expect(await refusal(backend.writeFile(created, null, 'x\n', 'x'))).toContain(created)
    expect(await refusal(backend.writeFile('/tmp/mc-access-pwned.md', null, 'x\n', 'x'))).toContain(
      'not a memory file',
    )
    expect(existsSync(created)).toBe(false)
    expect(existsSync('/tmp/mc-access-pwned.md')).toBe(false)
    // Even with the HOME's load chain computed, the key is no instruction file.
    await backend.loadOrder(f.home)
    expect(await refusal(backend.readFile(key))).toContain(key)
  })

  it('planEdit never reads through a topic symlink that leaves the memory folder', async () => {
    const { f, backend } = env
    const index = join(f.memoryDir, 'MEMORY.md')
    const link = join(f.memoryDir, 'note-6.md')
    const line = entryLine(f, 6)
    const del = await backend.planEdit({
      kind: 'delete-entry',
      file: index,
      line,
      deleteTopic: true,
    })
    expect(JSON.stringify(del)).not.toContain(OUTSIDE_TEXT)
    expect(del.problems.map((p) => p.reason).join('\n')).toContain(
      `is a symlink that leaves the memory folder (${link})`,
    )
    // The index entry itself may still go; the outside file is never part of a change.
    expect(del.changes.map((c) => c.path)).toEqual([index])
    const rep = await backend.planEdit({
      kind: 'replace-text',
      file: index,
      line,
      from: 'Note 6',
      to: 'Note six',
    })
    expect(JSON.stringify(rep)).not.toContain(OUTSIDE_TEXT)
    expect(rep.changes.map((c) => c.path)).not.toContain(link)
    // The link itself, asked for directly, is refused by the guard.
    expect(
      await refusal(
        backend.planEdit({ kind: 'replace-text', file: link, line: 1, from: 'a', to: 'b' }),
      ),
    ).toContain('a symlink that leads to')
    expect(await refusal(backend.readFile(link))).toContain('a symlink that leads to')
  })

  it('a stamp hashes no file outside the repository or inside .git, whatever a note names', async () => {
    const { f, backend, outside } = env
    writeFileSync(join(outside, 'target.ts'), `${SECRET}\n`)
    symlinkSync(join(outside, 'target.ts'), join(f.repo, 'src', 'linked.ts'))
    const note = join(f.memoryDir, 'note-2.md')
    writeFileSync(
      note,
      '---\nname: Note 2\ndescription: d\ntype: project\n---\n\nSee `src/linked.ts`, `.git/config` and `src/cart.ts`.\n',
    )
    const stamp = await backend.verifyNote(f.memoryDir, f.repo, note, 1)
    expect(Object.keys(stamp.references)).toEqual([join(f.repo, 'src', 'cart.ts')])
  })

  it('a diff never shows the target of a tracked symlink that leaves the repository', async () => {
    const { f, backend, outside } = env
    writeFileSync(join(outside, 'hostname'), `${SECRET}\n`)
    symlinkSync(join(outside, 'hostname'), join(f.repo, 'src', 'host.ts'))
    git(f.repo, 'add', '-A')
    git(f.repo, 'commit', '-qm', 'link')
    const note = join(f.memoryDir, 'note-3.md')
    writeFileSync(
      note,
      '---\nname: Note 3\ndescription: d\ntype: project\n---\n\n`src/host.ts` holds the host name.\n',
    )
    // A linked topic file's note is its index entry.
    const diffs = await backend.noteDiffs(
      f.memoryDir,
      f.repo,
      join(f.memoryDir, 'MEMORY.md'),
      entryLine(f, 3),
      new Date().toISOString(),
    )
    expect(diffs.length).toBeGreaterThan(0)
    expect(JSON.stringify(diffs)).not.toContain(SECRET)
    const audit = await backend.audit(f.memoryDir, f.repo)
    expect(JSON.stringify(audit)).not.toContain(SECRET)
  })

  it('the legitimate flows still work: edit memory, edit an opened CLAUDE.md, references, diffs, provenance', async () => {
    const { f, backend } = env
    // Edit a memory file and create a topic file.
    const index = join(f.memoryDir, 'MEMORY.md')
    const read = await backend.readFile(index)
    if (!read.ok) throw new Error(read.reason)
    const w = await backend.writeFile(
      index,
      read.hash,
      `${read.text}- [Extra](extra.md) — x\n`,
      'test edit',
    )
    expect(w.kind).toBe('written')
    expect(
      (await backend.writeFile(join(f.memoryDir, 'extra.md'), null, '# Extra\n', 'test create'))
        .kind,
    ).toBe('written')
    // An instruction file is editable once the load chain that shows it was computed.
    const claudeMd = join(f.repo, 'CLAUDE.md')
    const before = readFileSync(claudeMd, 'utf8')
    expect(
      await refusal(backend.writeFile(claudeMd, hashContent(before), `${before}More.\n`, 'x')),
    ).toContain('not a memory file or an instruction file')
    const chain = await backend.loadOrder(f.repo)
    expect(chain.claude.startup.map((s) => s.path)).toContain(claudeMd)
    const opened = await backend.readFile(claudeMd)
    expect(opened.ok).toBe(true)
    expect(
      (await backend.writeFile(claudeMd, hashContent(before), `${before}More.\n`, 'edit CLAUDE.md'))
        .kind,
    ).toBe('written')
    expect(readFileSync(claudeMd, 'utf8')).toBe(`${before}More.\n`)
    // A referenced file inside the repository is read (hashed) for a stamp; a tracked file for a diff.
    const note = join(f.memoryDir, 'note-1.md')
    const stamp = await backend.verifyNote(f.memoryDir, f.repo, note, 1)
    expect(stamp.references[join(f.repo, 'src', 'cart.ts')]).toBe(
      hashContent(readFileSync(join(f.repo, 'src', 'cart.ts'), 'utf8')),
    )
    const diffs = await backend.noteDiffs(f.memoryDir, f.repo, note, 1, null)
    expect(Array.isArray(diffs)).toBe(true)
    const audit = await backend.audit(f.memoryDir, f.repo)
    expect(audit.notes.length).toBeGreaterThan(0)
    // Provenance reads the transcripts of the memory folder's project.
    const prov = await backend.provenance(f.memoryDir)
    expect(Array.isArray(prov.files)).toBe(true)
    expect((await backend.listStamps(f.memoryDir, f.repo)).length).toBe(1)
  })
})

describe('through serve over HTTP', () => {
  let env: { f: FixtureHome; served: RunningServe; renderer: string } | null = null
  afterAll(async () => {
    await env?.served.close()
    env?.f.cleanup()
    if (env) rmSync(env.renderer, { recursive: true, force: true })
  })

  it('refuses /etc/hostname after a "cwd": "/" transcript and a write to .git/config with 403', async () => {
    const f = createFixtureHome()
    plantTranscript(f.claudeHome, '/', '44444444-4444-4444-8444-444444444444')
    const renderer = mkdtempSync(join(tmpdir(), 'mc-access-renderer-'))
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>t</title>')
    const served = await startServe({
      port: 0,
      host: '127.0.0.1',
      demo: false,
      stateDir: f.stateDir,
      global: { claudeHome: f.claudeHome, codexHome: f.codexHome, managedDir: f.managedDir },
      rendererDir: renderer,
      quiet: true,
    })
    env = { f, served, renderer }
    const call = async (
      method: string,
      args: unknown[],
    ): Promise<{ status: number; body: string }> => {
      const r = await fetch(`http://127.0.0.1:${served.port}${API_PREFIX}${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: served.token },
        body: JSON.stringify(args),
      })
      return { status: r.status, body: await r.text() }
    }
    expect((await call('scan', [])).status).toBe(200)
    const hostname = await call('readFile', ['/etc/hostname'])
    expect(hostname.status).toBe(403)
    expect(hostname.body).toContain('/etc/hostname: not a memory file')
    const config = join(f.repo, '.git', 'config')
    const before = readFileSync(config, 'utf8')
    const write = await call('writeFile', [
      config,
      hashContent(before),
      '[core]\n\tfsmonitor = touch /tmp/x\n',
      'x',
    ])
    expect(write.status).toBe(403)
    expect(write.body).toContain('inside .git')
    expect(readFileSync(config, 'utf8')).toBe(before)
    // The window's own read of a memory file still answers.
    const mem = await call('readFile', [join(f.memoryDir, 'MEMORY.md')])
    expect(mem.status).toBe(200)
  })
})
