/**
 * What reached the model, read from a recorded request of the stand-in server (pure, so a
 * unit test can feed it a synthetic request). The fixture files carry markers of our own.
 */

/** Every string of a JSON value, in document order. */
export function strings(value, out = []) {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const v of value) strings(v, out)
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out)
  return out
}

/** The Claude main-loop requests (those that offer tools), in order. */
export function claudeMainRequests(requests) {
  return requests.filter(
    (r) =>
      r.method === 'POST' &&
      /\/messages(\?|$)/.test(r.url) &&
      r.body &&
      Array.isArray(r.body.tools) &&
      r.body.tools.length > 0,
  )
}

/** The Codex model requests, in order. */
export function codexRequests(requests) {
  return requests.filter((r) => r.method === 'POST' && /\/responses(\?|$)/.test(r.url) && r.body)
}

// At start `Contents of <path> (<kind>):`, on demand `Contents of <path>:`, then a blank line.
const CONTENTS_OF = /Contents of (\/[^\n]*?)(?: \([^\n]*\))?:\n\n/g

/** Instruction files Claude sent, in order of their `Contents of` sections. */
export function claudeFilesSent(body) {
  const out = []
  for (const s of strings(body)) {
    for (const m of s.matchAll(CONTENTS_OF)) if (!out.includes(m[1])) out.push(m[1])
  }
  return out
}

/** The paragraph Claude Code appends when it cuts MEMORY.md (it quotes the first line left out). */
const CUT_NOTICE = /^> WARNING: MEMORY\.md [^\n]*$/gm

/** MEMORY.md lines that reached the model: the numbers of the `MEMLINE-<n>` markers seen. */
export function memoryLinesSent(body) {
  const seen = new Set()
  for (const s of strings(body)) {
    for (const m of s.replace(CUT_NOTICE, '').matchAll(/MEMLINE-(\d+)\b/g)) seen.add(Number(m[1]))
  }
  return [...seen].sort((a, b) => a - b)
}

/** The line the cut notice says loading stopped at, or null when there is no notice. */
export function memoryCutLine(body) {
  for (const s of strings(body)) {
    for (const m of s.matchAll(CUT_NOTICE)) {
      const at = /starting at line (\d+)/.exec(m[0])
      if (at) return Number(at[1])
    }
  }
  return null
}

/** UTF-8 length of a string. */
const utf8 = (s) => Buffer.byteLength(s, 'utf8')

/**
 * How much of each Codex file reached the model. `files` maps a name to the file's text,
 * which starts with its own marker. Returns, in the order they appear, the name, the bytes
 * of the file found verbatim, and whether U+FFFD follows where the file's text went on.
 */
export function codexFilesSent(body, files) {
  const text = strings(body).join('\n\u0001\n')
  const found = []
  for (const [name, content] of Object.entries(files)) {
    const marker = content.split('\n')[0]
    const at = text.indexOf(marker)
    if (marker === '' || at < 0) continue
    let n = 0
    while (n < content.length && at + n < text.length && text[at + n] === content[n]) n++
    const brokenChar = n < content.length && text[at + n] === '\uFFFD'
    found.push({ name, at, bytes: utf8(content.slice(0, n)), brokenChar })
  }
  return found
    .sort((a, b) => a.at - b.at)
    .map(({ name, bytes, brokenChar }) => ({ name, bytes, brokenChar }))
}
