/**
 * A reference after checking, and the one constructor every check builds it with.
 */
import type { AuditReference, ReferenceStatus } from '../../shared/model'
import type { RenameStep } from '../git/parse'
import type { Reference } from './reference'
import type { RepoFacts } from './repo-facts'

/** A reference after checking: the contract's shape plus what the verdict needs. */
export interface CheckedReference {
  readonly ref: Reference
  readonly audit: AuditReference
  /** Whether it can hold or fail against the code (URLs and branches cannot). */
  readonly checkable: boolean
  /** A repository-relative file or folder the note rests on (for `suspect`). */
  readonly restsOn: string | null
  /** The relative path the reference named (before renames), for diffs. */
  readonly namedPath: string | null
  readonly reason: string | null
  /** Renames git recorded for the named path, oldest first (for diffs). */
  readonly renames?: readonly RenameStep[]
  /** The commit that deleted the named path, when it was deleted. */
  readonly deletedIn?: string
  /** The facts it was checked against, when not the note's own (another branch's work tree). */
  readonly checkedIn?: RepoFacts
  /**
   * For a reference that fails now: the commit it went away in (deleted, renamed, its
   * last line removed from code); null when history never had it; absent when not known.
   */
  readonly goneIn?: Gone | null
  /**
   * For a deleted path: the commit its name last came to be in (added, or renamed or copied
   * to it), when history knows it; verdict.ts tells "not there when the note was written".
   */
  readonly cameIn?: { readonly sha: string; readonly date: string }
  /**
   * For quoted code that now appears only with changes: whether the lines holding it changed
   * since the note was written (issue 12 item 5), with the reason; absent when not known.
   */
  readonly sinceNote?: {
    readonly changed: boolean
    readonly reason: string
    /** The lines it matched in the same file at the note's commit, when it did. */
    readonly thenLines?: readonly [number, number]
  }
}

/** The commit in which a reference stopped holding. */
export interface Gone {
  readonly sha: string
  /** Committer date, ISO. */
  readonly date: string
  /** What went: `deleted`, `renamed`, `removed`. */
  readonly how: 'deleted' | 'renamed' | 'removed'
}

/** What a checked reference rests on besides its status; each left out is null. */
export interface Basis {
  readonly restsOn?: string | null
  readonly namedPath?: string | null
  readonly reason?: string | null
  readonly movedTo?: string | null
}

/** A checkable reference with this status, resolved to the absolute `resolved` (or nothing). */
export function checked(
  ref: Reference,
  status: ReferenceStatus,
  resolved: string | null,
  basis: Basis = {},
): CheckedReference {
  const audit: AuditReference = {
    text: ref.text,
    kind: ref.kind,
    status,
    resolved,
    movedTo: basis.movedTo ?? null,
  }
  return {
    ref,
    audit,
    checkable: true,
    restsOn: basis.restsOn ?? null,
    namedPath: basis.namedPath ?? null,
    reason: basis.reason ?? null,
  }
}
