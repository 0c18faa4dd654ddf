#!/usr/bin/env node
// `npm start [-- args]`: build once, then open the Electron window (`electron-vite preview
// --skipBuild`). Without an Electron binary it tries the one download Electron itself makes; if
// that fails (no network), it says so in one line and names `npm run serve` (issue 14).
import { spawnSync } from 'node:child_process'
import { electronBinary } from './electron-binary.mjs'

const args = process.argv.slice(2)
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

const build = spawnSync(npx, ['electron-vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
if (build.status !== 0) {
  process.stderr.write('memory-curator: the build failed (its errors are above)\n')
  process.exit(build.status ?? 1)
}

if (electronBinary() === null) {
  const get = spawnSync(process.execPath, ['node_modules/electron/install.js'], {
    encoding: 'utf8',
  })
  if (get.status !== 0 || electronBinary() === null) {
    const why =
      `${get.stderr ?? ''}${get.stdout ?? ''}`
        .split('\n')
        .find((l) => l.trim() !== '')
        ?.trim() ?? `exit ${get.status}`
    process.stderr.write(
      `memory-curator: no Electron binary, and downloading it failed (${why}). ` +
        'Run the same app in your browser with `npm run serve`, or fetch the binary on a machine with internet: `node node_modules/electron/install.js`.\n',
    )
    process.exit(1)
  }
}

const run = spawnSync(npx, ['electron-vite', 'preview', '--skipBuild', '--', ...args], {
  stdio: 'inherit',
})
process.exit(run.status ?? 1)
