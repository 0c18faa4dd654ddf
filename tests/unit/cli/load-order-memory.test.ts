/**
 * When MEMORY.md counts as loaded, pinned through the handler table (the window's and serve's
 * path) and through the built CLI, which now calls that same table. docs/memory-rules.md §2: what loads
 * is the trimmed head, so an index that trims to nothing loads nothing and is not listed, even
 * when it has bytes; one with text is listed with its loaded lines and characters. (The two
 * copies this replaced disagreed: one listed any readable file, the other any file with bytes.)
 */
import { execFile } from 'node:child_process'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFixtureHome, type FixtureHome } from '../../helpers/fixture-home'
import { fixtureBackend } from '../../helpers/test-backend'
import type { Backend } from '../../../src/node/app/backend'

const CLI = resolve('out/cli/index.js')

interface Listed {
  readonly scope: string
  readonly path: string
  readonly lines: number
  readonly chars: number
}

let f: FixtureHome
let backend: Backend
beforeAll(async () => {
  f = createFixtureHome()
  backend = await fixtureBackend(f)
  await backend.scan()
})
afterAll(async () => {
  await backend?.dispose()
  f?.cleanup()
})

function memoryOf(startup: readonly Listed[]): Listed | null {
  return startup.find((s) => s.scope === 'memory') ?? null
}

function viaCli(): Promise<Listed | null> {
  const args = ['load-order', '--json', '--cwd', f.repo, '--claude-home', f.claudeHome]
  args.push('--codex-home', f.codexHome, '--managed-dir', f.managedDir)
  const env = { PATH: process.env.PATH ?? '', HOME: f.home }
  return new Promise((ok, fail) => {
    execFile(process.execPath, [CLI, ...args], { env }, (err, stdout, stderr) => {
      if (err) return fail(new Error(`${err.message}\n${stderr}`))
      ok(memoryOf((JSON.parse(stdout) as { claude: { startup: Listed[] } }).claude.startup))
    })
  })
}

async function viaApi(): Promise<Listed | null> {
  return memoryOf((await backend.loadOrder(f.repo)).claude.startup)
}

const CASES: readonly (readonly [
  string,
  string | null,
  { lines: number; chars: number } | null,
])[] = [
  ['missing', null, null],
  ['empty', '', null],
  ['blank lines only (bytes, nothing loads)', '\n\n  \n\t\n', null],
  ['frontmatter and a block comment only', '---\nname: x\n---\n<!-- nothing -->\n\n', null],
  ['one entry between blank lines', '\n\n- [A](a.md) — hook\n\n\n', { lines: 1, chars: 18 }],
]

/** Put the case's MEMORY.md in place (null: none), ask `how`, compare with what the case expects. */
async function check(
  text: string | null,
  expected: { lines: number; chars: number } | null,
  how: () => Promise<Listed | null>,
): Promise<void> {
  const path = join(f.memoryDir, 'MEMORY.md')
  if (text === null) rmSync(path, { force: true })
  else writeFileSync(path, text)
  const listed = await how()
  expect(listed).toEqual(
    expected === null ? null : { scope: 'memory', path, importedBy: null, ...expected },
  )
}

describe('MEMORY.md in the load order: listed only when its head loads something', () => {
  it.each(CASES)('%s, through the handler table', (_name, text, expected) =>
    check(text, expected, viaApi),
  )

  it.skipIf(!existsSync(CLI)).each(CASES)(
    '%s, through the built CLI (skipped when out/cli is not built)',
    (_name, text, expected) => check(text, expected, viaCli),
  )
})
