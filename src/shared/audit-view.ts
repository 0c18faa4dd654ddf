/**
 * Result types of the audit as the window shows it (issue 15 items 3, 4, 7, 9): each note's
 * standing once verifications are applied, the one summary every count shows, and the audit
 * run as a job. Kept beside model.ts (which is at its size limit); part of the same contract.
 */
import type { AuditResult, NoteStampStatus, Verdict } from './model'

/** Why a note needs a person's decision (the review queue holds exactly these). */
export type ReviewReason = 'stale' | 'suspect' | 'never-matched' | 'expired' | 'unverified'

/** A note's standing once verifications are taken into account (core/audit/note-review.ts). */
export interface NoteReview {
  /** A verification that still holds, one that lapsed, or none. */
  readonly verification: 'valid' | 'expired' | 'none'
  readonly verifiedAt: string | null
  /** Why the verification lapsed, in words (empty unless expired). */
  readonly lapsedBecause: readonly string[]
  /**
   * What every count counts: the verdict, or `verified` when a verification that still holds
   * overrides a verdict that asked for a decision (the person said the note is right).
   */
  readonly standing: Verdict | 'verified'
  /** Why the note is in the review queue; null when it needs no decision. */
  readonly needs: ReviewReason | null
}

/** The one summary every count of the window shows (sidebar, Notes tab, review queue). */
export interface AuditSummary {
  readonly total: number
  readonly counts: Readonly<Record<Verdict | 'verified', number>>
  /** Notes that need a decision (the review queue's length). */
  readonly toReview: number
}

/** An audit with its verifications applied: what the Notes and Review queue tabs show. */
export interface AuditView {
  readonly audit: AuditResult
  readonly stamps: readonly NoteStampStatus[]
  /** One per note of `audit.notes`, in the same order. */
  readonly reviews: readonly NoteReview[]
  readonly summary: AuditSummary
  /** The state of the memory folder and repository this view was computed from. */
  readonly token: string
}

/** An audit run as a job: its progress (n of N notes), its result, or how it ended. */
export type AuditJobStatus =
  | { readonly state: 'running'; readonly done: number; readonly total: number }
  | { readonly state: 'done'; readonly view: AuditView }
  | { readonly state: 'failed'; readonly message: string }
  | { readonly state: 'cancelled' }
