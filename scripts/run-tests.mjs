#!/usr/bin/env node
// `npm test`: lint, typecheck, build, unit tests (vitest) and the Playwright suite in
// Debian's Chromium against `serve`, then the conformance run of the real agents. Ends with one plain line `N passed, N failed, N skipped`
// summed over every suite (CI reads it), and exits non-zero when anything failed.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'

const results = []
const skipBuild = process.argv.includes('--no-build')

function run(name, cmd, args, extraEnv = {}) {
  process.stdout.write(`\n=== ${name}: ${cmd} ${args.join(' ')}\n`)
  const started = Date.now()
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...extraEnv } })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  process.stdout.write(`=== ${name}: exit ${r.status ?? r.signal} in ${seconds} s\n`)
  return r.status === 0
}

function check(name, cmd, args) {
  const ok = run(name, cmd, args)
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 })
}

mkdirSync('test-results', { recursive: true })
check('lint', 'npm', ['run', '--silent', 'lint'])
check('typecheck', 'npm', ['run', '--silent', 'typecheck'])
if (!skipBuild) check('build', 'npm', ['run', '--silent', 'build'])

/** Run vitest with a JSON report and add its counts under `name`. */
function vitest(name, args) {
  const out = `test-results/${name}.json`
  rmSync(out, { force: true })
  const ok = run(name, 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...args,
  ])
  if (!existsSync(out)) return results.push({ name, passed: 0, failed: 1, skipped: 0 })
  const v = JSON.parse(readFileSync(out, 'utf8'))
  const skipped = (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0)
  results.push({
    name,
    passed: v.numPassedTests ?? 0,
    failed: (v.numFailedTests ?? 0) + (ok || v.numFailedTests ? 0 : 1),
    skipped,
  })
}

// Unit tests in parallel; then the reliability suites one file at a time, so their
// hang limits and process races are not measured against each other's load.
vitest('unit', ['--exclude', 'tests/unit/reliability/**'])
vitest('reliability', ['tests/unit/reliability/', '--no-file-parallelism'])

// End-to-end: Playwright in Debian's Chromium.
rmSync('test-results/playwright.json', { force: true })
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  process.stdout.write(
    `\n=== e2e: no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH) — counted as failed\n`,
  )
  results.push({ name: 'e2e', passed: 0, failed: 1, skipped: 0 })
} else {
  const e2eOk = run('e2e', 'npx', ['playwright', 'test'])
  if (existsSync('test-results/playwright.json')) {
    const p = JSON.parse(readFileSync('test-results/playwright.json', 'utf8'))
    const s = p.stats ?? {}
    const failed = (s.unexpected ?? 0) + (s.flaky ?? 0)
    results.push({
      name: 'e2e',
      passed: s.expected ?? 0,
      failed: failed + (e2eOk || failed ? 0 : 1),
      skipped: s.skipped ?? 0,
    })
  } else results.push({ name: 'e2e', passed: 0, failed: 1, skipped: 0 })
}

// Conformance (issue 13): the real Claude Code and Codex, pinned, on our fixture trees; each case
// that agrees with load-order and cutoff counts as passed, each difference as failed. Where the
// agents cannot be installed or run (no registry, no namespace tools), the stage is skipped with
// the reason it printed (exit 2). MC_SKIP_CONFORMANCE=1 skips it on purpose.
if (process.env.MC_SKIP_CONFORMANCE === '1') {
  process.stdout.write('\n=== conformance: skipped (MC_SKIP_CONFORMANCE=1)\n')
  results.push({ name: 'conformance', passed: 0, failed: 0, skipped: 1 })
} else {
  process.stdout.write('\n=== conformance: node scripts/conformance/run.mjs\n')
  const started = Date.now()
  const c = spawnSync(process.execPath, ['scripts/conformance/run.mjs'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  process.stdout.write(c.stdout ?? '')
  process.stderr.write(c.stderr ?? '')
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  const tally = /^(\d+) agree, (\d+) differ$/m.exec(c.stdout ?? '')
  if (c.status === 2 || (!tally && c.status !== 1)) {
    const why =
      `${c.stderr ?? ''}`
        .split('\n')
        .filter((l) => l.trim())
        .pop() ?? `exit ${c.status ?? c.signal}`
    process.stdout.write(
      `=== conformance: skipped in ${seconds} s — could not run the agents: ${why}\n`,
    )
    results.push({ name: 'conformance', passed: 0, failed: 0, skipped: 1 })
  } else {
    process.stdout.write(`=== conformance: exit ${c.status} in ${seconds} s\n`)
    const agree = tally ? Number(tally[1]) : 0
    const differ = tally ? Number(tally[2]) : 1
    results.push({
      name: 'conformance',
      passed: agree,
      failed: differ + (c.status === 0 || differ > 0 ? 0 : 1),
      skipped: 0,
    })
    // The app's "Check with the installed agent" with the agents conformance just installed
    // (issue 13 item 4): in the unit stage these skip, the cache being empty on a fresh machine.
    vitest('agent-check', ['tests/unit/node/agents', '-t', 'real pinned agents'])
  }
}

process.stdout.write('\n')
for (const r of results)
  process.stdout.write(
    `${r.name.padEnd(12)} ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped\n`,
  )
const total = results.reduce(
  (a, r) => ({
    passed: a.passed + r.passed,
    failed: a.failed + r.failed,
    skipped: a.skipped + r.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
)
process.stdout.write(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`)
process.exitCode = total.failed > 0 ? 1 : 0
