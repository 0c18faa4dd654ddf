/**
 * What every command shares (docs/cli.md §2, §3): the error that means "an argument cannot be
 * read" (exit 2), the folder checks behind it, and printing a result as JSON or a report.
 * Kept small: src/cli/index.ts imports it before any command is loaded (issue 16).
 */
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { writeOut } from './stdout'

/** An argument that names something unreadable: one line on stderr, exit 2 (docs/cli.md §2). */
export class InputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InputError'
  }
}

/**
 * `p` resolved, when it is a folder; else an InputError naming `what` and the path. One stat,
 * synchronous: a trip through the thread pool was a wait of its own in a warm `provenance`.
 */
export async function requireDir(p: string, what: string): Promise<string> {
  const abs = resolve(p)
  let ok: boolean
  try {
    ok = statSync(abs).isDirectory()
  } catch {
    throw new InputError(`${what} ${abs}: no such directory`)
  }
  if (!ok) throw new InputError(`${what} ${abs}: not a directory`)
  return abs
}

/** A result as --json prints it: one JSON document and a newline (docs/cli.md §2). */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}

/** One JSON document on stdout with --json, else the report for a person (stdout.ts). */
export function emit(json: boolean, value: unknown, text: () => string): void {
  writeOut(json ? jsonText(value) : `${text()}\n`)
}
