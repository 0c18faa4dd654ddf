#!/usr/bin/env node
/**
 * Rewrite, in place, the comments and test titles of src/, tests/, scripts/ (and the root config files) that
 * cite documents outside the repository, so they cite our own pages in docs/ instead
 * (mapping: scripts/docs/recite-map.mjs). Prints each changed line, then every citation it
 * could not map and every docs/ citation whose page or section does not exist.
 *
 *   node scripts/docs/recite.mjs            rewrite
 *   node scripts/docs/recite.mjs --dry-run  only print what would change
 *
 * Idempotent: a second run changes nothing. Exit 0 when nothing is left to fix, else 1.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { citationProblems, codeFiles, formatProblem, lineOf, proseRanges } from './citations.mjs'
import { reciteComment } from './recite-map.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const dryRun = process.argv.includes('--dry-run')

/** Rewrite one file's comments; returns the new text and the changed lines. */
export function reciteFile(file, text) {
  const changes = []
  let out = ''
  let last = 0
  for (const c of proseRanges(file, text)) {
    const next = reciteComment(c.text)
    out += text.slice(last, c.pos) + next
    last = c.end
    if (next === c.text) continue
    const before = c.text.split('\n')
    const after = next.split('\n')
    const first = lineOf(text, c.pos)
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      if (before[i] !== after[i])
        changes.push({ line: first + i, before: before[i], after: after[i] })
    }
  }
  return { text: out + text.slice(last), changes }
}

let changedFiles = 0
let changedLines = 0
for (const file of codeFiles(root)) {
  const path = join(root, file)
  const text = readFileSync(path, 'utf8')
  const { text: next, changes } = reciteFile(file, text)
  if (changes.length === 0) continue
  changedFiles++
  changedLines += changes.length
  for (const ch of changes) {
    console.log(`${file}:${ch.line}`)
    console.log(`  - ${(ch.before ?? '').trim()}`)
    console.log(`  + ${(ch.after ?? '').trim()}`)
  }
  if (!dryRun) writeFileSync(path, next)
}
console.log(`${dryRun ? 'would change' : 'changed'} ${changedLines} lines in ${changedFiles} files`)

if (dryRun) process.exit(0)
const left = citationProblems(root)
if (left.length > 0) {
  console.log(`\ncould not map (${left.length}):`)
  for (const p of left) console.log(`  ${formatProblem(p)}`)
  process.exit(1)
}
console.log('no citation of a document outside the repository is left')
