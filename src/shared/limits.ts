/** The limits the window shows beside its gauges, re-exported so the UI never imports src/core itself. */
export { MEMORY_MAX_CHARS, MEMORY_MAX_LINES, CODEX_PROJECT_DOC_MAX_BYTES, INSTRUCTION_ADVISED_MAX_LINES, INSTRUCTION_FLAG_CHARS } from '../core/limits'
export type * from '../core/model'
