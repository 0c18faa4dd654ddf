/**
 * Every limit the agents apply, in one place. Each constant names the rule in
 * `docs/memory-rules.md` it comes from; no other module writes these numbers.
 */

/** MEMORY.md: lines loaded at session start (docs/memory-rules.md §2.2 step 2). */
export const MEMORY_MAX_LINES = 200
/** MEMORY.md: characters loaded, counted as UTF-16 code units (docs/memory-rules.md §2.2 step 3). */
export const MEMORY_MAX_CHARS = 25_000
/** Instruction files: advised maximum lines per file (docs/memory-rules.md §3.11 "Size"). */
export const INSTRUCTION_ADVISED_MAX_LINES = 200
/** Instruction files: files over this many characters are flagged (docs/memory-rules.md §3.11 "Size"). */
export const INSTRUCTION_FLAG_CHARS = 40_000
/** Instruction files: files over this many bytes are skipped (docs/memory-rules.md §3.11 "Size"). */
export const INSTRUCTION_SKIP_BYTES = 4 * 1024 * 1024
/** `@path` imports: hops followed from the importing file (docs/memory-rules.md §3.4 "Imports"). */
export const IMPORT_MAX_HOPS = 4
/** Codex `project_doc_max_bytes` default, shared by the whole chain (docs/memory-rules.md §4.4). */
export const CODEX_PROJECT_DOC_MAX_BYTES = 32 * 1024
/** Codex default root markers (docs/memory-rules.md §4.2). */
export const CODEX_ROOT_MARKERS: readonly string[] = ['.git']
/** Project folder names longer than this are cut and hashed (docs/memory-rules.md §1.3). */
export const PROJECT_DIR_NAME_MAX = 200

/** Our own safety limits (not agent rules): how much we read of one file before giving up on it. */
export const READ_MAX_BYTES = 8 * 1024 * 1024
/** Bytes of a transcript head we stream when looking for its `cwd` (never the whole file). */
export const TRANSCRIPT_HEAD_MAX_BYTES = 256 * 1024
/** Lines of a transcript head we look at when looking for its `cwd`. */
export const TRANSCRIPT_HEAD_MAX_LINES = 50
/** Frontmatter: the largest block we parse, and the alias count YAML may expand. */
export const FRONTMATTER_MAX_CHARS = 64 * 1024
export const FRONTMATTER_MAX_ALIASES = 50
/** Deepest YAML nesting handed to the parser (its recursion must stay far from the stack limit). */
export const FRONTMATTER_MAX_DEPTH = 64

/** Our own caps on work per call (not agent rules): each bounds time or memory on hostile trees. */
export const ON_DEMAND_WALK_MAX_DIRS = 2000
export const RULES_LIST_MAX_FILES = 1000
export const BRACE_EXPANSION_MAX = 256
export const TOPIC_SCAN_MAX_DEPTH = 16
export const TOPIC_SCAN_MAX_FILES = 10_000
export const SCAN_PROJECT_CONCURRENCY = 8
export const SCAN_FILE_CONCURRENCY = 16
/** Transcripts: read chunk, longest line we parse, head hashed to detect a rewritten file, largest index. */
export const TRANSCRIPT_CHUNK_BYTES = 1024 * 1024
export const TRANSCRIPT_LINE_MAX_BYTES = 8 * 1024 * 1024
export const TRANSCRIPT_INDEX_HEAD_BYTES = 4096
export const TRANSCRIPT_INDEX_MAX_BYTES = 512 * 1024 * 1024
/** Characters of one note checked for references; a longer note (a pasted log, a 7 MB line) is checked in part, and says so. */
export const NOTE_CHECK_MAX_CHARS = 256 * 1024
/**
 * Replay (provenance): the longest text a replayed write may produce, checked before it is
 * built. A 4 KB MultiEdit of 40 `replace_all` x→xx edits doubles the text 40 times; building
 * it exceeded V8's string limit and killed the process (issue 11, item 8). No file we can read
 * (READ_MAX_BYTES) is longer than this.
 */
export const REPLAY_MAX_CHARS = READ_MAX_BYTES
/** Replay: the most lines one step's line diff compares, and the most edits the diff may find before it falls back to matching lines by text (both keep one step's work bounded). */
export const REPLAY_DIFF_MAX_LINES = 50_000
export const REPLAY_DIFF_MAX_EDITS = 2_000
/**
 * Paths from note text that we ask git about: longer, or with more components, than any path
 * a file system holds (PATH_MAX 4096) is reported and never sent — an 80 KB `a/a/a…` path
 * kept `git check-ignore` busy for 38 s (issue 11, item 8).
 */
export const GIT_PATH_MAX_CHARS = 4096
export const GIT_PATH_MAX_COMPONENTS = 256
/**
 * The excerpt of the session that wrote a note (issue 12 item 9): the turns before the write,
 * from the last EXCERPT_MAX_TURNS things the person said, each item cut to EXCERPT_ITEM_MAX_CHARS
 * and the whole to EXCERPT_MAX_CHARS (newest kept). Transcript lines longer than
 * EXCERPT_LINE_MAX_BYTES (a pasted log, a huge tool result) are skipped, and said to be.
 */
export const EXCERPT_MAX_TURNS = 3
export const EXCERPT_ITEM_MAX_CHARS = 2_000
export const EXCERPT_MAX_CHARS = 12_000
export const EXCERPT_RING_MAX_ITEMS = 200
export const EXCERPT_LINE_MAX_BYTES = 4 * 1024 * 1024
/**
 * The evidence archive (issue 12 item 10; docs/memory-rules.md §1.7): at most
 * EVIDENCE_MAX_WRITES_PER_NOTE writes shown per note, each archived entry at most
 * EVIDENCE_ENTRY_MAX_BYTES, the whole archive at most EVIDENCE_ARCHIVE_MAX_BYTES (new entries are
 * refused, never old ones dropped: once the transcript is gone an entry cannot be rebuilt).
 */
export const EVIDENCE_MAX_WRITES_PER_NOTE = 3
export const EVIDENCE_ENTRY_MAX_BYTES = 64 * 1024
export const EVIDENCE_ARCHIVE_MAX_BYTES = 64 * 1024 * 1024
export const EVIDENCE_LINES_MAX_CHARS = 8_000
