import { execFileSync } from 'node:child_process'
import { chmod, copyFile, mkdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRANSCRIPT_HEAD_MAX_BYTES } from '../../../../src/core/limits'
import type { ProjectInfo, ScanResult } from '../../../../src/shared/model'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import { scanClaudeHome } from '../../../../src/node/memory/scan'
import { CORPUS_ROOT, HAS_CORPUS, needsCorpus } from '../../../helpers/corpus'
import { git } from '../../../helpers/git'
import { day, msg, put, scanRoot } from './scan-fixture'

const CORPUS = `${CORPUS_ROOT}/transcripts`
/** Project folders built only from corpus transcripts (6 and 8); absent in a clone without the corpus. */
const CORPUS_PROJECTS = ['-path-to-Demo', '-path-to-Demo-todo-app']
const PROJECT_COUNT = HAS_CORPUS ? 10 : 10 - CORPUS_PROJECTS.length
const isRoot = process.getuid?.() === 0

let root: string
let home: string
let projects: string
let repo: string
let wt: string
let plain: string
let gone: string
let result: ScanResult
const progress: [number, number][] = []
const savedCeiling = process.env.GIT_CEILING_DIRECTORIES

const byId = (id: string): ProjectInfo => {
  const p = result.projects.find((x) => x.id === id)
  if (!p) throw new Error(`no project ${id}`)
  return p
}

beforeAll(async () => {
  root = await scanRoot('mc-scan-')
  home = join(root, 'claude')
  projects = join(home, 'projects')
  const work = join(root, 'work')
  repo = join(work, 'repo')
  wt = join(work, 'wt')
  plain = join(work, 'plain')
  gone = join(work, 'gone')

  await put(join(repo, 'sub', 'f.txt'), 'f\n')
  git(repo, 'init', '-q', '-b', 'main')
  git(repo, 'add', '.')
  git(repo, 'commit', '-q', '-m', 'init')
  git(repo, 'worktree', 'add', '-q', '-b', 'feature', wt)
  await mkdir(plain, { recursive: true })
  await mkdir(gone, { recursive: true })
  await rm(gone, { recursive: true })

  // 1. The main repository: three sessions, two cwds, sub-agents that must not count.
  const p1 = join(projects, encodeProjectDir(repo))
  await put(join(p1, 'aaaa.jsonl'), msg(repo, 'aaaa', 'main'), day('2025-01-01'))
  await put(join(p1, 'bbbb.jsonl'), msg(join(repo, 'sub'), 'bbbb', 'main'), day('2025-02-01'))
  await put(join(p1, 'cccc.jsonl'), msg(repo, 'cccc', 'main'), day('2024-12-01'))
  await put(join(p1, 'agent-old.jsonl'), msg('/elsewhere', 'aaaa'), day('2025-03-01'))
  await put(
    join(p1, 'aaaa', 'subagents', 'agent-1.jsonl'),
    msg('/elsewhere2', 'aaaa'),
    day('2025-03-01'),
  )
  await put(join(p1, 'aaaa', 'tool-results', 'x.txt'), 'x')
  execFileSync('mkfifo', [join(p1, 'pipe.jsonl')])
  const m1 = join(p1, 'memory')
  await put(join(m1, 'MEMORY.md'), '# Index\n- [A](a.md) — a\n- [D](nested/deep.md) — d\n')
  await put(join(m1, 'a.md'), '---\nname: a\ntype: project\n---\nRule.\r\n**Why:** x\r\n')
  await put(join(m1, 'nested', 'deep.md'), 'deep')
  await put(join(m1, 'notes.txt'), 'not markdown\n')
  await put(join(m1, '.obsidian', 'w.md'), 'hidden\n')
  await symlink('.', join(m1, 'loop'))
  await symlink('..', join(m1, 'nested', 'up.md'))
  await symlink('cycle.md', join(m1, 'cycle.md'))
  execFileSync('mkfifo', [join(m1, 'pipe.md')])

  // 2. A linked worktree of that repository: memory belongs to the main worktree.
  await put(join(projects, encodeProjectDir(wt), 's-wt.jsonl'), msg(wt, 's-wt', 'feature'))

  // 3. Outside git, with a directory named MEMORY.md.
  const p3 = join(projects, encodeProjectDir(plain))
  await put(join(p3, 's-plain.jsonl'), msg(plain, 's-plain'))
  await put(join(p3, 'memory', 'MEMORY.md', 'inner.md'), 'one\ntwo\n')
  await put(join(p3, 'memory', 'x.md'), '')

  // 4. No transcripts; a binary MEMORY.md.
  await put(
    join(projects, '-no-transcripts', 'memory', 'MEMORY.md'),
    Buffer.from([0x23, 0x00, 0x0a, 0xff]),
  )

  // 5. The launch directory was deleted.
  await put(join(projects, encodeProjectDir(gone), 's-gone.jsonl'), msg(gone, 's-gone'))

  // 6. Malformed first lines, then a summary line, then the message (corpus excerpt).
  if (HAS_CORPUS) {
    const excerpt = await readFile(
      join(CORPUS, 'cc-transcript-v1.0.98-write-edit-multiedit-excerpt.jsonl'),
    )
    await put(
      join(projects, '-path-to-Demo-todo-app', 'fe5e.jsonl'),
      Buffer.concat([Buffer.from('{not json\ngarbage\n'), excerpt]),
    )
  }

  // 7. Only sub-agent transcripts, new and old layout.
  const p7 = join(projects, 'sub-agents-only')
  await put(
    join(p7, 's1', 'subagents', 'agent-a.jsonl'),
    msg('/opt/newer', 's1'),
    day('2025-06-01'),
  )
  if (HAS_CORPUS) {
    await mkdir(p7, { recursive: true })
    await copyFile(
      join(CORPUS, 'cc-agent-legacy-layout-v2.0.28.jsonl'),
      join(p7, 'agent-test-hash-123.jsonl'),
    )
    await utimes(join(p7, 'agent-test-hash-123.jsonl'), day('2025-05-01'), day('2025-05-01'))

    // 8. Real corpus heads: two sessions with different cwds, the newer first.
    const p8 = join(projects, '-path-to-Demo')
    await mkdir(p8, { recursive: true })
    await copyFile(join(CORPUS, 'cc-transcript-v1.0.98-full.jsonl'), join(p8, '1af7.jsonl'))
    await utimes(join(p8, '1af7.jsonl'), day('2025-09-03'), day('2025-09-03'))
    await copyFile(join(CORPUS, 'cc-transcript-v2.0.76-raw-excerpt.jsonl'), join(p8, '6f25.jsonl'))
    await utimes(join(p8, '6f25.jsonl'), day('2025-08-01'), day('2025-08-01'))
  }

  // 9. A 10 MB single-line transcript.
  await put(join(projects, 'huge', 'h.jsonl'), Buffer.alloc(10 * 1024 * 1024, 'x'))

  // 10. An unreadable MEMORY.md (permissions don't bind root).
  const perm = await put(join(projects, 'perm', 'memory', 'MEMORY.md'), 'secret\n')
  await chmod(perm, 0o000)

  // Not a project folder.
  await put(join(projects, 'stray.txt'), 'x')

  result = await scanClaudeHome(home, { onProgress: (d, t) => progress.push([d, t]) })
})

afterAll(async () => {
  if (savedCeiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES
  else process.env.GIT_CEILING_DIRECTORIES = savedCeiling
  await chmod(join(projects, 'perm', 'memory', 'MEMORY.md'), 0o644).catch(() => undefined)
  await rm(root, { recursive: true, force: true })
})

describe('scanClaudeHome', () => {
  it('lists every project folder, sorted by name then id, with no top-level problems', () => {
    expect(result.claudeHome).toBe(home)
    expect(result.problems).toEqual([])
    expect(result.projects.map((p) => [p.name, p.id])).toEqual(
      [
        ['-no-transcripts', '-no-transcripts'],
        ['Demo', '-path-to-Demo'],
        ['gone', encodeProjectDir(gone)],
        ['huge', 'huge'],
        ['newer', 'sub-agents-only'],
        ['perm', 'perm'],
        ['plain', encodeProjectDir(plain)],
        ['sub', encodeProjectDir(repo)],
        ['todo-app', '-path-to-Demo-todo-app'],
        ['wt', encodeProjectDir(wt)],
      ].filter(([, id]) => HAS_CORPUS || !CORPUS_PROJECTS.includes(id)),
    )
  })

  it('reports progress for each project folder', () => {
    expect(progress[0]).toEqual([0, PROJECT_COUNT])
    expect(progress[progress.length - 1]).toEqual([PROJECT_COUNT, PROJECT_COUNT])
    expect(progress).toHaveLength(PROJECT_COUNT + 1)
  })

  it('scans a git project: sessions, cwds newest first, repo root, memory files', () => {
    const dir = join(projects, encodeProjectDir(repo))
    const mem = join(dir, 'memory')
    expect(byId(encodeProjectDir(repo))).toEqual({
      id: encodeProjectDir(repo),
      dir,
      cwds: [join(repo, 'sub'), repo],
      repoRoot: repo,
      sessions: 3,
      memoryDir: mem,
      memoryFiles: [
        // The index's first heading comes with the scan (a name when no transcript is left).
        {
          path: join(mem, 'MEMORY.md'),
          role: 'index',
          lines: 3,
          bytes: 54,
          frontmatter: null,
          heading: 'Index',
        },
        // A topic file's frontmatter fields come with the scan (the window lists them).
        {
          path: join(mem, 'a.md'),
          role: 'topic',
          lines: 6,
          bytes: 49,
          frontmatter: { name: 'a', type: 'project', description: undefined },
        },
        {
          path: join(mem, 'nested', 'deep.md'),
          role: 'topic',
          lines: 1,
          bytes: 4,
          frontmatter: null,
        },
      ],
      name: 'sub',
      // The newest session transcript's time (issue 15 item 16: the sidebar orders by it).
      lastActivity: '2025-02-01T00:00:00.000Z',
      problems: [
        { path: join(dir, 'pipe.jsonl'), reason: 'not a regular file (FIFO, socket or device)' },
        { path: join(mem, 'cycle.md'), reason: 'symlink loop' },
        // nested/up.md → .. is the memory folder itself, already listed once: no loop, no problem
        // (memory-folder.ts follows symlinks that stay inside the folder, each real folder once).
        { path: join(mem, 'pipe.md'), reason: 'not a regular file (FIFO, socket or device)' },
      ],
    })
  })

  it('gives a linked worktree the MAIN worktree as repoRoot', () => {
    expect(byId(encodeProjectDir(wt))).toMatchObject({
      cwds: [wt],
      repoRoot: repo,
      sessions: 1,
      memoryDir: null,
      memoryFiles: [],
      problems: [],
    })
  })

  it('handles a cwd outside git and a directory named MEMORY.md', () => {
    const mem = join(projects, encodeProjectDir(plain), 'memory')
    expect(byId(encodeProjectDir(plain))).toMatchObject({
      cwds: [plain],
      repoRoot: null,
      sessions: 1,
      memoryDir: mem,
      memoryFiles: [
        { path: join(mem, 'MEMORY.md', 'inner.md'), role: 'topic', lines: 2, bytes: 8 },
        { path: join(mem, 'x.md'), role: 'topic', lines: 0, bytes: 0 },
      ],
      problems: [{ path: join(mem, 'MEMORY.md'), reason: 'MEMORY.md is a directory, not a file' }],
    })
  })

  it('reports a project without transcripts and a binary MEMORY.md', () => {
    const dir = join(projects, '-no-transcripts')
    const index = join(dir, 'memory', 'MEMORY.md')
    expect(byId('-no-transcripts')).toEqual({
      id: '-no-transcripts',
      dir,
      cwds: [],
      repoRoot: null,
      sessions: 0,
      memoryDir: join(dir, 'memory'),
      memoryFiles: [{ path: index, role: 'index', lines: 0, bytes: 4 }],
      name: '-no-transcripts',
      lastActivity: null,
      problems: [
        { path: dir, reason: 'no transcripts: the launch directory is unknown' },
        { path: index, reason: 'binary file (contains NUL bytes)' },
      ],
    })
  })

  it('keeps a deleted cwd, with no repository', () => {
    expect(byId(encodeProjectDir(gone))).toMatchObject({
      cwds: [gone],
      repoRoot: null,
      sessions: 1,
      problems: [],
    })
  })

  it('skips malformed lines and a summary line before the first message', (ctx) => {
    needsCorpus(ctx)
    const dir = join(projects, '-path-to-Demo-todo-app')
    expect(byId('-path-to-Demo-todo-app')).toMatchObject({
      cwds: ['/path/to/Demo/todo-app'],
      repoRoot: null,
      sessions: 1,
      memoryDir: null,
      problems: [{ path: join(dir, 'fe5e.jsonl'), reason: '2 malformed lines in the first 4' }],
    })
  })

  it('takes cwds from sub-agent transcripts when there are no sessions', (ctx) => {
    needsCorpus(ctx)
    expect(byId('sub-agents-only')).toMatchObject({
      cwds: ['/opt/newer', '/path/to/Demo'],
      sessions: 0,
      repoRoot: null,
      problems: [],
    })
  })

  it('reads real corpus heads, newest transcript first', (ctx) => {
    needsCorpus(ctx)
    expect(byId('-path-to-Demo')).toMatchObject({
      cwds: ['/path/to/Demo', '/Users/yoav/projects/alignment-hive'],
      sessions: 2,
      repoRoot: null,
      problems: [],
    })
  })

  it('reads only the head of a 10 MB single-line transcript', () => {
    const dir = join(projects, 'huge')
    expect(byId('huge')).toMatchObject({
      cwds: [],
      sessions: 1,
      problems: [
        {
          path: join(dir, 'h.jsonl'),
          reason: `1 malformed line in the first 1, longer than the ${TRANSCRIPT_HEAD_MAX_BYTES}-byte head`,
        },
        { path: dir, reason: 'no transcript names a cwd: the launch directory is unknown' },
      ],
    })
  })

  it.skipIf(isRoot)(
    'reports an unreadable MEMORY.md with 0 lines (skipped as root: root ignores permissions)',
    () => {
      const index = join(projects, 'perm', 'memory', 'MEMORY.md')
      expect(byId('perm').memoryFiles).toEqual([{ path: index, role: 'index', lines: 0, bytes: 7 }])
      expect(byId('perm').problems).toContainEqual({ path: index, reason: 'cannot open: EACCES' })
    },
  )
})

describe('scanClaudeHome on a bad home', () => {
  it('returns a problem for a missing Claude home', async () => {
    const missing = join(root, 'nope')
    expect(await scanClaudeHome(missing)).toEqual({
      claudeHome: missing,
      projects: [],
      problems: [{ path: missing, reason: 'Claude home does not exist' }],
    })
  })

  it('returns a problem when projects/ is a file, and nothing when it is missing (before the first session) or empty', async () => {
    const h = join(root, 'h2')
    await mkdir(h)
    expect(await scanClaudeHome(h)).toEqual({ claudeHome: h, projects: [], problems: [] })
    await writeFile(join(h, 'projects'), 'x')
    expect((await scanClaudeHome(h)).problems).toEqual([
      { path: join(h, 'projects'), reason: 'projects folder is not a folder' },
    ])
    await rm(join(h, 'projects'))
    await mkdir(join(h, 'projects'))
    expect(await scanClaudeHome(h)).toEqual({ claudeHome: h, projects: [], problems: [] })
  })

  it('returns a problem when the Claude home is a file', async () => {
    const f = await put(join(root, 'home-file'), 'x')
    expect((await scanClaudeHome(f)).problems).toEqual([
      { path: f, reason: 'Claude home is not a folder' },
    ])
  })

  it('rejects when aborted', async () => {
    const ac = new AbortController()
    ac.abort()
    await expect(scanClaudeHome(home, { signal: ac.signal })).rejects.toThrow()
  })

  it('scans 40 project folders with bounded concurrency', async () => {
    const h = join(root, 'many')
    for (let i = 0; i < 40; i++) {
      const id = `p${String(i).padStart(2, '0')}`
      await put(join(h, 'projects', id, 's.jsonl'), msg(`/x/${id}`, id))
    }
    const r = await scanClaudeHome(h)
    expect(r.projects.map((p) => p.name)).toEqual(
      Array.from({ length: 40 }, (_, i) => `p${String(i).padStart(2, '0')}`),
    )
    expect(r.projects.every((p) => p.sessions === 1 && p.problems.length === 0)).toBe(true)
  })
})
