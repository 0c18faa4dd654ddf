/**
 * The last audit's findings per memory folder, kept in our state folder so the SessionStart
 * hook can name stale notes without auditing (issue 18 item 1: an answer within 300 ms; a full
 * audit reads git history and takes seconds). Every audit the back end runs (window, `serve`,
 * the MCP server) and the CLI's `audit` save one.
 *
 * Decisions:
 * - Only notes judged `stale` (docs/cli.md §7: the code changed since the note) or
 *   `never-matched` (wrong from the start) are kept, with their reasons.
 * - A note is shown only while its first line is still in its file: a note fixed or removed
 *   since the audit is not reported. The digest never triggers an audit of its own.
 * - One small JSON file per folder, written atomically (temp file + rename); a broken or foreign
 *   file reads as no digest.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { AuditResult, Verdict } from '../../shared/model'
import { readTextFile } from '../fs/safe-read'

const DIGEST_VERSION = 1
/** Notes kept per folder (the hook shows at most five). */
const DIGEST_MAX_NOTES = 50
const DIGEST_MAX_BYTES = 256 * 1024

export interface DigestNote {
  readonly file: string
  readonly line: number
  readonly title: string
  readonly verdict: Extract<Verdict, 'stale' | 'never-matched'>
  readonly reasons: readonly string[]
  /** The note's first line as audited. */
  readonly firstLine: string
}

export interface AuditDigest {
  readonly memoryDir: string
  readonly at: string
  readonly notes: readonly DigestNote[]
}

export const digestPath = (stateDir: string, memoryDir: string): string =>
  join(
    stateDir,
    'audit-digest',
    `${createHash('sha256').update(resolve(memoryDir)).digest('hex').slice(0, 32)}.json`,
  )

/** The findings worth telling a session from an audit result. */
export async function digestOf(
  memoryDir: string,
  result: AuditResult,
  at = new Date().toISOString(),
): Promise<AuditDigest> {
  const notes: DigestNote[] = []
  const texts = new Map<string, string[]>()
  for (const n of result.notes) {
    if (n.verdict !== 'stale' && n.verdict !== 'never-matched') continue
    if (notes.length >= DIGEST_MAX_NOTES) break
    let lines = texts.get(n.file)
    if (!lines) {
      const r = await readTextFile(n.file)
      lines = r.ok ? r.text.split(/\r?\n/) : []
      texts.set(n.file, lines)
    }
    notes.push({
      file: n.file,
      line: n.line,
      title: n.title,
      verdict: n.verdict,
      reasons: n.reasons.slice(0, 5),
      firstLine: (lines[n.line - 1] ?? '').slice(0, 2000),
    })
  }
  return { memoryDir: resolve(memoryDir), at, notes }
}

/** Save the digest of an audit; a failure to save is swallowed (the digest is a convenience). */
export async function saveAuditDigest(
  stateDir: string,
  memoryDir: string,
  result: AuditResult,
): Promise<void> {
  try {
    const digest = await digestOf(memoryDir, result)
    const path = digestPath(stateDir, memoryDir)
    await mkdir(join(stateDir, 'audit-digest'), { recursive: true })
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`
    await writeFile(tmp, JSON.stringify({ version: DIGEST_VERSION, ...digest }))
    await rename(tmp, path).catch(async (err: unknown) => {
      await unlink(tmp).catch(() => undefined)
      throw err
    })
  } catch {
    // Not saving the digest only means the next session hears about the cutoff alone.
  }
}

const isStr = (v: unknown): v is string => typeof v === 'string'

/** The saved digest of a memory folder, or null when none (or an unusable one) is saved. */
export async function loadAuditDigest(
  stateDir: string,
  memoryDir: string,
): Promise<AuditDigest | null> {
  const r = await readTextFile(digestPath(stateDir, memoryDir), { maxBytes: DIGEST_MAX_BYTES })
  if (!r.ok) return null
  let data: unknown
  try {
    data = JSON.parse(r.text)
  } catch {
    return null
  }
  const d = data as Record<string, unknown>
  if (!d || d.version !== DIGEST_VERSION || d.memoryDir !== resolve(memoryDir) || !isStr(d.at))
    return null
  if (!Array.isArray(d.notes)) return null
  const notes: DigestNote[] = []
  for (const raw of d.notes.slice(0, DIGEST_MAX_NOTES) as unknown[]) {
    const n = raw as Record<string, unknown>
    if (
      !n ||
      !isStr(n.file) ||
      !isStr(n.title) ||
      !isStr(n.firstLine) ||
      typeof n.line !== 'number' ||
      (n.verdict !== 'stale' && n.verdict !== 'never-matched') ||
      !Array.isArray(n.reasons)
    )
      continue
    notes.push({
      file: n.file,
      line: n.line,
      title: n.title,
      verdict: n.verdict,
      reasons: n.reasons.filter(isStr),
      firstLine: n.firstLine,
    })
  }
  return { memoryDir: d.memoryDir, at: d.at, notes }
}

/** The digest's notes still in their files as audited (first line unchanged, anywhere in the file). */
export async function notesStillThere(digest: AuditDigest): Promise<DigestNote[]> {
  const texts = new Map<string, string | null>()
  const out: DigestNote[] = []
  for (const n of digest.notes) {
    if (!texts.has(n.file)) {
      const r = await readTextFile(n.file)
      texts.set(n.file, r.ok ? r.text : null)
    }
    const text = texts.get(n.file)
    if (text && n.firstLine.trim() !== '' && text.includes(n.firstLine)) out.push(n)
  }
  return out
}
