#!/usr/bin/env node
// The minimal-I/O process for `cutoff <MEMORY.md>` (issue 16): read the file and list its folder
// and sub-folders (for orphan topic files), nothing parsed. Usage: node cutoff.mjs <MEMORY.md>. Prints the counts.
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

const file = process.argv[2]
const text = await readFile(file)
let entries = 0
async function walk(dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    entries++
    if (e.isDirectory() && !e.name.startsWith('.')) await walk(join(dir, e.name))
  }
}
await walk(dirname(file))
process.stdout.write(`${JSON.stringify({ bytes: text.length, entries })}\n`)
