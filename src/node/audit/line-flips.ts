/**
 * Lines a note points at (src/core/audit/line-pointers.ts) that moved far or left their file
 * since the note was written: the file at the note's commit against the file now, for each
 * path reference that holds now and carries a line.
 */
import { readFile } from 'node:fs/promises'
import { relative } from 'node:path'
import type { CheckedReference } from '../../core/audit/checked-reference'
import { linePointers, pointerMoved } from '../../core/audit/line-pointers'
import { tick } from '../../core/audit/reason-text'
import { showAt } from '../git/history'
import { toPosix } from './repo-file'

const FILE_MAX_BYTES = 2 * 1024 * 1024
/** Pointers followed per note, at most. */
const POINTERS_MAX = 8

const shown = (t: string): string => tick(t.length > 80 ? `${t.slice(0, 79)}…` : t)

/** Reasons the lines a note points at are elsewhere now (empty: none moved). */
export async function lineFlips(
  root: string,
  factsRoot: string,
  then: string,
  text: string,
  checked: readonly CheckedReference[],
): Promise<string[]> {
  const files = new Map<string, string>()
  for (const c of checked)
    if (c.ref.kind === 'path' && !c.ref.dir && c.audit.status === 'ok' && c.audit.resolved)
      files.set(c.ref.text, c.audit.resolved)
  const refs = checked.flatMap((c) =>
    c.ref.kind === 'path' && files.has(c.ref.text) ? [c.ref] : [],
  )
  const out: string[] = []
  for (const p of linePointers(text, refs).slice(0, POINTERS_MAX)) {
    const abs = files.get(p.text)
    if (abs === undefined) continue
    const rel = toPosix(relative(factsRoot, abs))
    if (rel === '' || rel.startsWith('..')) continue
    const was = await showAt(root, then, rel, FILE_MAX_BYTES)
    if (!was.ok) continue
    const now = await readFile(abs, 'utf8').catch(() => null)
    if (now === null || now.length > FILE_MAX_BYTES) continue
    const moved = pointerMoved(was.text, now, p.line)
    if (!moved) continue
    const where =
      moved.nowLine === null ? 'no line of it holds that now' : `it is line ${moved.nowLine} now`
    out.push(
      `the note points at ${tick(`${rel}:${p.line}`)}, which held ${shown(moved.held)} when it was written; ${where}`,
    )
  }
  return out
}
