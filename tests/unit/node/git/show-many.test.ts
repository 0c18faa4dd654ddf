/**
 * Many files of a commit read in one `git show` (show-many.ts) give what one `git show` per file
 * gives (history.ts `showAt`), on a real repository of awkward files: binary, empty, a symlink,
 * a folder, a missing path, one over the size limit, invalid UTF-8 at the edges where two files
 * meet, names with spaces, tabs and quotes, and the same content twice.
 */
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { showAt } from '../../../../src/node/git/history'
import { cutBySizes, showManyAt } from '../../../../src/node/git/show-many'
import { git } from '../../../helpers/git'

const repo = mkdtempSync(join(tmpdir(), 'mc-show-many-'))
afterAll(() => rmSync(repo, { recursive: true, force: true }))

const FILES: Record<string, string | Buffer> = {
  'a.ts': 'export const a = 1\n',
  'same.ts': 'export const a = 1\n',
  'empty.ts': '',
  'é/ü 😀.ts': 'const s = "é😀"\n',
  'sp ace.ts': 'x\r\ny',
  'tab\tq"uote.ts': 'tab\n',
  'bin.dat': Buffer.from([0x61, 0x00, 0x62]),
  // Invalid UTF-8 where files meet: a cut three-byte sequence, then a lone continuation byte.
  'cut-end.ts': Buffer.from([0x61, 0xe2, 0x82]),
  'cont-start.ts': Buffer.from([0xac, 0x62]),
  'bad-mid.ts': Buffer.from([0x61, 0xf0, 0x9f, 0x98, 0x62]),
  'big.ts': 'x'.repeat(5000),
  'dir/inner.ts': 'inner\n',
}

describe('showManyAt', () => {
  git(repo, 'init', '-q', '-b', 'main')
  for (const [rel, body] of Object.entries(FILES)) {
    mkdirSync(join(repo, dirname(rel)), { recursive: true })
    writeFileSync(join(repo, rel), body)
  }
  symlinkSync('a.ts', join(repo, 'link.ts'))
  git(repo, 'add', '-A')
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'all')
  const sha = git(repo, 'rev-parse', 'HEAD').trim()

  it('answers each file as showAt does', async () => {
    const rels = [...Object.keys(FILES), 'link.ts', 'dir', 'missing.ts', 'a.ts']
    const many = await showManyAt(repo, sha, rels, 4096)
    for (const rel of rels)
      expect([rel, many.get(rel)]).toEqual([rel, await showAt(repo, sha, rel, 4096)])
    expect(many.get('a.ts')).toEqual({ ok: true, text: 'export const a = 1\n' })
    expect(many.get('bin.dat')?.ok).toBe(false)
    expect(many.get('missing.ts')?.ok).toBe(false)
  })

  it('reads clean files in one git show, and falls back file by file when it cannot cut', async () => {
    // A `git` first on PATH that logs each subcommand, then runs the real one.
    const bin = join(repo, '.bin')
    const log = join(repo, '.git-calls')
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
    mkdirSync(bin)
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$2" >> '${log}'\nexec '${real}' "$@"\n`)
    chmodSync(join(bin, 'git'), 0o755)
    const path = process.env.PATH
    process.env.PATH = `${bin}:${path ?? ''}`
    const shows = (): number =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l === 'show').length
    try {
      writeFileSync(log, '')
      const clean = ['a.ts', 'empty.ts', 'é/ü 😀.ts', 'sp ace.ts', 'tab\tq"uote.ts', 'bad-mid.ts']
      const many = await showManyAt(repo, sha, clean, 4096)
      expect(shows()).toBe(1)
      for (const rel of clean) expect(many.get(rel)).toEqual(await showAt(repo, sha, rel, 4096))
      writeFileSync(log, '')
      await showManyAt(repo, sha, ['a.ts', 'cut-end.ts', 'cont-start.ts'], 4096)
      expect(shows()).toBe(4)
    } finally {
      process.env.PATH = path
    }
  })

  it('cuts text at byte sizes only on character edges', () => {
    expect(cutBySizes('aébc', [1, 2, 2])).toEqual(['a', 'é', 'bc'])
    expect(cutBySizes('a😀b', [1, 4, 1])).toEqual(['a', '😀', 'b'])
    expect(cutBySizes('aé', [2, 1])).toBeNull()
    expect(cutBySizes('ab', [1])).toBeNull()
    expect(cutBySizes('ab', [1, 2])).toBeNull()
  })
})
