/** Limits shown beside the gauges, re-exported so the UI never imports src/core. */
export {
  MEMORY_MAX_CHARS,
  MEMORY_MAX_LINES,
  CODEX_PROJECT_DOC_MAX_BYTES,
  INSTRUCTION_ADVISED_MAX_LINES,
  INSTRUCTION_FLAG_CHARS,
} from '../core/limits'
