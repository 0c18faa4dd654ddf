/**
 * The packaged app's fuses (issue 11). No packaged Electron binary exists here, so the real
 * @electron/fuses flips a file holding Electron's fuse wire (its sentinel, version, length and
 * one byte per fuse, as in every Electron binary), and reads it back.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error a plain .mjs script run by packagers, without type declarations
import { applyFuses, FUSES } from '../../../scripts/fuses.mjs'

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
const FUSE_COUNT = 8

describe('Electron fuses of a packaged build', () => {
  it('turns RunAsNode, NODE_OPTIONS and inspect flags off, asar integrity on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mc-fuses-'))
    try {
      const binary = join(dir, 'electron')
      // Every fuse at Electron's shipped default of "enabled" ('1'), padded by other bytes.
      const wire = Buffer.concat([
        Buffer.from([1, FUSE_COUNT]),
        Buffer.from('1'.repeat(FUSE_COUNT)),
      ])
      writeFileSync(
        binary,
        Buffer.concat([Buffer.alloc(4096, 7), Buffer.from(SENTINEL), wire, Buffer.alloc(4096, 9)]),
      )
      const after = (await applyFuses(binary)) as Record<string, number>
      const on = 49
      const off = 48
      expect(after[0], 'RunAsNode').toBe(off)
      expect(after[1], 'EnableCookieEncryption').toBe(on)
      expect(after[2], 'EnableNodeOptionsEnvironmentVariable').toBe(off)
      expect(after[3], 'EnableNodeCliInspectArguments').toBe(off)
      expect(after[4], 'EnableEmbeddedAsarIntegrityValidation').toBe(on)
      expect(after[5], 'OnlyLoadAppFromAsar').toBe(on)
      expect(after[7], 'GrantFileProtocolExtraPrivileges').toBe(off)
      // Nothing but the wire changed.
      const bytes = readFileSync(binary)
      expect(bytes.subarray(0, 4096).every((b) => b === 7)).toBe(true)
      expect(bytes.subarray(bytes.length - 4096).every((b) => b === 9)).toBe(true)
      expect(Object.keys(FUSES)).toContain('version')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
