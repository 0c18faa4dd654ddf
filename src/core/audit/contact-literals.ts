/**
 * The contact details a note gives as the site's or the app's (`Phone number: 865-346-3339
 * everywhere`, `support@acme.io`): literal text the code holds, checked as it held it when the note
 * was written and holds it now (src/node/audit/prose-candidates.ts). Held then and by no code
 * now, the detail changed (blind set BF: a marketing site's phone number replaced in every page).
 * A number or address the code never held (an example, a person's) says nothing. Pure.
 */
import { cutFences } from './note-fences'
import { findCodeSpans } from './code-spans'

/** `865-346-3339`, `(865) 346-3339`, `+1 865 346 3339`, `+44 20 7946 0958` is not one (its parts). */
const PHONE_RE =
  /(?<![\w.+/-])(?:\+\d{1,3}[ .-])?(?:\(\d{3}\)[ ]?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\w-]|\.\d)/g
const EMAIL_RE =
  /(?<![\w.%+-])[A-Za-z0-9][\w.%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g
/** Domains kept for examples (RFC 2606): a template's, never the app's. */
const EXAMPLE_RE =
  /@(?:[\w-]+\.)*example\.(?:com|org|net)$|@[\w-]+\.(?:test|example|invalid|localhost)$/i

/**
 * A back-ticked service address (`Loki:3100`, `ollama:11434`): a host the code reaches by name
 * and its port, which a compose file or a client's default URL holds (`http://loki:3100`), host
 * names in lower case. Held then and by no code now, the service went or moved (blind set EH
 * ch-t01, ch-t02: Loki and Ollama dropped from the stack). A local address is a port claim
 * (stated-values.ts `localPorts`), not a service's.
 */
const SERVICE_RE = /^([A-Za-z][\w-]*[A-Za-z0-9]):(\d{2,5})$/
const LOCAL_HOST_RE = /^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|host|hostname|port|http|https)$/i

export function contactLiterals(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const re of [PHONE_RE, EMAIL_RE])
    for (const m of prose.matchAll(re))
      if (!out.includes(m[0]) && !EXAMPLE_RE.test(m[0])) out.push(m[0])
  for (const s of findCodeSpans(prose)) {
    const m = SERVICE_RE.exec(prose.slice(s.contentStart, s.contentEnd).trim())
    const address = m ? `${m[1].toLowerCase()}:${m[2]}` : null
    if (m && address && !LOCAL_HOST_RE.test(m[1]) && !out.includes(address)) out.push(address)
  }
  return out
}
