/**
 * What Codex loads when launched in a directory (docs/memory-rules.md §4): the global file apart,
 * then at most one file per folder from the project root down, under one byte budget.
 * Pure: every disk access goes through an injected `CodexFsPort`.
 */
import { CODEX_PROJECT_DOC_MAX_BYTES, CODEX_ROOT_MARKERS, READ_MAX_BYTES } from '../limits'
import type { CodexFile, LoadOrderResult, Problem } from '../../shared/model'
import { ancestorsRootFirst, joinPath } from '../paths'
import type { PortRead } from './claude'
import { utf8Length } from '../text'

const OVERRIDE_NAME = 'AGENTS.override.md'
const DEFAULT_NAME = 'AGENTS.md'

/** What is at a path, without following a final symlink; null when nothing is there. */
export type EntryKind = 'file' | 'dir' | 'symlink' | 'other'

/** The disk as the Codex rules see it. Implementations never throw and never hang. */
export interface CodexFsPort {
  /**
   * Read a file as text. `lenient` decodes invalid UTF-8 with replacement characters
   * (Codex reads project docs lossily but requires valid UTF-8 for the global file).
   */
  readText(path: string, maxBytes: number, lenient: boolean): Promise<PortRead>
  entryKind(path: string): Promise<EntryKind | null>
}

export interface CodexLoadInput {
  /** Absolute launch directory. */
  readonly cwd: string
  readonly codexHome: string
  /** `project_doc_max_bytes`; default CODEX_PROJECT_DOC_MAX_BYTES. */
  readonly budgetBytes?: number
  /** `project_doc_fallback_filenames`, tried after AGENTS.override.md and AGENTS.md. */
  readonly fallbackFilenames?: readonly string[]
  /** Names marking the project root; default CODEX_ROOT_MARKERS. */
  readonly rootMarkers?: readonly string[]
}

/** A dropped file: the contract's path and reason code, plus a plain detail when there is one. */
export interface DroppedFile extends Problem {
  readonly detail?: string
}

type CodexResult = LoadOrderResult['codex']

/** The contract's `codex` part, plus the project root the chain starts at. */
export interface CodexLoadOrder extends CodexResult {
  readonly dropped: readonly DroppedFile[]
  /** The folder the project chain starts at, or null when no root marker was found. */
  readonly projectRoot: string | null
}

/**
 * Codex's instruction chain for `input.cwd` (docs/memory-rules.md §4). Dropped reasons: `empty`
 * (whitespace only: uses no budget), `shadowed` (another file wins its folder),
 * `budget-exhausted`, `project-docs-off` (budget 0), `not-a-file`, or a read problem.
 */
export async function codexLoadOrder(
  input: CodexLoadInput,
  port: CodexFsPort,
): Promise<CodexLoadOrder> {
  const budget = Math.max(0, Math.floor(input.budgetBytes ?? CODEX_PROJECT_DOC_MAX_BYTES))
  const files: CodexFile[] = []
  const dropped: DroppedFile[] = []
  const drop = (path: string, reason: string, detail?: string): void => {
    dropped.push(detail === undefined ? { path, reason } : { path, reason, detail })
  }
  const kind = (path: string): Promise<EntryKind | null> => port.entryKind(path).catch(() => null)
  const readText = (path: string, lenient: boolean): Promise<PortRead> =>
    port.readText(path, READ_MAX_BYTES, lenient).catch((err: unknown): PortRead => ({
      ok: false,
      problem: 'unreadable',
      reason: String(err),
    }))

  // Global: the first non-empty of AGENTS.override.md, AGENTS.md; outside the budget.
  let globalFound = false
  for (const name of [OVERRIDE_NAME, DEFAULT_NAME]) {
    const path = joinPath(input.codexHome, name)
    const r = await readText(path, false)
    if (!r.ok) {
      if (r.problem !== 'missing') drop(path, r.problem, r.reason)
      continue
    }
    if (globalFound) {
      drop(path, 'shadowed', `${OVERRIDE_NAME} in the Codex home wins`)
      continue
    }
    if (r.text.trim() === '') {
      drop(path, 'empty', 'whitespace only; Codex falls back to the next global file')
      continue
    }
    globalFound = true
    files.push({ path, scope: 'global', bytes: r.bytes, includedBytes: r.bytes, truncated: false })
  }

  // Project root: the nearest folder at or above cwd holding a root marker.
  const markers = input.rootMarkers ?? CODEX_ROOT_MARKERS
  const chain = ancestorsRootFirst(input.cwd)
  let projectRoot: string | null = null
  if (markers.length > 0) {
    for (let i = chain.length - 1; i >= 0 && projectRoot === null; i--) {
      for (const marker of markers) {
        if ((await kind(joinPath(chain[i], marker))) !== null) {
          projectRoot = chain[i]
          break
        }
      }
    }
  }
  const dirs = projectRoot === null ? [input.cwd] : chain.slice(chain.indexOf(projectRoot))

  const names = [...new Set([OVERRIDE_NAME, DEFAULT_NAME, ...(input.fallbackFilenames ?? [])])]
  let remaining = budget
  for (const dir of dirs) {
    // At most one file per folder: the first name that exists as a file (or symlink) wins.
    let winner: string | null = null
    for (const name of names) {
      const path = joinPath(dir, name)
      const k = await kind(path)
      if (k === null) continue
      if (k !== 'file' && k !== 'symlink') {
        drop(
          path,
          'not-a-file',
          `a ${k === 'dir' ? 'folder' : 'special file'} named ${name}; Codex tries the next name`,
        )
        continue
      }
      if (winner === null) winner = path
      else drop(path, 'shadowed', `${winner} wins this folder`)
    }
    if (winner === null) continue
    if (budget === 0) {
      drop(winner, 'project-docs-off', 'project_doc_max_bytes is 0')
      continue
    }
    if (remaining === 0) {
      drop(winner, 'budget-exhausted', `the ${budget}-byte budget is used by files nearer the root`)
      continue
    }
    const r = await readText(winner, true)
    if (!r.ok) {
      drop(winner, r.problem, r.reason)
      continue
    }
    const included = Math.min(r.bytes, remaining)
    // Codex reads at most the remaining budget and skips the file when that part is blank.
    if (utf8Prefix(r.text, included).trim() === '') {
      drop(
        winner,
        'empty',
        'whitespace only; wins its folder but contributes nothing and uses no budget',
      )
      continue
    }
    // The cut is byte-exact; a character it breaks arrives as U+FFFD (docs/memory-rules.md §4.4 [agent]).
    const whole = r.bytes > included ? utf8Length(utf8Prefix(r.text, included)) : included
    files.push({
      path: winner,
      scope: 'project',
      bytes: r.bytes,
      includedBytes: whole,
      truncated: r.bytes > included,
      ...(whole < included ? { brokenChar: true } : {}),
    })
    remaining -= included
  }
  return { budgetBytes: budget, files, dropped, projectRoot }
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes` (whole characters). */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text
  let bytes = 0
  let i = 0
  while (i < text.length) {
    const cp = text.codePointAt(i) as number
    const units = cp > 0xffff ? 2 : 1
    const size = utf8Length(text.slice(i, i + units))
    if (bytes + size > maxBytes) break
    bytes += size
    i += units
  }
  return text.slice(0, i)
}
