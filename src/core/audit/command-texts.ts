/**
 * Names a note gives that the code declares as text: a console command's namespaced name
 * (`app:import-books`), an HTTP route's tail (`POST /accounts/:id/adjust-balance`), a
 * workspace package a command builds (`cargo build -p rustapi-http`). Each is checked like a
 * back-ticked route (routeSpans; src/node/audit/prose-candidates.ts): held by a code line when
 * the note was written and by none now, it is gone. Pure.
 */
import { findCodeSpans } from './code-spans'
import { cutFences } from './note-fences'
import { negationMarker } from './negated-spans'

/** `app:import-books`, `cache:clear`, `db:seed-demo`: a console command's namespaced name. */
const COMMAND_NAME_RE = /^[a-z][a-z0-9_-]*(?::[a-z][a-z0-9_-]*)+$/
/** Schemes and specifiers that share the shape (`node:fs`, `mailto:x`) and name no command. */
const NOT_COMMAND_RE = /^(?:node|npm|jsr|bun|deno|file|data|mailto|tel|git|ssh|https?|ws|wss):/

/**
 * The namespaced command names a note back-ticks (`app:import-books`, a Symfony, Laravel or
 * Rake console command): text the command's own code holds (`#[AsCommand(name:
 * 'app:import-books')]`), checked as such (src/node/audit/prose-candidates.ts). Held by a code
 * line when the note was written and by none now, the command is gone (blind set AB: two
 * import commands replaced by one).
 */
export function commandNameSpans(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const s of findCodeSpans(prose)) {
    const t = prose.slice(s.contentStart, s.contentEnd).trim()
    if (t.length >= 5 && COMMAND_NAME_RE.test(t) && !NOT_COMMAND_RE.test(t) && !out.includes(t))
      out.push(t)
  }
  return out
}

/**
 * `ai-realm-save`, `agent-run-started`: three or more lower-case words joined by hyphens; or two
 * in a longer key (`session-artifacts`, a feature flag, blind set AL), not a short class or
 * option (`h-screen`, `dry-run`).
 */
const KEY_RE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}$/
const PAIR_KEY_RE = /^[a-z][a-z0-9]{2,}-[a-z0-9]{3,}$/
const PAIR_KEY_MIN = 12

/**
 * The back-ticked keys a note gives (`persisted to localStorage as \`ai-realm-save\``, an event,
 * a queue, a cache key): text only the code that uses the key holds, checked as such
 * (src/node/audit/prose-candidates.ts). Held by a code line when the note was written and by
 * none now, the key changed (blind set AH: a store's persist key renamed). A key no code held
 * then says nothing.
 */
export function keySpans(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  for (const s of findCodeSpans(prose)) {
    const t = prose.slice(s.contentStart, s.contentEnd).trim()
    const key =
      (t.length >= 8 && KEY_RE.test(t)) || (t.length >= PAIR_KEY_MIN && PAIR_KEY_RE.test(t))
    if (key && !out.includes(t)) out.push(t)
  }
  return out
}

/** `POST /accounts/:id/adjust-balance`: an HTTP method and the route it is sent to. */
const HTTP_ROUTE_RE =
  /\b(?:GET|POST|PUT|PATCH|DELETE)[ \t]+`?(\/[\w-]+(?:\/(?:[\w-]+|:\w+|\{\w+\}|\[[\w.]+\]|<\w+>))*)/g
/** A route's parameter segment. */
const PARAM_SEGMENT_RE = /^(?::\w+|\{\w+\}|\[[\w.]+\]|<\w+>)$/

/**
 * The routes a note gives with their HTTP method, as the text the router's code holds: the
 * segments after the last parameter (`adjust-balance` of `/accounts/:id/adjust-balance`, which a
 * controller declares as `@Post(':id/adjust-balance')` under its own prefix), or the whole
 * route when it has none. Checked like a back-ticked route (routeSpans): held by a code line
 * when the note was written and by none now, the endpoint is gone (blind set AB te-t01).
 */
export function httpRoutes(text: string): { readonly written: string; readonly tail: string }[] {
  const out: { written: string; tail: string }[] = []
  for (const m of cutFences(text).prose.matchAll(HTTP_ROUTE_RE)) {
    const segments = m[1].slice(1).split('/')
    const last = segments.findLastIndex((s) => PARAM_SEGMENT_RE.test(s))
    const tail = last < 0 ? m[1] : segments.slice(last + 1).join('/')
    if (tail.length >= 4 && !out.some((r) => r.tail === tail))
      out.push({ written: m[0].replace('`', ''), tail })
  }
  return out
}

/** `cargo build -p rustapi-http`, `cargo run --bin rustapi`: a crate or binary of the workspace. */
const CARGO_NAME_RE = /\bcargo\b[^\n`|;&]*?[ \t](?:-p|--package|--bin)[ \t=]([A-Za-z_][\w-]*)/g
/** `pnpm --filter @app/web dev`, `npm run build -w api`: a package of the workspace. */
const WORKSPACE_NAME_RE =
  /\b(?:pnpm|yarn|npm)\b[^\n`|;&]*?[ \t](?:--filter|-F|-w|--workspace)[ \t=]["']?(@?[A-Za-z_][\w.-]*(?:\/[\w.-]+)?)(?=["'\s`]|$)/gm

/**
 * The workspace's own packages a note's commands name (`-p rustapi-http`, `--filter @app/web`):
 * text the package's manifest holds (`name = "rustapi-http"`), checked like a back-ticked route
 * (src/node/audit/prose-candidates.ts). Held by a code line when the note was written and by
 * none now, the package was renamed or removed and the command fails (blind set AD: crates
 * renamed with the project, `cargo build -p rustapi-http` left in the notes).
 */
export function workspaceNames(text: string): string[] {
  const out: string[] = []
  for (const re of [CARGO_NAME_RE, WORKSPACE_NAME_RE])
    for (const m of text.matchAll(re)) if (!out.includes(m[1])) out.push(m[1])
  return out
}

/** Every name of this module's kinds a note gives: commands, keys, workspace packages. */
export const declaredTexts = (text: string): string[] => [
  ...commandNameSpans(text),
  ...keySpans(text),
  ...workspaceNames(text),
]

/** `/home`, `/admin/ventas`, `/users/:id`: a route, a path the app serves. */
const ROUTE_RE = /^\/[a-z][\w-]*(?:\/(?:[\w-]+|:[\w]+|\[[\w.]+\]))*\/?$/

/**
 * The routes a note back-ticks ("`/home` → EmployeeHomeView") but gone or former ones ("(was
 * `/foundry`)", set DO qt-t05): text the router's code holds (prose-candidates.ts). Held then
 * and by no code line now, the route is gone (blind set Z2: a home route the app dropped).
 */
export function routeSpans(text: string): string[] {
  const { prose } = cutFences(text)
  const out: string[] = []
  const add = (t: string): void => {
    if (ROUTE_RE.test(t) && t.length >= 4 && !out.includes(t)) out.push(t)
  }
  const negated = negationMarker()
  for (const s of findCodeSpans(prose))
    if (!negated(prose, s)) add(prose.slice(s.contentStart, s.contentEnd).trim().replace(/\/$/, ''))
  // A local server's URL, in prose or a command (`curl http://localhost:5050/jsonrpc`), names a
  // route this repository serves (blind set AP: an HTTP transport removed, its curl examples kept).
  for (const m of text.matchAll(LOCAL_URL_RE)) {
    const path = m[1]
      .replace(/[?#].*$/, '')
      .replace(/[.,;:!]+$/, '')
      .replace(/\/$/, '')
    if (!/[{}<>$%*]/.test(path)) add(path)
  }
  return out
}

/** `http://localhost:5050/jsonrpc`, `http://127.0.0.1:8000/api/v1/items`: the path part. */
const LOCAL_URL_RE =
  /\bhttps?:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::\d{2,5})?(\/[^\s'"`)\]]*)/g
