/**
 * The versions the crash child writes, computable by the test too: version k starts with
 * `v<k>` and has a size that varies with k, so a torn or mixed file can never pass as one.
 */
export function versionText(k: number, baseSize: number): string {
  const size = baseSize + ((k * 7919) % baseSize)
  const head = `v${k}\n`
  const line = `- [Note ${k}](note-${k}.md) — version ${k} of the crash test\n`
  return head + line.repeat(Math.ceil((size - head.length) / line.length))
}

/** The k of a file's text (its first line `v<k>`), or null. */
export function versionOf(text: string): number | null {
  const m = /^v(\d+)\n/.exec(text)
  return m === null ? null : Number(m[1])
}
