/**
 * What the names of a note's prose add to its references (prose-then.ts finds them): references
 * that failed, reasons they make obsolete, paths the tree lacked then, files made at run time.
 */
import type { CheckedReference } from '../../core/audit/checked-reference'
import { proseNameOf } from '../../core/audit/check-path'
import { tick } from '../../core/audit/reason-text'
import {
  onlyInExamples,
  type DeclaringBlock,
  type DeclaringBlocks,
} from '../../core/audit/example-blocks'

/** What prose adds to one note: failing references, and reasons it makes obsolete. */
export interface ProseFinding {
  readonly checked: readonly CheckedReference[]
  /** Texts of references whose "not checked" reason this finding replaces (a glob). */
  readonly supersedes: readonly string[]
  /**
   * Texts of paths absent now and absent from the tree when the note was written, found so
   * when git history could not be read (no rename/delete index to ask): never stale.
   */
  readonly absentThen: readonly string[]
  /**
   * Bare file names the note gives that no tracked file has and a code line holds now (a file
   * the code makes at run time), with that line's file: candidate-lines.ts `runtimeFile`.
   */
  readonly runtimeFiles?: readonly { readonly text: string; readonly path: string }[]
  /** Quoted blocks declaring only types the code did not have then (example-blocks.ts), of `blocks`. */
  readonly examples?: readonly DeclaringBlock[]
  readonly blocks?: DeclaringBlocks
}

/** Whether a name comes only from the note's example blocks: not the note's claim. */
export const exampleName = (name: string, f: ProseFinding | undefined): boolean =>
  !!f?.blocks && !!f.examples?.length && onlyInExamples(name, f.blocks, f.examples)

/**
 * A path that fails now with no known fate, found absent from the tree when the note was
 * written too: never matched (wrong from the start), not stale.
 */
export function withTreeThen(c: CheckedReference, f: ProseFinding | undefined): CheckedReference {
  if (!f || c.audit.status !== 'missing' || c.goneIn !== undefined) return c
  if (!f.absentThen.includes(c.ref.text)) return c
  const was = 'nor was it in the tree when the note was written'
  return { ...c, goneIn: null, reason: c.reason ? `${c.reason}, ${was}` : was }
}

/** Reasons without the "not checked" lines a finding replaces. */
export function withoutSuperseded(
  reasons: readonly string[],
  f: ProseFinding | undefined,
): string[] {
  if (!f || f.supersedes.length === 0) return [...reasons]
  const replaced = (r: string): boolean =>
    f.supersedes.some(
      (s) =>
        r.startsWith(`${tick(s)} is a pattern`) ||
        r.startsWith(`${tick(s)} is outside`) ||
        r.startsWith(`${tick(s)} names another repository`) ||
        [s, `${s}.js`].includes(proseNameOf(r) ?? ''),
    )
  return reasons.filter((r) => !replaced(r))
}

/**
 * A path no commit ever tracked, by a bare file name a code line holds now: a file the code
 * makes at run time (`registry.json` in the user's home), not "wrong from the start" (blind set
 * BJ). The reason to show instead, or null.
 */
export function runtimeFile(
  c: CheckedReference | { readonly skipped: string },
  prose: ProseFinding | undefined,
): string | null {
  if ('skipped' in c || c.audit.status !== 'missing' || c.goneIn !== null) return null
  const held = prose?.runtimeFiles?.find((x) => x.text === c.ref.text)
  return held
    ? `${tick(c.ref.text)} is no tracked file: a file the code makes at run time (${tick(held.path)} names it); not checked`
    : null
}

/**
 * A quote of a block that declares only types the code did not have when the note was written:
 * an example (example-blocks.ts), never matched, whatever later commits did to lines like it.
 */
export function withExample(c: CheckedReference, f: ProseFinding | undefined): CheckedReference {
  if (!f?.examples || c.ref.kind !== 'snippet' || c.audit.status === 'ok') return c
  const code = c.ref.code
  const b = f.examples.find((x) => x.code === code)
  if (!b) return c
  const types = b.types.slice(0, 3).map(tick).join(', ')
  const why = `it declares ${types}${b.types.length > 3 ? ', …' : ''}, which the code did not have when the note was written`
  return { ...c, goneIn: null, reason: c.reason ? `${c.reason}; ${why}` : why }
}
