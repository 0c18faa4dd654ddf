/**
 * Paths a reference may rest on (`maybe`: a prose path without an extension, the files of a
 * slash command), and which of them count: one that holds now or left after the note was
 * written; and none of a slash command's failing files while another of them holds. Pure:
 * src/node/audit/judge-notes.ts applies them to each note's checked references.
 */
import type { CheckedReference } from './checked-reference'
import type { WrittenAt } from './written-at'

/**
 * Whether a prose path written without an extension or `/` (`src/ui/hud`) was one: it holds
 * now, or it left after the note was written. Otherwise it was words (`and/or`), not a path of
 * this repository, and says nothing: never "wrong from the start".
 */
export function pathThen(
  c: CheckedReference | { readonly skipped: string },
  w: WrittenAt | null,
): boolean {
  if ('skipped' in c) return false
  if (c.audit.status === 'ok') return true
  return w !== null && !!c.goneIn && Date.parse(c.goneIn.date) > w.ms
}

/**
 * Without the failing files of a slash command one of whose files holds now (`/review`: its
 * `.claude/commands/review.md` became `.claude/skills/review/SKILL.md`, and `/review` still runs
 * it); each of a slash command's files is a `maybe` path of the same text (reference-paths.ts
 * `slashCommandRefs`).
 */
export function withHeldAlternatives(checked: readonly CheckedReference[]): CheckedReference[] {
  const alt = (c: CheckedReference): boolean => c.ref.kind === 'path' && c.ref.maybe === true
  // A folder named with the command's prefix (`skills/meow:memory/`) that the repository had when
  // the note was written and has no more: `/meow:memory` named it, and `skills/memory/` (now
  // `/mk:memory`) runs under another name (blind set CC).
  const prefixed = (c: CheckedReference): boolean =>
    alt(c) && c.ref.kind === 'path' && /:[^/]*\//.test(c.ref.path)
  const prefixedGone = new Set(
    checked.filter((c) => prefixed(c) && c.audit.status !== 'ok').map((c) => c.ref.text),
  )
  const held = new Set(
    checked.filter((c) => alt(c) && c.audit.status === 'ok').map((c) => c.ref.text),
  )
  return checked.filter((c) =>
    !alt(c)
      ? true
      : prefixedGone.has(c.ref.text)
        ? prefixed(c)
        : c.audit.status === 'ok' || !held.has(c.ref.text),
  )
}
