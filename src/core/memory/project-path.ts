/**
 * Claude Code's project-folder naming (docs/memory-rules.md §1.3). Encoding only: the name is
 * lossy and is **never decoded** into a path — the real path comes from transcripts.
 */
import { PROJECT_DIR_NAME_MAX } from '../limits'

/** Encode a launch directory the way Claude Code names its project folder. */
export function encodeProjectDir(absPath: string): string {
  const encoded = absPath.replace(/[^A-Za-z0-9]/g, '-')
  if (encoded.length <= PROJECT_DIR_NAME_MAX) return encoded
  return `${encoded.slice(0, PROJECT_DIR_NAME_MAX)}-${projectDirHash(absPath)}`
}

/**
 * The classic 32-bit string hash over UTF-16 units (`h = h*31 + unit`, wrapping to a signed
 * 32-bit integer), its absolute value in base 36: the suffix Claude Code gives long
 * project-folder names (docs/memory-rules.md §1.3 [agent]; not djb2).
 */
export function projectDirHash(s: string): string {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0
  return Math.abs(h).toString(36)
}
