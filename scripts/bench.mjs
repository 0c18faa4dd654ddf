#!/usr/bin/env node
// `npm run bench [-- options]`: runs scripts/bench/bench.bench-run.ts through vitest (the project's
// TypeScript runner) and prints the table. Options: see scripts/bench/options.ts (--help).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

let args = process.argv.slice(2)
if (args.includes('--help') || args.includes('-h')) {
  const src = readFileSync(new URL('./bench/options.ts', import.meta.url), 'utf8')
  process.stdout.write(`${/USAGE = `([^`]*)`/.exec(src)?.[1] ?? ''}\n`)
  process.exit(0)
}
if (args.includes('--jobs') ? args[args.indexOf('--jobs') + 1]?.includes('window') : true) {
  if (!existsSync('out/cli/index.js'))
    process.stderr.write(
      'bench: no out/cli/index.js — run `npm run build` first, or the window rows are skipped\n',
    )
}
// `--workspace-scale`: 50,000 notes in the Notes tab (scripts/bench/workspace-scale.ts, bundled by vite, run alone).
if (args.includes('--workspace-scale'))
  process.exit(
    spawnSync(
      'npx',
      [
        'vite',
        'build',
        '--ssr',
        'scripts/bench/workspace-scale.ts',
        '--outDir',
        'bench-results/build/scale',
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      { stdio: 'inherit' },
    ).status ||
      (spawnSync(process.execPath, ['bench-results/build/scale/workspace-scale.js', ...args], {
        stdio: 'inherit',
      }).status ??
        1),
  )
if (args.includes('--fresh-cli')) {
  // Bundle the current src/cli beside bench-results (inside the checkout, so its bare imports
  // resolve from node_modules); the renderer still comes from out/renderer.
  const outDir = resolve('bench-results/build/cli')
  const b = spawnSync(
    'npx',
    [
      'vite',
      'build',
      '-c',
      'vite.cli.config.ts',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { stdio: 'inherit' },
  )
  if (b.status !== 0) process.exit(b.status ?? 1)
  args = [...args.filter((a) => a !== '--fresh-cli'), '--cli', join(outDir, 'index.js')]
  process.env.MEMORY_CURATOR_RENDERER_DIR ??= resolve('out/renderer')
}
const scratch = mkdtempSync(join(tmpdir(), 'mc-bench-out-'))
const textOut = join(scratch, 'table.txt')
const r = spawnSync(
  'npx',
  ['vitest', 'run', '--config', 'vitest.bench.config.ts', '--reporter=dot'],
  {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, BENCH_ARGS: JSON.stringify(args), BENCH_TEXT_OUT: textOut },
  },
)
if (existsSync(textOut)) process.stdout.write(`\n${readFileSync(textOut, 'utf8')}`)
rmSync(scratch, { recursive: true, force: true })
process.exitCode = r.status ?? 1
