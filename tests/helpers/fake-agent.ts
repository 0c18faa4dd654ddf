/**
 * Test helper: a recording stand-in for an installed `claude`, for "Check with the installed
 * agent" (issue 13 item 4) in unit and e2e tests.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A stand-in `claude` that behaves like the agent on the surface we read: it walks up from
 * its cwd, sends each CLAUDE.md and the MEMORY.md of its home to ANTHROPIC_BASE_URL as
 * `Contents of` sections — but skips rule files, so the check must show that difference —
 * and records the environment and cwd it was given, and the memory files of its home.
 */
export function fakeClaude(dir: string, record: string): void {
  mkdirSync(dir, { recursive: true })
  const script = `#!${process.execPath}
const fs = require('node:fs'), path = require('node:path'), http = require('node:http')
if (process.argv[2] === '--version') { console.log('9.9.9 (Stand-in)'); process.exit(0) }
const projects = path.join(process.env.CLAUDE_CONFIG_DIR, 'projects')
const memoryFiles = []
for (const p of fs.existsSync(projects) ? fs.readdirSync(projects) : []) {
  const dir = path.join(projects, p, 'memory')
  if (fs.existsSync(dir)) for (const f of fs.readdirSync(dir, { recursive: true })) if (fs.statSync(path.join(dir, f)).isFile()) memoryFiles.push(f.split(path.sep).join('/'))
}
fs.writeFileSync(${JSON.stringify(record)}, JSON.stringify({ env: process.env, cwd: process.cwd(), memoryFiles: memoryFiles.sort() }))
const sections = []
let d = process.cwd()
const chain = []
while (true) { chain.unshift(d); const up = path.dirname(d); if (up === d) break; d = up }
const user = path.join(process.env.CLAUDE_CONFIG_DIR, 'CLAUDE.md')
if (fs.existsSync(user)) sections.push('Contents of ' + user + ' (user):\\n\\n' + fs.readFileSync(user, 'utf8'))
for (const dir of chain) {
  const f = path.join(dir, 'CLAUDE.md')
  if (fs.existsSync(f)) sections.push('Contents of ' + f + ' (project):\\n\\n' + fs.readFileSync(f, 'utf8'))
}
for (const p of fs.existsSync(projects) ? fs.readdirSync(projects) : []) {
  const m = path.join(projects, p, 'memory', 'MEMORY.md')
  if (fs.existsSync(m)) sections.push('Contents of ' + m + ' (auto memory):\\n\\n' + fs.readFileSync(m, 'utf8').split('\\n')[0])
}
const body = JSON.stringify({ tools: [{ name: 'Read' }], system: [{ type: 'text', text: sections.join('\\n\\n') }], messages: [] })
const req = http.request(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => { res.resume(); res.on('end', () => process.exit(0)) })
req.end(body)
`
  writeFileSync(join(dir, 'claude'), script)
  chmodSync(join(dir, 'claude'), 0o755)
}
