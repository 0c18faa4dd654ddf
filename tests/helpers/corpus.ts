/**
 * Where the shared corpus of real files lives: `shared/corpus` beside the repository (CI lays it
 * there too; MEMORY_CURATOR_CORPUS points elsewhere). A fresh clone has no such folder, so every
 * test that reads it skips with CORPUS_SKIP_REASON; the same rules are covered by the project's
 * own fixtures (FIXTURES_ROOT, tests/unit/own-fixtures-*.test.ts).
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const CORPUS_ROOT =
  process.env.MEMORY_CURATOR_CORPUS ??
  fileURLToPath(new URL('../../../shared/corpus', import.meta.url))

/** The corpus counts as present when its index of origins is there (a bare folder is not enough). */
export const HAS_CORPUS = existsSync(`${CORPUS_ROOT}/ORIGIN.md`)

export const CORPUS_SKIP_REASON =
  'the shared corpus is not beside this clone (../shared/corpus); the same rules are covered by tests/fixtures/ in tests/unit/own-fixtures-*.test.ts'

/** The project's own fixtures (tests/fixtures/README.md says what each one shows). */
export const FIXTURES_ROOT = fileURLToPath(new URL('../fixtures', import.meta.url))

/** Call first in a test that reads the corpus: without it the test is skipped, with the reason. */
export function needsCorpus(ctx: { skip: (note?: string) => void }): void {
  if (!HAS_CORPUS) ctx.skip(CORPUS_SKIP_REASON)
}
