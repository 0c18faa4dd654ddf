/** Types of citations.mjs, for tests/unit/docs. */
export interface Prose {
  readonly pos: number
  readonly end: number
  readonly text: string
}
export interface CitationProblem {
  readonly kind: 'outside' | 'docs'
  readonly file: string
  readonly line: number
  readonly problem: string
}
export const CODE_DIRS: readonly string[]
export const CODE_EXTENSIONS: ReadonlySet<string>
export const OUTSIDE_DOCUMENTS: readonly { readonly what: string; readonly re: RegExp }[]
export function codeFiles(root: string): string[]
export function markdownFiles(root: string): string[]
export function proseRanges(fileName: string, text: string): Prose[]
export function lineOf(text: string, offset: number): number
export function outsideCitations(text: string): { index: number; match: string; what: string }[]
export function docsCitations(
  text: string,
): { index: number; match: string; page: string; sections: string[] }[]
export function anchorsOf(markdown: string): Set<string>
export function citationProblems(root: string): CitationProblem[]
export function formatProblem(p: CitationProblem): string
