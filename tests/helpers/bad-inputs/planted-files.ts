/**
 * Bad inputs of issue 8 that spoil the files themselves: modes, symlink loops, replay and
 * backtick bombs, folders and pipes and devices where files belong, huge and sparse files.
 */
import {
  chmodSync,
  appendFileSync,
  closeSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { SESSION, type BadInput, mem } from './tree'
import { backtickFlood, deepPath } from './pathological-texts'
import { writeLarge, mkfifo, writeCall, replayBombCall } from './plant-helpers'

/** Bad files: unreadable, looping, special, or too big. */
export const FILE_INPUTS: readonly BadInput[] = [
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
]
