/**
 * A separate process running our real safeWrite, for tests that kill it, starve it of disk
 * or run it as another user. Built into one plain-JS file by build-crash-child.ts.
 *
 *   node crash-child.mjs loop <file> <backupsDir> <baseSize>
 *     prints `ready`, then rewrites <file> from version k to k+1 (crash-versions.ts) until
 *     killed, printing `done <k>` after each write; exits 3 on anything but a clean write.
 *   node crash-child.mjs loop-tolerant <file> <backupsDir> <baseSize>
 *     the same, but an error is printed (`error "<reason>"`) and the loop goes on until a
 *     line `stop` arrives on stdin.
 *   node crash-child.mjs ops <json>
 *     runs a list of operations and prints one JSON result per line (see Op below).
 */
import { lastUndoable } from '../../src/node/edits/operation-log'
import { undo } from '../../src/node/edits/undo'
import { safeDelete } from '../../src/node/edits/safe-delete'
import { freedesktopTrash } from '../../src/node/edits/trash'
import {
  hashContent,
  readForEdit,
  safeWrite,
  sweepStaleTemps,
} from '../../src/node/edits/safe-write'
import { versionOf, versionText } from './crash-versions'

type Op =
  | { op: 'read'; path: string }
  | { op: 'write'; path: string; expectedHash: string | null; newText: string; backupsDir: string }
  | {
      op: 'delete'
      path: string
      expectedHash: string
      backupsDir: string
      trashDir: string | null
    }
  | { op: 'undo'; backupsDir: string }
  | { op: 'sweep'; dir: string }

const out = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

/**
 * Rewrite `file` version after version. Strict: stop (exit 3) on anything but a write.
 * Tolerant: print `error <reason as JSON>` and go on, until `stop` arrives on stdin.
 */
async function loop(
  file: string,
  backupsDir: string,
  baseSize: number,
  tolerant: boolean,
): Promise<void> {
  let stopping = false
  if (tolerant) {
    process.stdin.on('data', (d: Buffer) => {
      if (d.toString().includes('stop')) stopping = true
    })
  }
  out('ready')
  while (!stopping) {
    const read = await readForEdit(file)
    if (!read.ok) throw new Error(`${file}: ${read.reason}`)
    const k = versionOf(read.text)
    if (k === null) throw new Error(`${file}: not a version: ${read.text.slice(0, 40)}`)
    const res = await safeWrite({
      path: file,
      expectedHash: read.hash,
      newText: versionText(k + 1, baseSize),
      backupsDir,
      reason: `v${k + 1}`,
    })
    if (res.kind === 'written') out(`done ${k + 1}`)
    else if (tolerant && res.kind === 'error') {
      out(`error ${JSON.stringify(res.reason)}`)
      await new Promise((r) => setTimeout(r, 1))
    } else throw new Error(JSON.stringify(res))
  }
  process.stdin.destroy()
}

async function run(op: Op): Promise<unknown> {
  switch (op.op) {
    case 'read': {
      const r = await readForEdit(op.path)
      return r.ok ? { ok: true, hash: r.hash, text: r.text } : r
    }
    case 'write':
      return safeWrite({ ...op, reason: 'child write' })
    case 'delete':
      return safeDelete({
        path: op.path,
        expectedHash: op.expectedHash,
        backupsDir: op.backupsDir,
        trash:
          op.trashDir === null
            ? null
            : (p: string) => freedesktopTrash(p, { trashDir: op.trashDir ?? undefined }),
      })
    case 'undo': {
      const last = await lastUndoable(op.backupsDir)
      if (last === null) return { kind: 'error', reason: 'nothing to undo' }
      return undo(op.backupsDir, last.id)
    }
    case 'sweep':
      return { removed: await sweepStaleTemps(op.dir) }
  }
}

async function main(): Promise<void> {
  const [mode, ...rest] = process.argv.slice(2)
  if (mode === 'loop' || mode === 'loop-tolerant') {
    await loop(rest[0], rest[1], Number(rest[2]), mode === 'loop-tolerant')
  } else if (mode === 'ops') {
    for (const op of JSON.parse(rest[0]) as Op[]) out(JSON.stringify(await run(op)))
  } else if (mode === 'hash') {
    out(hashContent(rest[0]))
  } else {
    throw new Error(`unknown mode ${mode}`)
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(3)
})
