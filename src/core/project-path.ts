/**
 * Claude Code's project-folder naming (memory-facts §1). Encoding only: the name is
 * lossy and is **never decoded** into a path — the real path comes from transcripts.
 */
import { PROJECT_DIR_NAME_MAX } from './limits'

/** Encode a launch directory the way Claude Code names its project folder. */
export function encodeProjectDir(absPath: string): string {
  const encoded = absPath.replace(/[^A-Za-z0-9]/g, '-')
  if (encoded.length <= PROJECT_DIR_NAME_MAX) return encoded
  return `${encoded.slice(0, PROJECT_DIR_NAME_MAX)}-${simpleHash(absPath)}`
}

/** A short stable hash (djb2, base 36). Claude Code's exact hash is not reproduced; only the shape. */
function simpleHash(s: string): string {
  let h = 5381
  for (let i = 0; i < s.length; i++) h = ((h << 5) + h + s.charCodeAt(i)) | 0
  return (h >>> 0).toString(36)
}
