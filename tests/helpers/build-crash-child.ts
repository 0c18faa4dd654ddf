/**
 * Build tests/helpers/crash-child.ts (and the real src/node code it imports) into one plain
 * ES module a child process can run with `node`: vitest is our only TypeScript runner.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { chmod, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const ENTRY = fileURLToPath(new URL('./crash-child.ts', import.meta.url))

/** Build the child into a fresh temp folder (readable by every user) and return its path. */
export async function buildCrashChild(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'mc-crash-child-'))
  await chmod(outDir, 0o755)
  await build({
    configFile: false,
    logLevel: 'silent',
    ssr: { noExternal: true },
    build: {
      ssr: ENTRY,
      outDir,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      rollupOptions: { output: { format: 'es', entryFileNames: 'crash-child.mjs' } },
    },
  })
  const file = join(outDir, 'crash-child.mjs')
  await chmod(file, 0o644)
  return file
}

/** A running child with its stdout split into lines as they arrive. */
export interface ChildRun {
  readonly child: ChildProcess
  readonly lines: string[]
  readonly stderr: () => string
  /** Resolves with the exit code (null after a signal). */
  readonly exited: Promise<number | null>
  /** Resolves when a line matching `test` has arrived (false if the child exits first). */
  waitFor(test: (line: string) => boolean): Promise<boolean>
}

/** Start `node <childFile> ...args`, optionally as the unprivileged user `nobody`. */
export function startChild(
  childFile: string,
  args: readonly string[],
  options: { readonly asNobody?: boolean; readonly env?: Readonly<Record<string, string>> } = {},
): ChildRun {
  const argv = [process.execPath, childFile, ...args]
  const env = { ...process.env, ...options.env }
  const child = options.asNobody
    ? spawn('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', ...argv], {
        stdio: ['pipe', 'pipe', 'pipe'],
        cwd: '/',
        env,
      })
    : spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], env })
  const lines: string[] = []
  let partial = ''
  let err = ''
  const waiters: { test: (l: string) => boolean; done: (ok: boolean) => void }[] = []
  child.stdout?.on('data', (d: Buffer) => {
    const parts = (partial + d.toString()).split('\n')
    partial = parts.pop() ?? ''
    for (const line of parts) {
      lines.push(line)
      for (const w of [...waiters]) {
        if (w.test(line)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.done(true)
        }
      }
    }
  })
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<number | null>((res) =>
    child.on('close', (code) => {
      for (const w of waiters.splice(0)) w.done(false)
      res(code)
    }),
  )
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    waitFor: (test) =>
      lines.some(test)
        ? Promise.resolve(true)
        : child.exitCode !== null || child.signalCode !== null
          ? Promise.resolve(false)
          : new Promise((done) => waiters.push({ test, done })),
  }
}

/** Run a list of operations (crash-child `ops` mode) and return one parsed result per op. */
export async function runOps(
  childFile: string,
  ops: readonly unknown[],
  options: { readonly asNobody?: boolean } = {},
): Promise<unknown[]> {
  const run = startChild(childFile, ['ops', JSON.stringify(ops)], options)
  const code = await run.exited
  if (code !== 0) throw new Error(`crash child exited ${code}: ${run.stderr()}`)
  return run.lines.filter((l) => l !== '').map((l) => JSON.parse(l) as unknown)
}
