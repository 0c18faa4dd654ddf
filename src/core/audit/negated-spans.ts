/**
 * Code spans a note mentions only to say they are absent or not to be used (references.ts): what
 * the note says is not there, or must not be, is not something it rests on (issue 12 item 2).
 */
import { spanMarker, type CodeSpan } from './code-spans'

/**
 * Words that negate a mention: "no \`repositories/\` layer", "without \`x.ts\`", "not from
 * \`spec/**\`" (blind set CM nm-r04).
 */
export const NEGATED_BEFORE_RE =
  /(?:\b(?:no|not|without|never|nor|instead of|rather than|removed|deleted|deprecated|former)|n't)\s+(?:(?:from|in|under|inside|into|via|through)\s+)?(?:(?:a|an|the|any|separate|single|dedicated)\s+)?$/i
/**
 * Words after a mention that say it is gone or absent: "`AutoDisposeNotifier<T>` is NOT
 * available", "`x.ts` was removed", "`y` no longer exists". What the note says is not there is
 * not something it rests on, as with a negation before it.
 */
const NEGATED_AFTER_RE =
  /^\s*(?:(?:is|are|was|were|has been|have been)\s+(?:not|never|no longer|removed|deleted|gone|deprecated)\b|(?:does|do|did)\s+not\s+exist\b|(?:doesn't|don't|didn't)\s+exist\b|no longer\s+exists?\b|(?:isn't|aren't|wasn't|weren't)\b)/i
/**
 * A prohibition: "do not introduce modal \`Dialog<>\`, \`Alert\`, \`TextInputDialog\`" (blind set
 * DH ts-t06: a rule that holds whether or not the code still has them, read as stale when the last
 * `TextInputDialog` went). It carries through the list that follows it.
 */
const PROHIBITED_BEFORE_RE =
  /(?:\b(?:do\s+not|never|avoid)|\bdon't)\s+(?:use|using|introduce|introducing|add|adding|create|import|call|reintroduce|bring\s+back)\s+(?:(?:a|an|the|any|new|another)\s+)?(?:[A-Za-z-]+\s+)?$/i
/**
 * A former name: "route: \`/settings\` (was \`/foundry\`, \`/tools\`)", "formerly \`x.ts\`",
 * "renamed from \`old\`" (blind set DO qt-t05: a retired route read as gone since). What a note
 * says was, and is no longer, is not something it rests on. It carries through its list.
 */
const FORMER_BEFORE_RE =
  /(?:\(\s*(?:was|were|formerly|previously|prev\.|old:)|\b(?:formerly|previously|renamed\s+from|moved\s+from|replaces|replacing|superseded|successor\s+(?:of|to))|\b(?:was|were)\s+(?:called|named))\s*:?\s*$/i
/** What may stand between two items of a list: `e.g. \`a\`, \`b\` or \`c\``. */
export const LIST_GAP_RE = /^\s*(?:,|\/)?\s*(?:(?:or|and)\s+)?$/

/** A test of each span in text order (spans of one source, each once) for a negated mention. */
export function negationMarker(): (source: string, span: CodeSpan) => boolean {
  const prohibited = spanMarker(PROHIBITED_BEFORE_RE, LIST_GAP_RE, 40)
  const former = spanMarker(FORMER_BEFORE_RE, LIST_GAP_RE, 40)
  return (source, span) =>
    // Each list's marker is asked of every span, so its list is followed.
    [prohibited(source, span), former(source, span)].includes(true) ||
    NEGATED_BEFORE_RE.test(source.slice(Math.max(0, span.start - 40), span.start)) ||
    NEGATED_AFTER_RE.test(source.slice(span.end, span.end + 40))
}
