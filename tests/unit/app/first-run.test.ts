/**
 * The first run (issue 14): a Claude home with no memory folder yet still opens, and a memory
 * folder created later appears without a restart. chokidar emits no `ready` for an empty path
 * list (docs/stack.md §6), so start-up must never wait on the watcher.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createBackend } from '../../../src/node/app/backend'
import { ignoredInHome, watchMemory } from '../../../src/node/memory/watch'
import { createJsonFileStore } from '../../../src/node/fs/json-store'
import { TOPIC_SCAN_MAX_DEPTH } from '../../../src/core/limits'

const temps: string[] = []
afterAll(() => temps.forEach((t) => rmSync(t, { recursive: true, force: true })))
function temp(): string {
  const t = mkdtempSync(join(tmpdir(), 'mc-first-run-'))
  temps.push(t)
  return t
}

/** Three homes a new user may have: no `projects`, `projects` empty, a project with transcripts only. */
function homes(): { name: string; home: string }[] {
  const none = temp()
  const empty = temp()
  mkdirSync(join(empty, 'projects'))
  const noMemory = temp()
  mkdirSync(join(noMemory, 'projects', '-tmp-repo'), { recursive: true })
  writeFileSync(
    join(noMemory, 'projects', '-tmp-repo', 's.jsonl'),
    JSON.stringify({ type: 'user', cwd: '/tmp/repo', sessionId: 's' }) + '\n',
  )
  return [
    { name: 'no projects folder', home: none },
    { name: 'projects but no project', home: empty },
    { name: 'a project with no memory folder', home: noMemory },
  ]
}

const cli = resolve('out/cli/index.js')

/** Spawn `serve` and resolve with its URL line; a 60 s hang limit, the time reported on failure. */
function serveUrl(home: string): Promise<string> {
  const root = temp()
  return new Promise((ok, fail) => {
    const started = Date.now()
    const child = spawn(
      process.execPath,
      [cli, 'serve', '--claude-home', home, '--port', '0', '--state-dir', join(root, 'state')],
      {
        env: { ...process.env, HOME: root, CLAUDE_CONFIG_DIR: '', CODEX_HOME: join(root, 'codex') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let out = ''
    let err = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(
        new Error(
          `serve printed no URL in ${((Date.now() - started) / 1000).toFixed(1)} s; stdout: ${out} stderr: ${err}`,
        ),
      )
    }, 60_000)
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const url = out.split('\n').find((l) => /^http:\/\/127\.0\.0\.1:\d+\//.test(l))
      if (url) {
        clearTimeout(timer)
        child.kill('SIGTERM')
        ok(url)
      }
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      fail(new Error(`serve exited with ${code} before printing a URL; stderr: ${err}`))
    })
  })
}

describe.skipIf(!existsSync(cli))('serve on a home with no memory folder yet', () => {
  for (const { name, home } of homes()) {
    it(`prints its URL: ${name}`, async () => {
      expect(await serveUrl(home)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    }, 90_000)
  }
})

describe('the memory watcher', () => {
  it('passes over transcripts and everything but projects/<p>/memory/** (as deep as the reader lists)', () => {
    const h = '/h'
    for (const p of [
      '/h',
      '/h/projects',
      '/h/projects/-a',
      '/h/projects/-a/memory',
      '/h/projects/-a/memory/MEMORY.md',
      '/h/projects/-a/memory/deep/x.md',
      `/h/projects/-a/memory/${'d/'.repeat(TOPIC_SCAN_MAX_DEPTH)}x.md`,
    ])
      expect(ignoredInHome(h, p), p).toBe(false)
    for (const p of [
      '/h/settings.json',
      '/h/projects/-a/s.jsonl',
      '/h/projects/-a/sub/x',
      `/h/projects/-a/memory/${'d/'.repeat(TOPIC_SCAN_MAX_DEPTH + 1)}x.md`,
      '/other',
      '/h/projects/-a/memory/.mc-1.tmp',
    ])
      expect(ignoredInHome(h, p), p).toBe(true)
  })

  it('sees a memory folder created after start, without a restart, on a home that had none', async () => {
    const { home } = homes()[0]!
    const state = temp()
    const backend = await createBackend({
      version: 'test',
      claudeHome: home,
      codexHome: join(state, 'codex'),
      managedDir: join(state, 'managed'),
      demo: false,
      demoReason: null,
      stateDir: state,
      transport: 'direct',
      trash: null,
      stampStore: createJsonFileStore(join(state, 'stamps.json')),
    })
    const seen: string[] = []
    let notify: (() => void) | null = null
    backend.onDidChange((e) => {
      seen.push(...e.paths)
      notify?.()
    })
    const watch = watchMemory(backend, { claudeHome: home, debounceMs: 20 })
    try {
      expect((await backend.scan()).projects.filter((p) => p.memoryDir !== null)).toEqual([])
      await watch.ready
      const memory = join(home, 'projects', '-tmp-later', 'memory')
      // The new folder is only seen once chokidar lists it; write until the file's event arrives.
      const writeUntilSeen = async (file: string): Promise<void> => {
        const changed = new Promise<void>((ok) => {
          notify = () => {
            if (seen.includes(file)) ok()
          }
        })
        let rounds = 0
        const writer = setInterval(() => writeFileSync(file, `- note ${++rounds}\n`), 200)
        try {
          await Promise.race([
            changed,
            new Promise((_, no) =>
              setTimeout(
                () => no(new Error(`no change event for ${file} after ${rounds} writes`)),
                60_000,
              ),
            ),
          ])
        } finally {
          clearInterval(writer)
        }
      }
      mkdirSync(memory, { recursive: true })
      await writeUntilSeen(join(memory, 'MEMORY.md'))
      // A topic file two folders down is listed and audited (memory-folder.ts), so it is watched.
      mkdirSync(join(memory, 'topics', 'deep'), { recursive: true })
      await writeUntilSeen(join(memory, 'topics', 'deep', 'x.md'))
      const scan = await backend.scan()
      expect(scan.projects.map((p) => p.memoryDir)).toContain(memory)
    } finally {
      await watch.stop()
      await backend.dispose()
    }
  }, 90_000)
})

describe.skipIf(!existsSync(cli))('what runs on Node 20', () => {
  it('the CLI and serve bundle loads none of the packages that declare Node 22 (they run only inside Electron)', async () => {
    const { readFile } = await import('node:fs/promises')
    const code = await readFile(cli, 'utf8')
    const imports = [
      ...code.matchAll(
        /(?:^|\n)\s*import\s[^'"]*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
      ),
    ].map((m) => m[1] ?? m[2])
    expect(imports.length).toBeGreaterThan(0)
    for (const pkg of ['electron', 'electron-store', 'conf', '@electron/get'])
      expect(
        imports.filter((i) => i === pkg || i?.startsWith(`${pkg}/`)),
        pkg,
      ).toEqual([])
  })
})
