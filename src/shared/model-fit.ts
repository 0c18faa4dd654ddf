/**
 * Result shapes of "Fit under the cutoff" and of a previewed restore (issue 15 items 8 and 2),
 * beside model.ts (which keeps the shapes shared with the CLI). Fields may be added.
 */
import type { EditPlan, FallingLine } from './model'

/** What a change of a fit plan frees room by (docs/memory-rules.md §2, §6.3). */
export type FitCategory = 'blank' | 'heading' | 'duplicate' | 'dangling' | 'judged' | 'long'

/** One change a fit plan offers; the person ticks it or not. */
export interface FitCandidate {
  /** Stable within one version of the file: `category:line`. */
  readonly id: string
  readonly category: FitCategory
  /** Disk lines the change touches (1-based, inclusive). */
  readonly line: number
  readonly endLine: number
  /** What a person reads: the entry's title, the heading, or "blank line". */
  readonly title: string
  /** Why it frees room, in words. */
  readonly detail: string
  /** Whether the touched lines load at session start now. */
  readonly loaded: boolean
  /** Ticked when the person has not chosen yet. */
  readonly defaultOn: boolean
}

/** A category of a fit plan, or why it is left out. */
export interface FitCategoryInfo {
  readonly category: FitCategory
  readonly count: number
  /** False when the category cannot be offered (no audit for judged notes). */
  readonly available: boolean
  /** Why it is left out, or a remark; null when there is none. */
  readonly note: string | null
}

/** An entry that does not load now, and what the plan does with it. */
export interface FitMove {
  readonly line: number
  readonly endLine: number
  readonly title: string
  /**
   * `moved`: chosen and moved above the cut. `no-room`: chosen, but moving it would push a line
   * that loads now below the cut. `loads`: loads after the plan without moving. `removed`: a
   * change of the plan removes it. `stays`: not chosen, still does not load.
   */
  readonly state: 'moved' | 'no-room' | 'loads' | 'removed' | 'stays'
}

/** The load figures of an index, as the cutoff gauges show them. */
export interface FitGauge {
  readonly totalLines: number
  readonly loadedLines: number
  readonly loadedChars: number
  readonly loadedBytes: number
  readonly limitHit: 'lines' | 'chars' | null
  readonly firstUnloadedLine: number | null
  readonly entries: number
  readonly entriesLoaded: number
}

/** What the person chose: candidate ids ticked, and lines of unloaded entries to move up. */
export interface FitChoices {
  readonly chosen: readonly string[]
  readonly move: readonly number[]
}

/** A fit plan: the offers, the choice applied, the figures before and after, and the one edit. */
export interface FitPlan {
  readonly file: string
  readonly candidates: readonly FitCandidate[]
  readonly categories: readonly FitCategoryInfo[]
  /** The choices this plan was computed with (the defaults when none were given). */
  readonly choices: FitChoices
  readonly moves: readonly FitMove[]
  readonly before: FitGauge
  readonly after: FitGauge
  /** The changes to apply (index first, then topic files), as one plan. */
  readonly plan: EditPlan
}

/** Where a lost line would go back, and whether it would load (issue 15 item 2). */
export interface RestorePreview {
  readonly placement: 'in-place' | 'above-cutoff'
  /** The write, as a plan (empty changes with a problem when refused). */
  readonly plan: EditPlan
  /** 1-based line the restored text would occupy, null when refused. */
  readonly line: number | null
  /** How the place was chosen (neighbour text), for the in-place restore. */
  readonly anchor: string | null
  /** True/false for MEMORY.md; null for a topic file (topic files never load at start, §2.1). */
  readonly loads: boolean | null
  /** First line past the cut after the restore (null when all loads or not an index). */
  readonly cutoffLine: number | null
  /** Lines that load now and would not after this restore. */
  readonly falls: readonly FallingLine[]
}
