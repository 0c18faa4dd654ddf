/** `serve` (docs/cli.md §9): the desktop window's interface in a browser, until stopped. */
import type { Command } from '../args'
import { startServe } from '../serve'

export async function run(cmd: Extract<Command, { kind: 'serve' }>): Promise<number> {
  await startServe(cmd)
  return new Promise<number>(() => {}) // serves until stopped
}
