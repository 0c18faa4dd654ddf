/** Where the shared corpus of real files lives: `shared/corpus` beside the repository (CI lays it there too). */
import { fileURLToPath } from 'node:url'

export const CORPUS_ROOT = process.env.MEMORY_CURATOR_CORPUS ?? fileURLToPath(new URL('../../../shared/corpus', import.meta.url))
