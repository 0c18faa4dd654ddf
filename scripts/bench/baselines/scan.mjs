#!/usr/bin/env node
// The minimal-I/O process for `scan` (issue 16): list every project folder, its sub-agent and
// memory folders, read every memory file whole and the first 16 KiB of every transcript (the
// first read src/node/transcripts/head.ts makes), 16 files at once as the scan
// (SCAN_FILE_CONCURRENCY); no parsing. Usage: node scan.mjs <claude home>. Prints the counts.
import { open, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

const HEAD = 16 * 1024
const CONCURRENCY = 16
const projects = join(process.argv[2], 'projects')
const memory = []
const heads = []

async function walk(dir, into, ext) {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const e of entries) {
    if (e.isDirectory()) await walk(join(dir, e.name), into, ext)
    else if (e.name.endsWith(ext)) into.push(join(dir, e.name))
  }
}

for (const p of await readdir(projects, { withFileTypes: true })) {
  if (!p.isDirectory()) continue
  const dir = join(projects, p.name)
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name)
    if (e.isDirectory() && e.name === 'memory') await walk(path, memory, '.md')
    else if (e.isDirectory()) await walk(join(path, 'subagents'), heads, '.jsonl')
    else if (e.name.endsWith('.jsonl')) heads.push(path)
  }
}
const all = [...memory, ...heads]
const buf = Buffer.allocUnsafe(HEAD)
let bytes = 0
let next = 0
async function worker() {
  while (next < all.length) {
    const path = all[next++]
    if (path.endsWith('.md')) bytes += (await readFile(path)).length
    else {
      const fh = await open(path, 'r')
      try {
        bytes += (await fh.read(buf, 0, HEAD, 0)).bytesRead
      } finally {
        await fh.close()
      }
    }
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker))
process.stdout.write(`${JSON.stringify({ files: all.length, bytes })}\n`)
