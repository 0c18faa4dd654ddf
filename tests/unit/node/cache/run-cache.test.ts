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
  keyHash,
  loadRun,
  MAX_FILES,
  MAX_INPUTS,
  RACY_MS,
  RUN_CACHE_VERSION,
  runCachePath,
  saveRun,
  type RunInputs,
} from '../../../../src/node/cache/run-cache'

/** A result as a command prints it (kept and given back as these bytes). */
const VALUE = '{\n  "files": ["a", "b é"]\n}\n'

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

/** The kept result for `key` as text, or null. */
const got = (key: string): string | null => loadRun(cache, key)?.toString('utf8') ?? null

function saved(key = 'k'): void {
  expect(saveRun(cache, key, inputs, VALUE, later())).toBeNull()
}

describe('run cache', () => {
  it('gives the saved result back while every input is unchanged', () => {
    saved()
    expect(got('k')).toBe(VALUE)
    expect(got('k')).toBe(VALUE)
    // Another key (options, homes, code) is another result.
    expect(got('other')).toBeNull()
  })

  it('misses when a file grows, is rewritten in place, or is replaced', () => {
    saved()
    appendFileSync(file, 'line two\n')
    expect(got('k')).toBeNull()

    saved()
    // Same size, mtime put back: the ctime still moved.
    const { atime, mtime } = statSync(file)
    writeFileSync(file, 'LINE ONE\nline two\n')
    utimesSync(file, atime, mtime)
    expect(got('k')).toBeNull()

    saved()
    // Replaced by rename (a new inode), same bytes.
    writeFileSync(join(root, 'copy'), 'LINE ONE\nline two\n')
    renameSync(join(root, 'copy'), file)
    expect(got('k')).toBeNull()
  })

  it('misses when a folder gains or loses an entry, or a missing input appears', () => {
    saved()
    writeFileSync(join(data, 'new.jsonl'), 'x\n')
    expect(got('k')).toBeNull()

    saved()
    rmSync(file)
    expect(got('k')).toBeNull()

    inputs = { paths: [join(data, 'absent')], listings: [] }
    saved()
    expect(got('k')).toBe(VALUE)
    writeFileSync(join(data, 'absent'), '')
    expect(got('k')).toBeNull()
  })

  it('misses when a folder of our own gains a name, even within one clock tick', () => {
    saved()
    const dir = statSync(own)
    writeFileSync(join(own, 'e2.json'), '{}')
    utimesSync(own, dir.atime, dir.mtime)
    expect(got('k')).toBeNull()
  })

  it('saves nothing when an input changed just before the computation began', () => {
    expect(saveRun(cache, 'k', inputs, VALUE, Date.now())).toMatch(/too recently/)
    expect(got('k')).toBeNull()
    expect(() => readdirSync(cache)).toThrow()
  })

  it('ignores a damaged, foreign or unreadable cache file, and the next save replaces it', () => {
    saved()
    const path = runCachePath(cache, 'k')
    const v = RUN_CACHE_VERSION
    const body = '{"files": []}\n'
    const bytes = Buffer.byteLength(body)
    const file = (head: unknown, rest = body): string => `${JSON.stringify(head)}\n${rest}`
    const none = { paths: [], listings: [] }
    // Written by hand in the layout a save uses, it is a hit: the cases below differ in one part.
    writeFileSync(path, file({ version: v, key: 'k', inputs: none, bytes }))
    expect(got('k')).toBe(body)
    const bad = [
      '',
      `{"version": ${v}, "key": "k", "inputs"`,
      'null\n',
      '[]\n',
      // No line of its own: the whole file is not a header and a result.
      JSON.stringify({ version: v, key: 'k', inputs: none, bytes: 0 }),
      file({ version: 1, key: 'k', inputs: none, bytes }),
      file({ version: v, key: 'other', inputs: none, bytes }),
      file({ version: v, key: 'k', inputs: { paths: [[1, 2]], listings: [] }, bytes }),
      file({ version: v, key: 'k', inputs: { paths: [] }, bytes }),
      // The result cut short, or longer than recorded.
      file({ version: v, key: 'k', inputs: none, bytes }, body.slice(0, -3)),
      file({ version: v, key: 'k', inputs: none, bytes }, `${body} `),
      file({ version: v, key: 'k', inputs: none }),
      '\u0000\u0001binary',
    ]
    for (const text of bad) {
      writeFileSync(path, text)
      expect({ text, got: got('k') }).toEqual({ text, got: null })
    }
    rmSync(path)
    mkdirSync(path)
    expect(got('k')).toBeNull()
    rmSync(path, { recursive: true })
    if (process.platform !== 'win32') {
      // A FIFO in its place is refused without blocking.
      execFileSync('mkfifo', [path])
      expect(got('k')).toBeNull()
      rmSync(path)
    }
    saved()
    expect(got('k')).toBe(VALUE)
  })

  it('names a file by a 64-bit hash of its key: the same key, the same name', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ dir: `/p/${i}`, n: i }))
    const names = new Set(keys.map(keyHash))
    expect(names.size).toBe(keys.length)
    expect([...names].every((h) => /^[0-9a-f]{16}$/.test(h))).toBe(true)
    expect(keyHash(keys[7])).toBe(keyHash(`${keys[7]}`))
    expect(runCachePath(cache, 'k')).toBe(
      join(cache, `run-v${RUN_CACHE_VERSION}-${keyHash('k')}.json`),
    )
  })

  it('is bounded: files per folder, inputs per run', () => {
    for (let i = 0; i < MAX_FILES + 5; i++) saved(`key ${i}`)
    const names = readdirSync(cache)
    expect(names).toHaveLength(MAX_FILES)
    expect(names.every((n) => n.endsWith('.json'))).toBe(true)
    // The newest is always kept.
    expect(got(`key ${MAX_FILES + 4}`)).toBe(VALUE)

    const many = {
      paths: Array.from({ length: MAX_INPUTS + 1 }, (_, i) => `/x/${i}`),
      listings: [],
    }
    expect(saveRun(cache, 'many', many, VALUE, later())).toBe('too many inputs')
    expect(got('many')).toBeNull()
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
