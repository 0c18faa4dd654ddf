/**
 * Quoted blocks that declare types (`public class ChallengerCommandService implements …`). When
 * none of the types a block declares was in the code at the note's commit, the block shows a
 * style with made-up classes: an example, not this repository's code (issue 12 item 1; blind set
 * CQ um-r05 to um-r07, a Java service example whose `getUserId()` call, since gone from the
 * code, was read as a claim). The names only such a block uses are then not checked
 * (src/node/audit/prose-then.ts), and its quote is "not a reference" (judge-notes.ts).
 *
 * Only type declarations count: a block that declares a function or a constant may well be a
 * piece of a real file, and one that declares nothing says nothing about being an example.
 */
import { cutFences } from './note-fences'

const DECLARATION_RE =
  /^[ \t]*(?:@\w+(?:\([^)\n]*\))?[ \t]+)*(?:(?:public|private|protected|internal|export|default|abstract|final|sealed|data|open|static|pub(?:\([^)\n]*\))?|declare)[ \t]+)*(?:class|interface|record|enum|struct|trait|object|protocol)[ \t]+([A-Z][A-Za-z0-9_]*)/gm
const WORD_RE = /(?<![\w$])[A-Za-z_$][\w$]*/g

export interface DeclaringBlock {
  /** The block's code as its quote has it (Reference `snippet` code). */
  readonly code: string
  /** The types it declares, in order, without repeats. */
  readonly types: readonly string[]
  /** Its identifier words. */
  readonly words: ReadonlySet<string>
}

export interface DeclaringBlocks {
  readonly blocks: readonly DeclaringBlock[]
  /** The words of the rest of the note: its prose and its blocks that declare no type. */
  readonly elsewhere: ReadonlySet<string>
}

/** The note's quoted blocks that declare types, and the words it gives outside them. */
export function declaringBlocks(text: string): DeclaringBlocks {
  const { prose, fences } = cutFences(text)
  const blocks: DeclaringBlock[] = []
  const elsewhere = new Set(prose.match(WORD_RE) ?? [])
  for (const f of fences) {
    const types = [...new Set([...f.code.matchAll(DECLARATION_RE)].map((m) => m[1]))]
    const words = f.code.match(WORD_RE) ?? []
    if (types.length === 0) for (const w of words) elsewhere.add(w)
    else blocks.push({ code: f.code.replace(/\r?\n$/, ''), types, words: new Set(words) })
  }
  return { blocks, elsewhere }
}

/**
 * Whether a name comes only from example blocks (`examples`, those of `all` whose types the
 * code did not have then): no prose, no other block gives it.
 */
export function onlyInExamples(
  name: string,
  all: DeclaringBlocks,
  examples: readonly DeclaringBlock[],
): boolean {
  if (all.elsewhere.has(name)) return false
  const inExample = examples.some((b) => b.words.has(name))
  return inExample && all.blocks.every((b) => examples.includes(b) || !b.words.has(name))
}
