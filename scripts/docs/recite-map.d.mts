/** Types of recite-map.mjs, for tests/unit/docs. */
export const MEMORY_PARTS: readonly { chapter: string; name: string; section: string }[]
export const CLI_SECTIONS: Readonly<Record<string, string>>
export const STACK_SECTIONS: readonly { words: RegExp; section: string }[]
export const CHAPTER_WORDS: Readonly<Record<string, readonly { words: RegExp; section: string }[]>>
export function reciteComment(comment: string): string
