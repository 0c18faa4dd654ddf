#!/usr/bin/env node
// The build with one line of output on success (its full output only on failure), so that the
// URL `serve` prints is not buried under the bundler's listing (issue 14).
import { spawnSync } from 'node:child_process'

const started = Date.now()
const r = spawnSync(
  process.platform === 'win32' ? 'npm.cmd' : 'npm',
  ['run', '--silent', 'build'],
  { encoding: 'utf8' },
)
if (r.status !== 0) {
  process.stderr.write(
    `${r.stdout ?? ''}${r.stderr ?? ''}memory-curator: the build failed (exit ${r.status ?? r.signal})\n`,
  )
  process.exit(r.status ?? 1)
}
process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
