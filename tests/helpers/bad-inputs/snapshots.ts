/**
 * Proof that reading never writes: tree snapshots (bytes + mtimes) to diff before and after,
 * and canary files outside every root whose atime shows any read.
 */
import { createHash } from 'node:crypto'
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'

/** One line per entry: type, size, mtime and a content hash (regular files) or link target. */
export function snapshotTree(dirs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (p: string): void => {
    let st
    try {
      st = lstatSync(p)
    } catch (err) {
      out.set(p, `error ${(err as NodeJS.ErrnoException).code}`)
      return
    }
    const base = `mode=${st.mode.toString(8)} mtime=${st.mtimeMs} size=${st.size}`
    if (st.isSymbolicLink()) {
      out.set(p, `link ${readlinkSync(p)} ${base}`)
    } else if (st.isDirectory()) {
      out.set(p, `dir ${base}`)
      let names: string[]
      const locked = (st.mode & 0o500) !== 0o500
      if (locked) chmodSync(p, st.mode | 0o700)
      try {
        names = readdirSync(p)
      } finally {
        // Restore exactly (chmod does not touch mtime, so the record above stays true).
        if (locked) chmodSync(p, st.mode & 0o7777)
      }
      for (const n of names.sort()) walk(join(p, n))
    } else if (st.isFile()) {
      // Hash without following a FIFO swap: st says regular file; sparse files hash by size only.
      if (st.size > 64 * 1024 * 1024) {
        out.set(p, `file ${base} (large, not hashed)`)
        return
      }
      const locked = (st.mode & 0o400) === 0
      if (locked) chmodSync(p, st.mode | 0o400)
      try {
        out.set(
          p,
          `file ${base} sha256=${createHash('sha256').update(readFileSync(p)).digest('hex')}`,
        )
      } finally {
        if (locked) chmodSync(p, st.mode & 0o7777)
      }
    } else {
      out.set(p, `special ${base}`)
    }
  }
  for (const d of dirs) walk(d)
  return out
}

/** Entries that differ between two snapshots, one line each. */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const diffs: string[] = []
  for (const [k, v] of before) {
    const w = after.get(k)
    if (w === undefined) diffs.push(`removed ${JSON.stringify(k)}`)
    else if (w !== v) diffs.push(`changed ${JSON.stringify(k)}: ${v} -> ${w}`)
  }
  for (const k of after.keys()) if (!before.has(k)) diffs.push(`added ${JSON.stringify(k)}`)
  return diffs
}

// ---- canaries -------------------------------------------------------------------

export interface Canaries {
  readonly dir: string
  readonly files: readonly string[]
  /** The text every canary holds; it must never appear in a response. */
  readonly marker: string
  /** What changed since planting: content, mtime, or atime (a read). */
  touched(): string[]
}

/**
 * Plant canary files outside every root. Their atime is set a year before their mtime, so
 * under `relatime` (and `strictatime`) any read moves it: a read shows without strace.
 * `noatime` mounts hide reads; `atimeWorks` says whether this mount shows them.
 */
export function plantCanaries(
  dir: string,
  names: readonly string[],
): Canaries & { atimeWorks: boolean; rearm(): void } {
  mkdirSync(dir, { recursive: true })
  const marker = `CANARY-${Math.random().toString(36).slice(2)}-DO-NOT-READ`
  const old = new Date('2025-01-01T00:00:00Z')
  const files = names.map((n) => join(dir, n))
  for (const f of files) {
    mkdirSync(join(f, '..'), { recursive: true })
    writeFileSync(f, `${marker}\nroot:x:0:0:canary:/root:/bin/sh\n`)
  }
  const probe = join(dir, '.atime-probe')
  writeFileSync(probe, 'probe')
  for (const f of [...files, probe]) utimesSync(f, old, statSync(f).mtime)
  readFileSync(probe)
  const atimeWorks = statSync(probe).atimeMs !== old.getTime()
  rmSync(probe)
  for (const d of new Set(files.map((f) => join(f, '..')))) utimesSync(d, old, statSync(d).mtime)
  const folders = [...new Set(files.map((f) => join(f, '..')))]
  let before = new Map(files.map((f) => [f, statSync(f)]))
  let dirsBefore = new Map(folders.map((d) => [d, statSync(d)]))
  return {
    dir,
    files,
    marker,
    atimeWorks,
    rearm() {
      // After our own snapshot read them: back to a year-old atime, and a new baseline.
      for (const p of [...files, ...folders]) utimesSync(p, old, statSync(p).mtime)
      before = new Map(files.map((f) => [f, statSync(f)]))
      dirsBefore = new Map(folders.map((d) => [d, statSync(d)]))
    },
    touched() {
      const out: string[] = []
      for (const [f, st] of before) {
        // stat first: our own read below moves the atime, so it is put back afterwards.
        const now = statSync(f)
        if (now.mtimeMs !== st.mtimeMs) out.push(`${f}: mtime changed`)
        if (atimeWorks && now.atimeMs !== st.atimeMs)
          out.push(`${f}: read (atime moved ${st.atimeMs} -> ${now.atimeMs})`)
        if (readFileSync(f, 'utf8') !== `${marker}\nroot:x:0:0:canary:/root:/bin/sh\n`)
          out.push(`${f}: content changed`)
        utimesSync(f, st.atime, st.mtime)
      }
      for (const [d, st] of dirsBefore) {
        const now = statSync(d)
        if (now.mtimeMs !== st.mtimeMs) out.push(`${d}: folder changed`)
        if (atimeWorks && now.atimeMs !== st.atimeMs)
          out.push(`${d}: folder listed (atime moved ${st.atimeMs} -> ${now.atimeMs})`)
      }
      return out
    },
  }
}
