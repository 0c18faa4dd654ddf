import { execFileSync } from 'node:child_process'
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  loadRun,
  MAX_FILES,
  MAX_INPUTS,
  RACY_MS,
  runCachePath,
  saveRun,
  type RunInputs,
} from '../../../../src/node/cache/run-cache'

interface Value {
  readonly files: string[]
}
const isValue = (v: unknown): v is Value => Array.isArray((v as Value | null)?.files)
const VALUE: Value = { files: ['a', 'b'] }

let root: string
let cache: string
let data: string
let file: string
let own: string
let inputs: RunInputs
/** A computation that began well after the inputs were last changed (they are not racy). */
const later = (): number => Date.now() + RACY_MS + 60_000

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mc-run-cache-'))
  cache = join(root, 'state', 'runs')
  data = join(root, 'data')
  own = join(root, 'state', 'evidence')
  mkdirSync(data, { recursive: true })
  mkdirSync(own, { recursive: true })
  file = join(data, 't.jsonl')
  writeFileSync(file, 'line one\n')
  writeFileSync(join(own, 'e1.json'), '{}')
  inputs = { paths: [data, file, join(data, 'absent')], listings: [own] }
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function saved(key = 'k'): void {
  expect(saveRun(cache, key, inputs, VALUE, later())).toBeNull()
}

describe('run cache', () => {
  it('gives the saved result back while every input is unchanged', () => {
    saved()
    expect(loadRun(cache, 'k', isValue)).toEqual(VALUE)
    expect(loadRun(cache, 'k', isValue)).toEqual(VALUE)
    // Another key (options, homes, code) is another result.
    expect(loadRun(cache, 'other', isValue)).toBeNull()
  })

  it('misses when a file grows, is rewritten in place, or is replaced', () => {
    saved()
    appendFileSync(file, 'line two\n')
    expect(loadRun(cache, 'k', isValue)).toBeNull()

    saved()
    // Same size, mtime put back: the ctime still moved.
    const { atime, mtime } = statSync(file)
    writeFileSync(file, 'LINE ONE\nline two\n')
    utimesSync(file, atime, mtime)
    expect(loadRun(cache, 'k', isValue)).toBeNull()

    saved()
    // Replaced by rename (a new inode), same bytes.
    writeFileSync(join(root, 'copy'), 'LINE ONE\nline two\n')
    renameSync(join(root, 'copy'), file)
    expect(loadRun(cache, 'k', isValue)).toBeNull()
  })

  it('misses when a folder gains or loses an entry, or a missing input appears', () => {
    saved()
    writeFileSync(join(data, 'new.jsonl'), 'x\n')
    expect(loadRun(cache, 'k', isValue)).toBeNull()

    saved()
    rmSync(file)
    expect(loadRun(cache, 'k', isValue)).toBeNull()

    inputs = { paths: [join(data, 'absent')], listings: [] }
    saved()
    expect(loadRun(cache, 'k', isValue)).toEqual(VALUE)
    writeFileSync(join(data, 'absent'), '')
    expect(loadRun(cache, 'k', isValue)).toBeNull()
  })

  it('misses when a folder of our own gains a name, even within one clock tick', () => {
    saved()
    const dir = statSync(own)
    writeFileSync(join(own, 'e2.json'), '{}')
    utimesSync(own, dir.atime, dir.mtime)
    expect(loadRun(cache, 'k', isValue)).toBeNull()
  })

  it('saves nothing when an input changed just before the computation began', () => {
    expect(saveRun(cache, 'k', inputs, VALUE, Date.now())).toMatch(/too recently/)
    expect(loadRun(cache, 'k', isValue)).toBeNull()
    expect(() => readdirSync(cache)).toThrow()
  })

  it('ignores a damaged, foreign or unreadable cache file, and the next save replaces it', () => {
    saved()
    const path = runCachePath(cache, 'k')
    const bad = [
      '',
      '{"version": 1, "key": "k", "inputs"',
      'null',
      '[]',
      JSON.stringify({ version: 999, key: 'k', inputs: { paths: [], listings: [] }, value: VALUE }),
      JSON.stringify({
        version: 1,
        key: 'k',
        inputs: { paths: [[1, 2]], listings: [] },
        value: VALUE,
      }),
      JSON.stringify({ version: 1, key: 'k', inputs: { paths: [] }, value: VALUE }),
      JSON.stringify({
        version: 1,
        key: 'k',
        inputs: { paths: [], listings: [] },
        value: { files: 3 },
      }),
      '\u0000\u0001binary',
    ]
    for (const text of bad) {
      writeFileSync(path, text)
      expect({ text, got: loadRun(cache, 'k', isValue) }).toEqual({ text, got: null })
    }
    rmSync(path)
    mkdirSync(path)
    expect(loadRun(cache, 'k', isValue)).toBeNull()
    rmSync(path, { recursive: true })
    if (process.platform !== 'win32') {
      // A FIFO in its place is refused without blocking.
      execFileSync('mkfifo', [path])
      expect(loadRun(cache, 'k', isValue)).toBeNull()
      rmSync(path)
    }
    saved()
    expect(loadRun(cache, 'k', isValue)).toEqual(VALUE)
  })

  it('is bounded: files per folder, inputs per run', () => {
    for (let i = 0; i < MAX_FILES + 5; i++) saved(`key ${i}`)
    const names = readdirSync(cache)
    expect(names).toHaveLength(MAX_FILES)
    expect(names.every((n) => n.endsWith('.json'))).toBe(true)
    // The newest is always kept.
    expect(loadRun(cache, `key ${MAX_FILES + 4}`, isValue)).toEqual(VALUE)

    const many = {
      paths: Array.from({ length: MAX_INPUTS + 1 }, (_, i) => `/x/${i}`),
      listings: [],
    }
    expect(saveRun(cache, 'many', many, VALUE, later())).toBe('too many inputs')
    expect(loadRun(cache, 'many', isValue)).toBeNull()
  })

  it('saves nothing for an input it cannot know, and leaves no temp file when it cannot write', () => {
    writeFileSync(join(root, 'plain'), '')
    // A path under a file is ENOTDIR: nothing there, like a missing one.
    expect(
      saveRun(cache, 'k', { paths: [join(root, 'plain', 'x')], listings: [] }, VALUE, later()),
    ).toBeNull()
    // A cache folder that is a file: not saved, no temp file beside it.
    const blocked = join(root, 'blocked')
    writeFileSync(blocked, '')
    expect(saveRun(blocked, 'k', inputs, VALUE, later())).toMatch(/not saved/)
    expect(readdirSync(root).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })
})
