/**
 * Hostile and broken input for the reliability tests (issue 8): a small but real tree
 * (Claude home with one project, its memory folder and transcript, a git repository,
 * Codex and managed folders, a folder "outside" that imports and symlinks point at),
 * and a list of ways to spoil it. Plus tree snapshots (bytes + mtimes) to prove that
 * reading never writes, and canary files whose atime shows any read.
 */
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  appendFileSync,
  closeSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeProjectDir } from '../../src/core/memory/project-path'
import { transcriptLine } from './fixture-home'
import { initialCommit } from './git'

export const SESSION = '33333333-3333-4333-8333-333333333333'

export interface BadTree {
  readonly root: string
  readonly claudeHome: string
  readonly codexHome: string
  readonly managedDir: string
  readonly repo: string
  readonly projectDir: string
  readonly memoryDir: string
  readonly transcript: string
  /** A folder outside every root: imports and symlinks that escape point here. */
  readonly outside: string
  /** HOME and XDG folders of the process under test (its own state may change). */
  readonly processHome: string
  /** The folders whose bytes and mtimes must not change without an edit. */
  readonly watched: readonly string[]
  cleanup(): void
}

/** A healthy tree the bad inputs are planted into. */
export function createBadTree(prefix = 'mc-bad-'): BadTree {
  const root = mkdtempSync(join(tmpdir(), prefix))
  const claudeHome = join(root, 'claude')
  const codexHome = join(root, 'codex')
  const managedDir = join(root, 'managed')
  const repo = join(root, 'repos', 'app')
  const outside = join(root, 'outside')
  const processHome = join(root, 'process-home')
  for (const d of [claudeHome, codexHome, managedDir, repo, outside, processHome])
    mkdirSync(d, { recursive: true })
  writeFileSync(join(outside, 'secret.md'), 'CANARY-OUTSIDE-SECRET\n')
  initialCommit(
    repo,
    {
      'CLAUDE.md': '# App\n\nRun `npm test`.\n',
      'src/main.ts': 'export function main(): void {}\n',
      'package.json': '{"name":"app","scripts":{"test":"vitest"}}\n',
    },
    '2026-03-01T10:00:00Z',
  )
  const projectDir = join(claudeHome, 'projects', encodeProjectDir(repo))
  const memoryDir = join(projectDir, 'memory')
  mkdirSync(memoryDir, { recursive: true })
  const transcript = join(projectDir, `${SESSION}.jsonl`)
  const memoryFile = join(memoryDir, 'MEMORY.md')
  writeFileSync(
    transcript,
    [
      transcriptLine({ cwd: repo, sessionId: SESSION, gitBranch: 'main' }),
      JSON.stringify({
        type: 'assistant',
        sessionId: SESSION,
        cwd: repo,
        gitBranch: 'main',
        uuid: 'a1',
        timestamp: '2026-03-02T09:01:00.000Z',
        message: {
          id: 'm1',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'tu1',
              name: 'Write',
              input: { file_path: memoryFile, content: '# Memory\n' },
            },
          ],
        },
      }),
      JSON.stringify({
        type: 'user',
        sessionId: SESSION,
        cwd: repo,
        uuid: 'u2',
        timestamp: '2026-03-02T09:01:01.000Z',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'ok' }],
        },
        toolUseResult: { type: 'create', filePath: memoryFile, content: '# Memory\n' },
      }),
    ].join('\n') + '\n',
  )
  writeFileSync(memoryFile, '# Memory\n\n- [Main](main-note.md) — `src/main.ts` holds `main`\n')
  writeFileSync(
    join(memoryDir, 'main-note.md'),
    '---\nname: Main\ndescription: the entry point\ntype: project\n---\n\n`main` in `src/main.ts` starts the app.\n',
  )
  return {
    root,
    claudeHome,
    codexHome,
    managedDir,
    repo,
    projectDir,
    memoryDir,
    transcript,
    outside,
    processHome,
    watched: [claudeHome, codexHome, managedDir, join(root, 'repos'), outside],
    cleanup: () => {
      // Undo permission changes first so removal works for non-root runs too.
      try {
        execFileSync('chmod', ['-R', 'u+rwX', root], { stdio: 'ignore' })
      } catch {
        /* best effort */
      }
      rmSync(root, { recursive: true, force: true })
    },
  }
}

// ---- pathological text --------------------------------------------------------

const lines = (n: number, f: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => f(i)).join('\n') + '\n'

/** YAML "billion laughs": nine levels of nine aliases (9^9 strings if expanded). */
export function aliasBomb(): string {
  const out = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
  const names = 'abcdefghi'
  for (let i = 1; i < names.length; i++) {
    const prev = names[i - 1]!
    out.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${prev}`).join(',')}]`)
  }
  return out.join('\n')
}

/** Named pathological texts: run through every pure parser, and planted as files below. */
export const PATHOLOGICAL_TEXTS: readonly { readonly id: string; readonly text: string }[] = [
  { id: 'nested-brackets-50k', text: '['.repeat(50_000) + 'x' + ']('.repeat(25_000) + '\n' },
  { id: 'nested-brackets-lines', text: lines(2000, () => '- ' + '['.repeat(30) + 'a](b.md)') },
  { id: 'emphasis-50k', text: '*'.repeat(50_000) + 'a' + '_'.repeat(50_000) + '\n' },
  { id: 'emphasis-mixed', text: '*_'.repeat(30_000) + 'x\n' },
  {
    id: 'open-comment',
    text: '# Memory\n\n<!-- never closed\n' + lines(5000, (i) => `- [n${i}](n${i}.md) — hook`),
  },
  { id: 'backticks-50k', text: '`'.repeat(50_000) + '\n' + '```\n'.repeat(5000) },
  {
    id: 'backtick-runs',
    text: lines(5000, (i) => '`'.repeat((i % 40) + 1) + ' @a.md ' + '`'.repeat(((i + 7) % 40) + 1)),
  },
  {
    id: 'at-imports-50k',
    text: Array.from({ length: 50_000 }, (_, i) => `@f${i}.md`).join(' ') + '\n',
  },
  { id: 'links-100k', text: '[a](b) '.repeat(100_000) + '\n' },
  { id: 'html-tags', text: '<div>'.repeat(30_000) + '\n' + '<a href="'.repeat(10_000) + '\n' },
  { id: 'single-line-2mb', text: 'x'.repeat(2 * 1024 * 1024) },
  { id: 'crlf-and-cr', text: '- [a](a.md)\r\n'.repeat(5000) + '\r'.repeat(50_000) },
  { id: 'nul-bytes', text: '# Memory\n\u0000\u0000- [a](a.md)\u0000\n' },
  { id: 'lone-surrogates', text: '# \uD800 memory \uDFFF\n- [\uD83D](x.md) — \uFFFF\n' },
  { id: 'frontmatter-alias-bomb', text: `---\n${aliasBomb()}\n---\nbody\n` },
  {
    id: 'frontmatter-unclosed',
    text: '---\nname: x\ndescription: never closed\n' + lines(3000, (i) => `line ${i}`),
  },
  {
    id: 'frontmatter-deep',
    text: '---\nx: ' + '['.repeat(20_000) + ']'.repeat(20_000) + '\n---\n',
  },
  { id: 'frontmatter-huge', text: '---\n' + lines(20_000, (i) => `k${i}: v${i}`) + '---\n' },
  { id: 'paths-brace-bomb', text: '---\npaths: "' + '{a,b}'.repeat(40) + '"\n---\nrule\n' },
  {
    id: 'regex-backtrack',
    text: '`' + 'a/'.repeat(20_000) + '`\n' + '"' + ' '.repeat(50_000) + '\n',
  },
]

/** Write `bytes` bytes of `fill` lines without holding them all in memory twice. */
function writeLarge(path: string, totalBytes: number, chunk: string): void {
  const fd = openSync(path, 'w')
  const buf = Buffer.from(chunk.repeat(Math.max(1, Math.floor((1024 * 1024) / chunk.length))))
  let written = 0
  while (written < totalBytes) {
    const n = Math.min(buf.length, totalBytes - written)
    writeSync(fd, buf, 0, n)
    written += n
  }
  closeSync(fd)
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path])
}

/** A successful tool call on `file`: the assistant's tool_use line and its result line. */
function toolCall(
  file: string,
  id: string,
  at: { readonly use: string; readonly result: string },
  name: string,
  input: object,
  toolUseResult: object,
): string {
  return [
    JSON.stringify({
      type: 'assistant',
      sessionId: SESSION,
      cwd: '/x',
      gitBranch: 'main',
      uuid: `a-${id}`,
      timestamp: at.use,
      message: {
        id: `m-${id}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id, name, input: { file_path: file, ...input } }],
      },
    }),
    JSON.stringify({
      type: 'user',
      sessionId: SESSION,
      uuid: `u-${id}`,
      timestamp: at.result,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
      toolUseResult: { filePath: file, ...toolUseResult },
    }),
  ].join('\n')
}

/** A transcript line that writes `content` to `file` (a successful Write). */
function writeCall(file: string, content: string, id: string): string {
  const at = { use: '2026-03-03T10:00:00.000Z', result: '2026-03-03T10:00:01.000Z' }
  return toolCall(file, id, at, 'Write', { content }, { type: 'update' })
}

/**
 * The replay bomb of issue 11 item 8: one ~4 KB MultiEdit of 40 `replace_all` edits `x`→`xx`,
 * after a Write of `x`. Replayed naively the text doubles 40 times (2^40 characters) and V8
 * dies with a fatal error that no try/catch sees.
 */
export const REPLAY_BOMB_EDITS = 40
export function replayBombInput(): {
  readonly edits: { old_string: string; new_string: string; replace_all: boolean }[]
} {
  return {
    edits: Array.from({ length: REPLAY_BOMB_EDITS }, () => ({
      old_string: 'x',
      new_string: 'xx',
      replace_all: true,
    })),
  }
}

/** A transcript line pair: a successful MultiEdit of `file` (the replay bomb). */
function replayBombCall(file: string, id: string): string {
  const at = { use: '2026-03-03T10:00:02.000Z', result: '2026-03-03T10:00:03.000Z' }
  return toolCall(file, id, at, 'MultiEdit', replayBombInput(), replayBombInput())
}

/** Backticks on one line, after text so it is no fence: the quadratic input of the old code-span regex. */
export function backtickFlood(count: number): string {
  return `x ${'`'.repeat(count)}\n`
}

/** `a/a/a/…/x.ts` with `depth` components: each too many for a path lookup (issue 11, item 8). */
export function deepPath(depth: number): string {
  return `${'a/'.repeat(depth)}x.ts`
}

export interface BadInput {
  readonly id: string
  /** What the input is, for the report. */
  readonly what: string
  plant(t: BadTree): void
}

const mem = (t: BadTree, name = 'MEMORY.md'): string => join(t.memoryDir, name)

/** Every bad input of issue 8 (and of the core and provenance issues), planted into a tree. */
export const BAD_INPUTS: readonly BadInput[] = [
  {
    id: 'unreadable-files',
    what: 'MEMORY.md, a topic file, the transcript and CLAUDE.md with mode 000, and a folder with mode 000',
    plant: (t) => {
      mkdirSync(join(t.memoryDir, 'locked'))
      writeFileSync(join(t.memoryDir, 'locked', 'inner.md'), 'hidden\n')
      writeFileSync(mem(t, 'closed.md'), 'closed\n')
      for (const p of [mem(t), mem(t, 'closed.md'), t.transcript, join(t.repo, 'CLAUDE.md')])
        chmodSync(p, 0o000)
      chmodSync(join(t.memoryDir, 'locked'), 0o000)
    },
  },
  {
    id: 'symlink-loops',
    what: 'MEMORY.md a symlink to itself, topic and folder symlink loops, CLAUDE.md symlink loop, a dangling link',
    plant: (t) => {
      rmSync(mem(t))
      symlinkSync('MEMORY.md', mem(t))
      symlinkSync('b.md', mem(t, 'a.md'))
      symlinkSync('a.md', mem(t, 'b.md'))
      symlinkSync('.', join(t.memoryDir, 'self'))
      symlinkSync('..', join(t.memoryDir, 'up'))
      symlinkSync('nowhere.md', mem(t, 'dangling.md'))
      rmSync(join(t.repo, 'CLAUDE.md'))
      symlinkSync('CLAUDE.md', join(t.repo, 'CLAUDE.md'))
      mkdirSync(join(t.repo, '.claude'))
      symlinkSync('.', join(t.repo, '.claude', 'rules'))
      symlinkSync(`${SESSION}.jsonl`, join(t.projectDir, 'loop.jsonl'))
      rmSync(join(t.projectDir, 'loop.jsonl'))
      symlinkSync('loop.jsonl', join(t.projectDir, 'loop.jsonl'))
    },
  },
  {
    id: 'replay-bomb',
    what: 'a 4 KB transcript line: a MultiEdit of 40 replace_all edits x→xx after a Write of "x" (2^40 characters if replayed)',
    plant: (t) => {
      const file = mem(t, 'bomb.md')
      writeFileSync(file, 'x\n')
      appendFileSync(
        t.transcript,
        `${writeCall(file, 'x\n', 'bomb-w')}\n${replayBombCall(file, 'bomb-me')}\n`,
      )
    },
  },
  {
    id: 'backtick-flood',
    what: 'a topic file whose note is one line of 250,000 backticks (the old code-span regex: minutes)',
    plant: (t) => {
      writeFileSync(
        mem(t, 'ticks.md'),
        `---\nname: ticks\ndescription: d\n---\n\n${backtickFlood(250_000)}`,
      )
      appendFileSync(mem(t), '- [Ticks](ticks.md) — many backticks\n')
    },
  },
  {
    id: 'deep-path',
    what: 'a note naming a 160 KB `a/a/a/…` path (the old audit sent it to git check-ignore: 38 s at 80 KB)',
    plant: (t) => {
      writeFileSync(
        mem(t, 'deep.md'),
        `---\nname: deep\ndescription: d\n---\n\nSee \`${deepPath(80_000)}\` for details.\n`,
      )
      appendFileSync(mem(t), '- [Deep](deep.md) — a long path\n')
    },
  },
  {
    id: 'memory-md-directory',
    what: 'a directory named MEMORY.md (and one named CLAUDE.md, and a *.jsonl folder)',
    plant: (t) => {
      rmSync(mem(t))
      mkdirSync(mem(t))
      writeFileSync(join(mem(t), 'inside.md'), 'x\n')
      rmSync(join(t.repo, 'CLAUDE.md'))
      mkdirSync(join(t.repo, 'CLAUDE.md'))
      mkdirSync(join(t.projectDir, 'folder.jsonl'))
    },
  },
  {
    id: 'fifos',
    what: 'MEMORY.md, a topic file, a transcript, CLAUDE.md and a rule as FIFOs (opening one would block)',
    plant: (t) => {
      rmSync(mem(t))
      mkfifo(mem(t))
      mkfifo(mem(t, 'pipe.md'))
      mkfifo(join(t.projectDir, '44444444-4444-4444-8444-444444444444.jsonl'))
      rmSync(join(t.repo, 'CLAUDE.md'))
      mkfifo(join(t.repo, 'CLAUDE.md'))
      mkdirSync(join(t.repo, '.claude', 'rules'), { recursive: true })
      mkfifo(join(t.repo, '.claude', 'rules', 'pipe.md'))
    },
  },
  {
    id: 'devices',
    what: 'MEMORY.md and a topic symlinked to /dev/zero and /dev/urandom; CLAUDE.md imports @/dev/zero and @/dev/stdin',
    plant: (t) => {
      rmSync(mem(t))
      symlinkSync('/dev/zero', mem(t))
      symlinkSync('/dev/urandom', mem(t, 'random.md'))
      writeFileSync(
        join(t.repo, 'CLAUDE.md'),
        '# App\n\n@/dev/zero\n@/dev/stdin\n@/proc/self/fd/0\n',
      )
    },
  },
  {
    id: 'file-50mb',
    what: 'a 50 MB MEMORY.md, a 50 MB topic file and a 50 MB CLAUDE.md',
    plant: (t) => {
      writeLarge(mem(t), 50 * 1024 * 1024, '- [big](big.md) — a line of a huge index\n')
      writeLarge(mem(t, 'big.md'), 50 * 1024 * 1024, 'a huge topic `src/main.ts`\n')
      writeLarge(join(t.repo, 'CLAUDE.md'), 50 * 1024 * 1024, 'a huge instruction file\n')
    },
  },
  {
    id: 'sparse-4gb',
    what: 'a sparse 4 GiB MEMORY.md (size without bytes on disk)',
    plant: (t) => {
      const fd = openSync(mem(t), 'w')
      ftruncateSync(fd, 4 * 1024 * 1024 * 1024)
      closeSync(fd)
    },
  },
  {
    id: 'single-line-10mb',
    what: 'a 10 MB single line as MEMORY.md, topic file and CLAUDE.md',
    plant: (t) => {
      writeLarge(mem(t), 10 * 1024 * 1024, 'x')
      writeLarge(mem(t, 'line.md'), 10 * 1024 * 1024, '[')
      writeLarge(join(t.repo, 'CLAUDE.md'), 10 * 1024 * 1024, '@')
    },
  },
  {
    id: 'single-line-7mb',
    what: 'a 7 MB single line (under the 8 MB read cap, so every parser sees it)',
    plant: (t) => {
      writeLarge(mem(t), 7 * 1024 * 1024, '- [a](a.md) `src/x.ts` ')
      writeLarge(mem(t, 'line.md'), 7 * 1024 * 1024, '*_[`')
      writeLarge(join(t.repo, 'CLAUDE.md'), 3 * 1024 * 1024, '@a.md [x](')
    },
  },
  {
    id: 'invalid-utf8',
    what: 'MEMORY.md, a topic file and CLAUDE.md with invalid UTF-8 (overlong, lone continuation, truncated sequence)',
    plant: (t) => {
      const bad = Buffer.concat([
        Buffer.from('# Memory\n- [a](a.md) '),
        Buffer.from([0xc0, 0xaf, 0x80, 0xe2, 0x82, 0x0a, 0xff, 0xfe, 0x0a]),
      ])
      writeFileSync(mem(t), bad)
      writeFileSync(mem(t, 'a.md'), bad)
      writeFileSync(join(t.repo, 'CLAUDE.md'), bad)
    },
  },
  {
    id: 'nul-bytes',
    what: 'NUL bytes in MEMORY.md, a topic file, CLAUDE.md and a transcript line',
    plant: (t) => {
      writeFileSync(mem(t), '# Memory\n\u0000- [a](a.md)\n')
      writeFileSync(mem(t, 'a.md'), '---\nname: a\u0000\n---\n\u0000\u0000\n')
      writeFileSync(join(t.repo, 'CLAUDE.md'), '# App\u0000\n@x.md\n')
      writeFileSync(
        t.transcript,
        readFileSync(t.transcript, 'utf8') +
          '{"type":"user","cwd":"/a\u0000b"}\n\u0000\u0000\u0000\n',
        { flag: 'w' },
      )
    },
  },
  {
    id: 'utf16-bom',
    what: 'MEMORY.md in UTF-16 LE with BOM, a topic in UTF-16 BE with BOM, CLAUDE.md in UTF-16 LE with BOM, an odd byte count',
    plant: (t) => {
      const le = (s: string): Buffer =>
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')])
      const be = (s: string): Buffer => {
        const b = Buffer.from(s, 'utf16le')
        b.swap16()
        return Buffer.concat([Buffer.from([0xfe, 0xff]), b])
      }
      writeFileSync(mem(t), le('# Memory\n\n- [Main](main-note.md) — `src/main.ts`\n'))
      writeFileSync(mem(t, 'be.md'), be('---\nname: BE\n---\nbig endian `src/main.ts`\n'))
      writeFileSync(mem(t, 'odd.md'), Buffer.concat([le('odd'), Buffer.from([0x41])]))
      writeFileSync(join(t.repo, 'CLAUDE.md'), le('# App\n@README.md\n'))
    },
  },
  {
    id: 'frontmatter-unclosed',
    what: 'topic files and a rule whose frontmatter opens with --- and never closes; MEMORY.md with unclosed frontmatter',
    plant: (t) => {
      writeFileSync(mem(t), '---\nname: index\n- [Main](main-note.md)\n')
      writeFileSync(
        mem(t, 'main-note.md'),
        '---\nname: Main\ndescription: never closed\n`src/main.ts`\n',
      )
      mkdirSync(join(t.repo, '.claude', 'rules'), { recursive: true })
      writeFileSync(join(t.repo, '.claude', 'rules', 'open.md'), '---\npaths: src/**\n')
    },
  },
  {
    id: 'frontmatter-alias-bomb',
    what: 'billion-laughs YAML in a topic file, in MEMORY.md and in a rule paths frontmatter',
    plant: (t) => {
      const bomb = `---\n${aliasBomb()}\nname: bomb\npaths: *i\n---\n`
      writeFileSync(mem(t), bomb + '- [Main](main-note.md)\n')
      writeFileSync(mem(t, 'main-note.md'), bomb + '`src/main.ts`\n')
      mkdirSync(join(t.repo, '.claude', 'rules'), { recursive: true })
      writeFileSync(join(t.repo, '.claude', 'rules', 'bomb.md'), bomb + 'rule\n')
      writeFileSync(join(t.claudeHome, 'CLAUDE.md'), bomb)
    },
  },
  {
    id: 'frontmatter-weird',
    what: 'frontmatter with YAML tags (!!js/function, !!binary), 20,000 nested brackets, and a 70 KB block',
    plant: (t) => {
      writeFileSync(
        mem(t, 'tags.md'),
        '---\nname: !!js/function "function(){ globalThis.pwned = 1 }"\ndata: !!binary AAAA\n---\nx\n',
      )
      writeFileSync(
        mem(t, 'deep.md'),
        '---\nx: ' + '['.repeat(20_000) + ']'.repeat(20_000) + '\n---\n',
      )
      writeFileSync(
        mem(t, 'huge.md'),
        '---\n' + lines(7000, (i) => `key${i}: value ${i}`) + '---\nbody\n',
      )
      writeFileSync(
        mem(t),
        '# Memory\n' + ['tags', 'deep', 'huge'].map((n) => `- [${n}](${n}.md)`).join('\n') + '\n',
      )
    },
  },
  {
    id: 'imports-escaping',
    what: 'CLAUDE.md importing a file outside the repo, an absolute path, a binary image, itself, a deep chain and ~/ paths',
    plant: (t) => {
      writeFileSync(
        join(t.repo, 'logo.png'),
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      )
      for (let i = 0; i < 12; i++)
        writeFileSync(join(t.repo, `chain${i}.md`), `@chain${i + 1}.md\n`)
      writeFileSync(
        join(t.repo, 'CLAUDE.md'),
        `# App\n\n@../../outside/secret.md\n@${join(t.outside, 'secret.md')}\n@logo.png\n@CLAUDE.md\n@chain0.md\n@~/../../../../etc/hostname\n@./${'../'.repeat(40)}etc/hostname\n@${'a/'.repeat(2000)}x.md\n`,
      )
    },
  },
  {
    id: 'transcript-broken',
    what: 'a transcript with truncated, non-JSON, wrong-typed and half-written lines, and a Write whose fields are wrong types',
    plant: (t) => {
      const good = readFileSync(t.transcript, 'utf8')
      const broken = [
        good.trimEnd(),
        '{"type":"user", this is not json',
        'null',
        '[]',
        '42',
        '"string"',
        '{"type":"assistant","message":{"content":"not an array"}}',
        '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"x","name":"Write","input":{"file_path":42,"content":{}}}]}}',
        '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"y","name":"Edit","input":{"file_path":"' +
          mem(t) +
          '"}}]}}',
        '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"z","name":"MultiEdit","input":{"file_path":"' +
          mem(t) +
          '","edits":"no"}}]}}',
        '{"type":"user","toolUseResult":"Error: failed","message":{"content":[{"type":"tool_result","tool_use_id":"y","is_error":true}]}}',
        '\uFEFF{"type":"user"}',
        '{"type":"user","timestamp":"not a date","cwd":' + JSON.stringify('x'.repeat(10_000)) + '}',
        '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Write","input":{"file_path":"' +
          mem(t),
      ].join('\n')
      writeFileSync(t.transcript, broken)
      writeFileSync(join(t.projectDir, '55555555-5555-4555-8555-555555555555.jsonl'), '')
      writeFileSync(join(t.projectDir, '66666666-6666-4666-8666-666666666666.jsonl'), '\n\n\n{')
    },
  },
  {
    id: 'transcript-gigantic-lines',
    what: 'a transcript with a 12 MB single line (over the line cap) and a 6 MB Write of MEMORY.md, no newline at the end',
    plant: (t) => {
      const huge = JSON.stringify({
        type: 'user',
        sessionId: SESSION,
        cwd: t.repo,
        message: { content: 'x'.repeat(12 * 1024 * 1024) },
      })
      const big = writeCall(mem(t), '- [a](a.md)\n'.repeat(500_000), 'tu-big')
      writeFileSync(t.transcript, readFileSync(t.transcript, 'utf8') + huge + '\n' + big)
    },
  },
  {
    id: 'pathological-markdown',
    what: '50,000 nested brackets, 50,000 emphasis markers, an unclosed <!--, 50,000 backticks and 50,000 @imports in MEMORY.md, topics and CLAUDE.md',
    plant: (t) => {
      const byId = new Map(PATHOLOGICAL_TEXTS.map((p) => [p.id, p.text]))
      writeFileSync(mem(t), byId.get('open-comment')!)
      const topics = [
        'nested-brackets-50k',
        'emphasis-50k',
        'emphasis-mixed',
        'backticks-50k',
        'backtick-runs',
        'links-100k',
        'html-tags',
        'regex-backtrack',
      ]
      for (const id of topics) writeFileSync(mem(t, `${id}.md`), byId.get(id)!)
      writeFileSync(
        join(t.repo, 'CLAUDE.md'),
        byId.get('nested-brackets-50k')! +
          byId.get('emphasis-50k')! +
          byId.get('backticks-50k')! +
          '<!--\n' +
          byId.get('at-imports-50k')!,
      )
    },
  },
  {
    id: 'pathological-index',
    what: 'MEMORY.md of 2,000 entries each with 30 nested brackets, 100,000 links on one line, and 50,000 CR characters',
    plant: (t) => {
      const byId = new Map(PATHOLOGICAL_TEXTS.map((p) => [p.id, p.text]))
      writeFileSync(
        mem(t),
        byId.get('nested-brackets-lines')! + byId.get('links-100k')! + byId.get('crlf-and-cr')!,
      )
    },
  },
  {
    id: 'names-with-newlines',
    what: 'a topic file, a project folder, a transcript cwd and a repo folder whose names hold newlines, tabs and quotes',
    plant: (t) => {
      writeFileSync(mem(t, 'line\nbreak.md'), '---\nname: nl\n---\n`src/main.ts`\n')
      writeFileSync(mem(t, 'tab\tand "quote".md'), 'x\n')
      writeFileSync(mem(t), '# Memory\n- [NL](line%0Abreak.md)\n- [Q](tab\tand "quote".md)\n')
      const odd = join(t.claudeHome, 'projects', '-tmp-new\nline')
      mkdirSync(odd)
      writeFileSync(
        join(odd, `${SESSION}.jsonl`),
        transcriptLine({ cwd: '/tmp/new\nline', sessionId: SESSION }) + '\n',
      )
      mkdirSync(join(odd, 'memory'))
      writeFileSync(join(odd, 'memory', 'MEMORY.md'), '- [x](x.md)\n')
    },
  },
  {
    id: 'names-255-bytes',
    what: 'topic files with 255-byte names (ASCII and 3-byte UTF-8), a 255-byte project folder, a path near PATH_MAX',
    plant: (t) => {
      const ascii = 'n'.repeat(252) + '.md'
      const wide = '\u4e2d'.repeat(84) + '.md' // 84 × 3 + 3 = 255 bytes
      writeFileSync(mem(t, ascii), '`src/main.ts`\n')
      writeFileSync(mem(t, wide), 'wide\n')
      writeFileSync(
        mem(t),
        `# Memory\n- [A](${ascii})\n- [W](${wide})\n- [Too long](${'y'.repeat(300)}.md)\n`,
      )
      const longProject = join(t.claudeHome, 'projects', '-' + 'p'.repeat(254))
      mkdirSync(longProject)
      writeFileSync(
        join(longProject, `${SESSION}.jsonl`),
        transcriptLine({ cwd: '/' + 'p'.repeat(4000), sessionId: SESSION }) + '\n',
      )
      let deep = join(t.memoryDir, 'deep')
      for (let i = 0; i < 15; i++) deep = join(deep, 'd'.repeat(250))
      mkdirSync(deep, { recursive: true })
      writeFileSync(join(deep, 'bottom.md'), 'deep\n')
    },
  },
  {
    id: 'symlinks-escaping',
    what: 'topic files and the memory folder symlinked outside the roots (to the outside folder and /etc)',
    plant: (t) => {
      symlinkSync(join(t.outside, 'secret.md'), mem(t, 'escape.md'))
      symlinkSync('/etc', join(t.memoryDir, 'etc'))
      symlinkSync(t.outside, join(t.memoryDir, 'outside'))
      writeFileSync(
        mem(t),
        '# Memory\n- [E](escape.md)\n- [P](etc/passwd)\n- [S](outside/secret.md)\n- [U](../../../../../../etc/passwd)\n',
      )
    },
  },
  {
    id: 'many-files',
    what: '10,001 empty topic files (one over the listing cap) and 1,000 empty transcripts',
    plant: (t) => {
      for (let i = 0; i < 10_001; i++) writeFileSync(mem(t, `t${i}.md`), '')
      for (let i = 0; i < 1000; i++)
        writeFileSync(
          join(t.projectDir, `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000.jsonl`),
          '',
        )
    },
  },
  {
    id: 'binary-everything',
    what: 'random bytes as MEMORY.md, topic, transcript, CLAUDE.md, AGENTS.md and a Codex AGENTS.md',
    plant: (t) => {
      let seed = 12345
      const rnd = (n: number): Buffer => {
        const b = Buffer.alloc(n)
        for (let i = 0; i < n; i++) {
          seed = (seed * 1103515245 + 12345) & 0x7fffffff
          b[i] = seed & 0xff
        }
        return b
      }
      for (const p of [
        mem(t),
        mem(t, 'rnd.md'),
        t.transcript,
        join(t.repo, 'CLAUDE.md'),
        join(t.repo, 'AGENTS.md'),
        join(t.codexHome, 'AGENTS.md'),
      ]) {
        writeFileSync(p, rnd(64 * 1024))
      }
    },
  },
]

// ---- snapshots ------------------------------------------------------------------

/** One line per entry: type, size, mtime and a content hash (regular files) or link target. */
export function snapshotTree(dirs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (p: string): void => {
    let st
    try {
      st = lstatSync(p)
    } catch (err) {
      out.set(p, `error ${(err as NodeJS.ErrnoException).code}`)
      return
    }
    const base = `mode=${st.mode.toString(8)} mtime=${st.mtimeMs} size=${st.size}`
    if (st.isSymbolicLink()) {
      out.set(p, `link ${readlinkSync(p)} ${base}`)
    } else if (st.isDirectory()) {
      out.set(p, `dir ${base}`)
      let names: string[]
      const locked = (st.mode & 0o500) !== 0o500
      if (locked) chmodSync(p, st.mode | 0o700)
      try {
        names = readdirSync(p)
      } finally {
        // Restore exactly (chmod does not touch mtime, so the record above stays true).
        if (locked) chmodSync(p, st.mode & 0o7777)
      }
      for (const n of names.sort()) walk(join(p, n))
    } else if (st.isFile()) {
      // Hash without following a FIFO swap: st says regular file; sparse files hash by size only.
      if (st.size > 64 * 1024 * 1024) {
        out.set(p, `file ${base} (large, not hashed)`)
        return
      }
      const locked = (st.mode & 0o400) === 0
      if (locked) chmodSync(p, st.mode | 0o400)
      try {
        out.set(
          p,
          `file ${base} sha256=${createHash('sha256').update(readFileSync(p)).digest('hex')}`,
        )
      } finally {
        if (locked) chmodSync(p, st.mode & 0o7777)
      }
    } else {
      out.set(p, `special ${base}`)
    }
  }
  for (const d of dirs) walk(d)
  return out
}

/** Entries that differ between two snapshots, one line each. */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const diffs: string[] = []
  for (const [k, v] of before) {
    const w = after.get(k)
    if (w === undefined) diffs.push(`removed ${JSON.stringify(k)}`)
    else if (w !== v) diffs.push(`changed ${JSON.stringify(k)}: ${v} -> ${w}`)
  }
  for (const k of after.keys()) if (!before.has(k)) diffs.push(`added ${JSON.stringify(k)}`)
  return diffs
}

// ---- canaries -------------------------------------------------------------------

export interface Canaries {
  readonly dir: string
  readonly files: readonly string[]
  /** The text every canary holds; it must never appear in a response. */
  readonly marker: string
  /** What changed since planting: content, mtime, or atime (a read). */
  touched(): string[]
}

/**
 * Plant canary files outside every root. Their atime is set a year before their mtime, so
 * under `relatime` (and `strictatime`) any read moves it: a read shows without strace.
 * `noatime` mounts hide reads; `atimeWorks` says whether this mount shows them.
 */
export function plantCanaries(
  dir: string,
  names: readonly string[],
): Canaries & { atimeWorks: boolean; rearm(): void } {
  mkdirSync(dir, { recursive: true })
  const marker = `CANARY-${Math.random().toString(36).slice(2)}-DO-NOT-READ`
  const old = new Date('2025-01-01T00:00:00Z')
  const files = names.map((n) => join(dir, n))
  for (const f of files) {
    mkdirSync(join(f, '..'), { recursive: true })
    writeFileSync(f, `${marker}\nroot:x:0:0:canary:/root:/bin/sh\n`)
  }
  const probe = join(dir, '.atime-probe')
  writeFileSync(probe, 'probe')
  for (const f of [...files, probe]) utimesSync(f, old, statSync(f).mtime)
  readFileSync(probe)
  const atimeWorks = statSync(probe).atimeMs !== old.getTime()
  rmSync(probe)
  for (const d of new Set(files.map((f) => join(f, '..')))) utimesSync(d, old, statSync(d).mtime)
  const folders = [...new Set(files.map((f) => join(f, '..')))]
  let before = new Map(files.map((f) => [f, statSync(f)]))
  let dirsBefore = new Map(folders.map((d) => [d, statSync(d)]))
  return {
    dir,
    files,
    marker,
    atimeWorks,
    rearm() {
      // After our own snapshot read them: back to a year-old atime, and a new baseline.
      for (const p of [...files, ...folders]) utimesSync(p, old, statSync(p).mtime)
      before = new Map(files.map((f) => [f, statSync(f)]))
      dirsBefore = new Map(folders.map((d) => [d, statSync(d)]))
    },
    touched() {
      const out: string[] = []
      for (const [f, st] of before) {
        // stat first: our own read below moves the atime, so it is put back afterwards.
        const now = statSync(f)
        if (now.mtimeMs !== st.mtimeMs) out.push(`${f}: mtime changed`)
        if (atimeWorks && now.atimeMs !== st.atimeMs)
          out.push(`${f}: read (atime moved ${st.atimeMs} -> ${now.atimeMs})`)
        if (readFileSync(f, 'utf8') !== `${marker}\nroot:x:0:0:canary:/root:/bin/sh\n`)
          out.push(`${f}: content changed`)
        utimesSync(f, st.atime, st.mtime)
      }
      for (const [d, st] of dirsBefore) {
        const now = statSync(d)
        if (now.mtimeMs !== st.mtimeMs) out.push(`${d}: folder changed`)
        if (atimeWorks && now.atimeMs !== st.atimeMs)
          out.push(`${d}: folder listed (atime moved ${st.atimeMs} -> ${now.atimeMs})`)
      }
      return out
    },
  }
}

// ---- API attacks ------------------------------------------------------------------

export interface AttackTargets {
  readonly claudeHome: string
  readonly memoryDir: string
  readonly repo: string
  /** A canary file and its folder, outside every root. */
  readonly canaryFile: string
  readonly canaryDir: string
  /** A canary in a folder whose name starts like a root (`/x/claude-evil` beside `/x/claude`). */
  readonly prefixSibling: string
  /** Symlinks inside the Claude home that lead to the canaries. */
  readonly escapeLink: string
  readonly escapeDirLink: string
}

export interface Attack {
  readonly method: string
  readonly args: unknown
  readonly note: string
}

const HASH = 'a'.repeat(64)

/** Path arguments that try to leave the roots: traversal, encodings, NUL, links, odd forms. */
export function hostilePaths(t: AttackTargets): { readonly path: string; readonly note: string }[] {
  const rel = t.canaryFile.replace(/^\/+/, '')
  const up = '../'.repeat(30)
  return [
    { path: '/etc/passwd', note: 'absolute path outside' },
    { path: '/etc/shadow', note: 'absolute path outside' },
    { path: '/proc/self/environ', note: 'process environment' },
    { path: '/dev/zero', note: 'endless device' },
    { path: '/dev/stdin', note: 'blocking device' },
    { path: t.canaryFile, note: 'canary outside the roots' },
    { path: t.canaryDir, note: 'canary folder outside the roots' },
    { path: `${t.memoryDir}/${up}${rel}`, note: '../ from inside a root' },
    { path: `${t.memoryDir}/..%2f..%2f..%2f..%2f..%2f..%2f${rel}`, note: 'encoded %2f' },
    {
      path: `${t.memoryDir}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/${rel}`,
      note: 'encoded %2e%2e',
    },
    { path: `${t.memoryDir}/%252e%252e/%252e%252e/${rel}`, note: 'double-encoded' },
    { path: `${t.memoryDir}/..\\..\\..\\..\\${rel}`, note: 'backslashes' },
    { path: `${t.memoryDir}/\u2025/\uff0e\uff0e/${rel}`, note: 'unicode dot look-alikes' },
    { path: t.prefixSibling, note: 'prefix sibling of a root' },
    { path: t.escapeLink, note: 'symlink inside the home that escapes' },
    {
      path: `${t.escapeDirLink}/${t.canaryFile.split('/').pop()}`,
      note: 'file below a symlinked folder that escapes',
    },
    {
      path: `${t.escapeDirLink}/new-file.md`,
      note: 'new file below a symlinked folder that escapes',
    },
    {
      path: `${t.claudeHome}/projects/../../${t.canaryDir.split('/').slice(-2).join('/')}`,
      note: '.. after a root',
    },
    { path: `${t.memoryDir}/MEMORY.md\u0000/etc/passwd`, note: 'NUL byte' },
    { path: rel, note: 'relative path' },
    { path: `./${rel}`, note: 'dot-relative path' },
    { path: `~/${rel}`, note: 'tilde path' },
    { path: `file://${t.canaryFile}`, note: 'file URL' },
    { path: `//${t.canaryFile}`, note: 'double slash' },
    { path: `${t.memoryDir}/${'a'.repeat(5000)}`, note: 'over the length limit' },
    { path: `${t.memoryDir}/${'../'.repeat(1300)}`, note: 'thousands of ..' },
    { path: '', note: 'empty' },
  ]
}

/** Values of every wrong type, for every argument position. */
const WRONG_VALUES: readonly { readonly value: unknown; readonly note: string }[] = [
  { value: 42, note: 'number' },
  { value: true, note: 'boolean' },
  { value: null, note: 'null' },
  { value: {}, note: 'object' },
  { value: [], note: 'array' },
  { value: { __proto__: { polluted: 1 }, toString: 'x' }, note: 'prototype pollution object' },
  { value: JSON.parse('{"__proto__":{"polluted":1}}'), note: 'JSON __proto__' },
  { value: 'x'.repeat(9 * 1024 * 1024), note: '9 MB string' },
  { value: -1, note: 'negative number' },
  { value: 1e308, note: 'huge number' },
  { value: 1.5, note: 'fraction' },
]

/** Well-shaped argument lists of every method, with the path slots marked. */
function templates(t: AttackTargets): Record<string, { args: unknown[]; paths: number[] }> {
  const mem = `${t.memoryDir}/MEMORY.md`
  return {
    getContext: { args: [], paths: [] },
    scan: { args: [], paths: [] },
    cutoff: { args: [mem], paths: [0] },
    readFile: { args: [mem], paths: [0] },
    loadOrder: { args: [t.repo], paths: [0] },
    installedAgents: { args: [], paths: [] },
    checkWithAgent: { args: ['claude', t.repo], paths: [1] },
    audit: { args: [t.memoryDir, t.repo], paths: [0, 1] },
    provenance: { args: [t.memoryDir], paths: [0] },
    noteDiffs: { args: [t.memoryDir, t.repo, mem, 3], paths: [0, 1, 2] },
    writeFile: { args: [mem, HASH, 'CANARY-WRITE\n', 'attack'], paths: [0] },
    deleteFile: { args: [mem, HASH, 'attack'], paths: [0] },
    listOperations: { args: [], paths: [] },
    undo: { args: [null], paths: [] },
    verifyNote: { args: [t.memoryDir, t.repo, mem, 3], paths: [0, 1, 2] },
    listStamps: { args: [t.memoryDir, t.repo], paths: [0, 1] },
    markReviewed: { args: [mem, HASH], paths: [0] },
    reviewDiff: { args: [t.memoryDir, mem], paths: [0, 1] },
    restoreLostLine: { args: [t.memoryDir, mem, '- restored', HASH], paths: [0, 1] },
    planEdit: { args: [{ kind: 'move-entry-above-cutoff', file: mem, line: 3 }], paths: [] },
    applyPlan: {
      args: [[{ path: mem, expectedHash: HASH, after: 'CANARY-WRITE\n' }], 'attack'],
      paths: [],
    },
  }
}

/**
 * Every attack on every method: hostile paths in each path slot, wrong arity, wrong types in
 * each slot, and method-specific ones (write to a path outside with no expected hash, undo ids
 * that traverse, plans whose new topic file names leave the folder).
 */
export function apiAttacks(t: AttackTargets, methods: readonly string[]): Attack[] {
  const out: Attack[] = []
  const tpl = templates(t)
  const paths = hostilePaths(t)
  for (const method of methods) {
    const base = tpl[method]
    if (!base) throw new Error(`no attack template for ${method}: add one to bad-inputs.ts`)
    for (const slot of base.paths) {
      for (const p of paths) {
        const args = [...base.args]
        args[slot] = p.path
        out.push({ method, args, note: `arg ${slot}: ${p.note}` })
      }
    }
    out.push({ method, args: [...base.args, t.canaryFile], note: 'one argument too many' })
    if (base.args.length > 0)
      out.push({ method, args: base.args.slice(0, -1), note: 'one argument too few' })
    out.push({ method, args: { 0: t.canaryFile, length: 1 }, note: 'arguments as an object' })
    out.push({ method, args: t.canaryFile, note: 'arguments as a string' })
    out.push({ method, args: null, note: 'arguments null' })
    for (let slot = 0; slot < base.args.length; slot++) {
      for (const w of WRONG_VALUES) {
        const args = [...base.args]
        args[slot] = w.value
        out.push({ method, args, note: `arg ${slot}: ${w.note}` })
      }
    }
  }
  // Method-specific attacks.
  for (const p of paths) {
    out.push({
      method: 'writeFile',
      args: [p.path, null, 'CANARY-WRITE\n', 'attack'],
      note: `create: ${p.note}`,
    })
    out.push({
      method: 'planEdit',
      args: [{ kind: 'delete-entry', file: p.path, line: 3, deleteTopic: true }],
      note: `plan delete: ${p.note}`,
    })
    out.push({
      method: 'planEdit',
      args: [
        {
          kind: 'extract-to-topic',
          file: `${t.memoryDir}/MEMORY.md`,
          line: 3,
          topicName: p.path || 'x',
        },
      ],
      note: `plan extract to topic named: ${p.note}`,
    })
    out.push({ method: 'undo', args: [p.path.slice(0, 200) || 'x'], note: `undo id: ${p.note}` })
    out.push({
      method: 'applyPlan',
      args: [[{ path: p.path, expectedHash: null, after: 'CANARY-WRITE\n' }], 'attack'],
      note: `plan creating: ${p.note}`,
    })
    out.push({
      method: 'applyPlan',
      args: [[{ path: p.path, expectedHash: HASH, after: null }], 'attack'],
      note: `plan deleting: ${p.note}`,
    })
  }
  out.push({
    method: 'planEdit',
    args: [{ kind: 'move-entry-above-cutoff', file: t.canaryFile, line: 1, extra: 1 }],
    note: 'plan with an extra key',
  })
  out.push({
    method: 'planEdit',
    args: [{ kind: 'run-shell', file: t.canaryFile, line: 1 }],
    note: 'plan of an unknown kind',
  })
  out.push({
    method: 'writeFile',
    args: [`${t.memoryDir}/MEMORY.md`, HASH, 'x'.repeat(9 * 1024 * 1024), 'big'],
    note: '9 MB write',
  })
  out.push({
    method: 'restoreLostLine',
    args: [t.memoryDir, `${t.memoryDir}/MEMORY.md`, 'x'.repeat(200_000), HASH],
    note: 'oversized line',
  })
  for (const name of [
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'guard',
    'emitChange',
    'onDidChange',
    'dispose',
    '../scan',
    'scan/../readFile',
    'SCAN',
    '',
  ]) {
    out.push({
      method: name,
      args: [t.canaryFile],
      note: `not an API method: ${JSON.stringify(name)}`,
    })
  }
  return out
}
