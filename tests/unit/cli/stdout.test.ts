/**
 * A result written to a descriptor directly (src/cli/stdout.ts): every byte in order through
 * files and pipes, a pipe that is full for a while (EAGAIN) waited on, a reader that went away
 * (EPIPE) reported as false, and any other failure thrown. Real FIFOs, no mocks.
 */
import { execFileSync, spawn } from 'node:child_process'
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CHUNK_BYTES, writeOut } from '../../../src/cli/stdout'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mc-stdout-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** Several chunks of text with multi-byte characters straddling the chunk boundaries. */
const BIG = Array.from({ length: 3 * CHUNK_BYTES }, (_, i) => (i % 7 === 0 ? 'é' : 'a')).join('')

const fifo = (): string => {
  const path = join(dir, 'fifo')
  execFileSync('mkfifo', [path])
  return path
}

describe.skipIf(process.platform === 'win32')('writeOut', () => {
  it('writes every byte, in order, to a file', () => {
    const path = join(dir, 'out')
    writeFileSync(path, '')
    const fd = openSync(path, 'w')
    try {
      expect(writeOut(BIG, fd)).toBe(true)
      expect(writeOut(Buffer.from('\nend\n'), fd)).toBe(true)
    } finally {
      closeSync(fd)
    }
    expect(readFileSync(path, 'utf8')).toBe(`${BIG}\nend\n`)
  })

  it('waits while a non-blocking pipe is full, until a slow reader has taken everything', async () => {
    const path = fifo()
    const out = join(dir, 'read')
    // A read end that never reads, held open throughout: the pipe always has a reader, and only
    // the slow reader takes bytes out.
    const holder = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
    const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK)
    const reader = spawn('sh', ['-c', 'sleep 0.3; cat "$1" > "$2"', 'reader', path, out])
    const exited = new Promise<number | null>((ok) => reader.on('exit', ok))
    let ok: boolean
    try {
      // Three times a pipe's usual capacity: EAGAIN until the reader starts.
      ok = writeOut(BIG, fd)
    } finally {
      closeSync(fd)
      closeSync(holder)
    }
    expect(ok).toBe(true)
    expect(await exited).toBe(0)
    expect(readFileSync(out, 'utf8')).toBe(BIG)
  }, 30_000)

  it('stops and says false when the reader has gone (EPIPE)', () => {
    const path = fifo()
    const r = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
    const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK)
    closeSync(r)
    try {
      expect(writeOut(BIG, fd)).toBe(false)
    } finally {
      closeSync(fd)
    }
  })

  it('throws any other failure (a descriptor not open for writing)', () => {
    const path = join(dir, 'ro')
    writeFileSync(path, 'x')
    const fd = openSync(path, 'r')
    try {
      expect(() => writeOut('y', fd)).toThrow(/EBADF/)
    } finally {
      closeSync(fd)
    }
  })
})
