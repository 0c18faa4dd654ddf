/**
 * A state machine written as one code span (`SUBMITTED → CHECKING → ACTIVE | REJECTED →
 * (DECAYING → RETIRED → DELETED)`): each state is a constant of the code, checked as a name
 * (blind set AA gs-r09: three of the states left the status enum). Pure.
 *
 * Decisions:
 * - Only constants (`UPPER_CASE`, three characters or more) joined by arrows, with `|` for
 *   alternatives and brackets for groups: "draft → published" is words, not names, and
 *   `a->b` is a member access.
 * - At least three states and one arrow: two names and a bar are alternatives, not a machine.
 */
import type { Reference } from './reference'

const ARROW_RE = /→|->|=>|⇒|⟶/
const PART_RE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/

/** The states of a span that is a state machine, as names; null when it is not one. */
export function stateNames(span: string): Extract<Reference, { kind: 'symbol' }>[] | null {
  if (!ARROW_RE.test(span)) return null
  const parts = span
    .replace(/[()[\]{}]/g, ' ')
    .split(/→|->|=>|⇒|⟶|\|/)
    .map((x) => x.trim())
  if (parts.length < 3 || !parts.every((p) => p.length >= 3 && PART_RE.test(p))) return null
  return [...new Set(parts)].map((name) => ({ kind: 'symbol', text: name, name, terms: [name] }))
}
