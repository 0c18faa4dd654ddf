/**
 * Preload (`node --import`) for tests that start `serve` with a hostile `--host`: it records
 * every listen and every resolver lookup to $BIND_GUARD_LOG (one JSON line each) and ends the
 * process (exit 97) before a socket binds to anything but a loopback literal or `localhost`,
 * so a test run against a build without the refusal still never opens a port to the network.
 */
import dns from 'node:dns'
import { appendFileSync } from 'node:fs'
import net from 'node:net'

const log = process.env.BIND_GUARD_LOG
const record = (entry) => {
  if (log) appendFileSync(log, `${JSON.stringify(entry)}\n`)
}
// Deliberately simpler than the app's rule: an independent oracle, not a copy of it.
const loopback = (host) =>
  typeof host === 'string' &&
  (/^127(\.\d{1,3}){3}$/.test(host) || host === '::1' || host === 'localhost')

const listen = net.Server.prototype.listen
net.Server.prototype.listen = function guardedListen(...args) {
  const [first] = args
  const options = typeof first === 'object' && first !== null ? first : null
  const pipe = options
    ? typeof options.path === 'string'
    : typeof first === 'string' && !/^\d+$/.test(first)
  if (!pipe) {
    // No host at all binds every interface; that counts as non-loopback.
    const host = options ? options.host : typeof args[1] === 'string' ? args[1] : undefined
    record({ listen: host ?? null })
    if (!loopback(host)) {
      process.stderr.write(`bind-guard: refused to bind ${host ?? '(all interfaces)'}\n`)
      process.exit(97)
    }
  }
  return listen.apply(this, args)
}

const lookup = dns.lookup
dns.lookup = function recordedLookup(hostname, ...rest) {
  record({ lookup: hostname })
  return lookup.call(this, hostname, ...rest)
}
