#!/usr/bin/env node
// Electron fuses for a packaged build (issue 11): flipped in the binary itself, so neither an
// environment variable nor a command-line flag can turn the app into a plain Node runtime or open
// an inspector on it. Run on the packaged binary (a packager's afterPack hook):
//   node scripts/fuses.mjs path/to/Memory\ Curator[.exe]
// `resetAdHocDarwinSignature` re-signs on macOS, where flipping breaks the ad-hoc signature.
import { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The fuses this app ships with. */
export const FUSES = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false, // ELECTRON_RUN_AS_NODE does nothing
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false, // NODE_OPTIONS ignored
  [FuseV1Options.EnableNodeCliInspectArguments]: false, // --inspect and friends ignored
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true, // app.asar checked against its hash
  [FuseV1Options.OnlyLoadAppFromAsar]: true, // no loose app folder beside the asar
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false, // the page comes from app://, not file://
}

/** Flip the app's fuses in `binary` and return the wire as read back afterwards. */
export async function applyFuses(binary) {
  await flipFuses(binary, { ...FUSES, resetAdHocDarwinSignature: process.platform === 'darwin' })
  return getCurrentFuseWire(binary)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const binary = process.argv[2]
  if (!binary) {
    process.stderr.write('usage: node scripts/fuses.mjs <packaged Electron binary>\n')
    process.exit(2)
  }
  const wire = await applyFuses(binary)
  process.stdout.write(`fuses of ${binary}: ${JSON.stringify(wire)}\n`)
}
