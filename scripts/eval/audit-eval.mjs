#!/usr/bin/env node
// Evaluation of `audit` on real agent-written notes (issue 12; docs/eval-audit.md).
//
//   node scripts/eval/audit-eval.mjs --mirrors DIR [--set tests/fixtures/eval-audit]
//        [--cli out/cli/index.js] [--json] [--only ID[,ID…]] [--keep]
//
// Each label file (tests/fixtures/eval-audit/<owner>+<name>.json) names notes by repository,
// commit, path and line range only; this script rebuilds every note from the repository's git
// mirror, audits it with the built CLI against a later commit, and compares the verdict with the
// label written by hand before the tool ran. Mirrors are hostile input: every git run here goes
// through `git -c core.fsmonitor= -c core.hooksPath=/dev/null` with GIT_CONFIG_NOSYSTEM=1 and an
// empty global config, work trees are made in a temp folder, and the audit runs with a temp
// HOME / Claude home / Codex home (never the real ~/.claude).
//
// Exit 0 when the evaluation ran (the figures are a measurement, not a pass/fail), 2 when no note
// could run or the arguments are wrong.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { initGitEnv, findMirror } from './git.mjs'
import { noteText, committerDate, buildTree, buildHome, runAudit, verdictOf } from './notes.mjs'
import { summarise, textReport, LABELS } from './report.mjs'

const USAGE = `usage: node scripts/eval/audit-eval.mjs --mirrors DIR [--set DIR] [--cli FILE] [--json] [--only ID,…] [--keep]
  --mirrors DIR  folder of git mirrors: DIR/<owner>+<name>/repo (the fetch layout), DIR/<owner>+<name>.git,
                 or DIR/<owner>+<name> (a bare repository or a plain clone)
  --set DIR      label files, one <owner>+<name>.json per repository; may be given more than once
                 (default: tests/fixtures/eval-audit and tests/fixtures/eval-audit-batch2)
  --cli FILE     the built CLI (default out/cli/index.js; run npm run build first)
  --json         print the result as one JSON document
  --only IDS     evaluate only these note ids (comma-separated)
  --keep         keep the temp folder (its path goes to stderr)
`

// ---- arguments ---------------------------------------------------------------------------------

/** The visible set: the first labelled notes, then batch 2 (new repositories, README inside). */
const DEFAULT_SETS = ['tests/fixtures/eval-audit', 'tests/fixtures/eval-audit-batch2']

function parseArgs(argv) {
  const o = {
    mirrors: null,
    sets: [],
    cli: 'out/cli/index.js',
    json: false,
    only: null,
    keep: false,
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) fail(`${a} needs a value`)
      return v
    }
    if (a === '--mirrors') o.mirrors = value()
    else if (a === '--set') o.sets.push(value())
    else if (a === '--cli') o.cli = value()
    else if (a === '--json') o.json = true
    else if (a === '--keep') o.keep = true
    else if (a === '--only')
      o.only = new Set(
        value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
    else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE)
      process.exit(0)
    } else fail(`unknown argument ${a}`)
  }
  if (!o.mirrors) fail('--mirrors DIR is required')
  if (o.sets.length === 0) o.sets.push(...DEFAULT_SETS)
  return o
}

function fail(message) {
  process.stderr.write(`audit-eval: ${message}\n${USAGE}`)
  process.exit(2)
}

// ---- main --------------------------------------------------------------------------------------

function main() {
  const o = parseArgs(process.argv.slice(2))
  const cli = resolve(o.cli)
  if (!existsSync(cli)) fail(`${cli}: no built CLI (run npm run build first)`)
  const files = []
  for (const set of o.sets) {
    const dir = resolve(set)
    try {
      for (const f of readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort())
        files.push(join(dir, f))
    } catch {
      fail(`${dir}: no such folder of label files`)
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), 'audit-eval-'))
  initGitEnv(tmp)
  const rows = []
  const skipped = []
  const warnings = []
  const progress = (m) => {
    if (!o.json) process.stderr.write(`${m}\n`)
  }
  try {
    for (const f of files) {
      let set
      try {
        set = JSON.parse(readFileSync(f, 'utf8'))
      } catch (err) {
        skipped.push(`${f}: not a readable label file (${err.message})`)
        continue
      }
      const notes = (set.notes ?? []).filter((n) => !o.only || o.only.has(n.id))
      if (notes.length === 0) continue
      const gitDir = findMirror(resolve(o.mirrors), set.repo)
      if (!gitDir) {
        skipped.push(`${set.repo}: no mirror under ${o.mirrors} (${notes.length} notes not run)`)
        continue
      }
      // One tree per audited commit; every folder a memory note came from is hidden in it.
      const byAuditAt = new Map()
      for (const n of notes) {
        if (!byAuditAt.has(n.auditAt)) byAuditAt.set(n.auditAt, [])
        byAuditAt.get(n.auditAt).push(n)
      }
      const noteFolders = [
        ...new Set(
          set.notes
            .filter((n) => n.kind.startsWith('memory-'))
            .map((n) => dirname(n.source.path))
            .filter((d) => d !== '.'),
        ),
      ]
      const sources = new Set(set.notes.map((n) => n.source.path))
      for (const [auditAt, group] of byAuditAt) {
        const treeRoot = mkdtempSync(join(tmp, 'tree-'))
        const tree = join(treeRoot, set.repo.split('/')[1])
        try {
          buildTree(gitDir, auditAt, noteFolders, tree, sources)
        } catch (err) {
          for (const n of group)
            rows.push(
              errorRow(
                set.repo,
                n,
                `cannot build the tree at ${auditAt.slice(0, 10)}: ${err.message}`,
              ),
            )
          continue
        }
        for (const n of group) {
          progress(`audit-eval: ${set.repo} ${n.id}`)
          try {
            const text = noteText(gitDir, n)
            const writtenAt = committerDate(gitDir, n.source.commit)
            const noteRoot = mkdtempSync(join(tmp, 'note-'))
            const h = buildHome(noteRoot, tree, n, text, writtenAt)
            const { result, ms } = runAudit(cli, h, tree, join(noteRoot, 'state'))
            const v = verdictOf(result)
            if (
              v.writtenAt === null ||
              Math.abs(Date.parse(v.writtenAt) - Date.parse(writtenAt)) > 2000
            ) {
              warnings.push(
                `${n.id}: the audit took writtenAt ${v.writtenAt} (${v.source}) instead of the note commit's ${writtenAt}`,
              )
            }
            rows.push({
              repo: set.repo,
              id: n.id,
              kind: n.kind,
              label: n.label,
              verdict: v.verdict,
              toolReason: v.reason,
              toolReasons: v.reasons,
              failingRefs: v.refs,
              reason: n.reason,
              writtenAt: v.writtenAt,
              writtenAtSource: v.source,
              auditNotes: v.count,
              ms,
            })
            if (!o.keep) rmSync(noteRoot, { recursive: true, force: true })
          } catch (err) {
            rows.push(errorRow(set.repo, n, err.message))
          }
        }
        if (!o.keep) rmSync(treeRoot, { recursive: true, force: true })
      }
    }
  } finally {
    if (o.keep) process.stderr.write(`audit-eval: kept ${tmp}\n`)
    else rmSync(tmp, { recursive: true, force: true })
  }
  for (const r of rows)
    if (!LABELS.includes(r.label)) warnings.push(`${r.id}: unknown label ${r.label}`)
  const good = rows.filter((r) => LABELS.includes(r.label))
  const s = summarise(good)
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ skipped, warnings, matrix: s.matrix, figures: s.figures, disagreements: s.disagreements, notes: good, line: s.line }, null, 2)}\n`,
    )
  } else process.stdout.write(`${textReport(s, good, skipped, warnings)}\n`)
  return s.figures.notes > 0 ? 0 : 2
}

function errorRow(repo, n, message) {
  return {
    repo,
    id: n.id,
    kind: n.kind,
    label: n.label,
    verdict: 'error',
    toolReason: message,
    reason: n.reason,
    writtenAt: null,
    writtenAtSource: null,
    auditNotes: 0,
    ms: 0,
  }
}

process.exitCode = main()
