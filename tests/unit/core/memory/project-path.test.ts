import { describe, expect, it } from 'vitest'
import { encodeProjectDir, projectDirHash } from '../../../../src/core/memory/project-path'
import { PROJECT_DIR_NAME_MAX } from '../../../../src/core/limits'

/** The same hash done another way: exact integers, reduced to signed 32 bits at the end of each step. */
function referenceHash(s: string): string {
  let h = 0n
  for (let i = 0; i < s.length; i++) h = BigInt.asIntN(32, h * 31n + BigInt(s.charCodeAt(i)))
  return (h < 0n ? -h : h).toString(36)
}

describe('project folder names (docs/memory-rules.md §1.3)', () => {
  it('short paths are encoded without a suffix', () => {
    expect(encodeProjectDir('/home/u/my.repo')).toBe('-home-u-my-repo')
  })

  it('long names get the 31-multiplier hash of the path, absolute, base 36 (not djb2)', () => {
    const path = '/home/u/' + 'very-long-folder-name/'.repeat(12) + 'project'
    const name = encodeProjectDir(path)
    expect(name.length).toBeGreaterThan(PROJECT_DIR_NAME_MAX)
    expect(name).toBe(
      `${path.replace(/[^A-Za-z0-9]/g, '-').slice(0, PROJECT_DIR_NAME_MAX)}-${referenceHash(path)}`,
    )
  })

  it('hashes UTF-16 units, wraps to signed 32 bits and takes the absolute value', () => {
    // Known values of the classic hash: "hello" = 99162322, "polygenelubricants" = -2^31.
    expect(projectDirHash('hello')).toBe((99162322).toString(36))
    expect(projectDirHash('polygenelubricants')).toBe((2 ** 31).toString(36))
    for (const s of ['/tmp/ä/😀/x', '/a'.repeat(300), ''])
      expect(projectDirHash(s)).toBe(referenceHash(s))
  })
})
