/**
 * Result shapes of the window's shell (issue 15): settings and search across memory files.
 * Apart from model.ts (its 400-line limit); same rules: fields may be added, none renamed.
 */
import type { Problem, Verdict } from './model'

/** The colour theme: follow the system, or always light or dark. */
export type ThemeSetting = 'system' | 'light' | 'dark'

/** The window's settings, kept by the back end in its state folder (they survive restarts). */
export interface AppSettings {
  readonly theme: ThemeSetting
}

/** One line of a memory file that matches a search. */
export interface SearchHit {
  /** The project folder's id (the window finds the project in its scan). */
  readonly projectId: string
  readonly memoryDir: string
  readonly file: string
  /** 1-based line of the file. */
  readonly line: number
  /** The line (cut around the match when long). */
  readonly text: string
  /** Where the match is in `text` (UTF-16 units); length 0 when the hit is a verdict alone. */
  readonly matchStart: number
  readonly matchLength: number
  /** The note the line belongs to and its verdict, when an audit of the folder is at hand. */
  readonly noteTitle: string | null
  readonly verdict: Verdict | null
}

/** What a search found, bounded: at most `limit` hits, `truncated` when there were more. */
export interface SearchResult {
  readonly query: string
  readonly hits: readonly SearchHit[]
  readonly truncated: boolean
  readonly filesSearched: number
  /** Memory folders whose verdicts are known (audited since the back end started). */
  readonly foldersWithVerdicts: number
  readonly folders: number
  readonly problems: readonly Problem[]
}
