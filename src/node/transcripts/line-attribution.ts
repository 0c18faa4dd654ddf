/**
 * Who wrote each line of a memory file as it is on disk: the recorded write that added it,
 * from the same histories as the provenance report (provenance-collect.ts).
 */
import { dirname, resolve } from 'node:path'
import type { Problem } from '../../shared/model'
import { attributeLines } from '../../core/transcripts/replay'
import { countLines } from '../../core/text'
import { readTextFile } from '../fs/safe-read'
import { collect } from './provenance-collect'
import type {
  Collected,
  LineAttribution,
  LineAttributionResult,
  ProvenanceOptions,
  ProvenanceStats,
} from './provenance-types'

/**
 * Per line of a memory file on disk, the write that added it — the most precise answer to
 * "when was this note written" (docs/memory-rules.md §1.7: transcripts are perishable, the file is not).
 */
export async function lineAttribution(
  options: ProvenanceOptions & { readonly file: string },
): Promise<LineAttributionResult> {
  const map = await lineAttributions({ ...options, files: [options.file] })
  const only = map.results[0]
  return { ...only, problems: [...map.problems, ...only.problems], stats: map.stats }
}

/** `lineAttribution` for several files with one pass over the transcripts. */
export async function lineAttributions(
  options: ProvenanceOptions & { readonly files: readonly string[] },
): Promise<{
  readonly results: readonly Omit<LineAttributionResult, 'stats'>[]
  readonly problems: readonly Problem[]
  readonly stats: ProvenanceStats
}> {
  const files = options.files.map((f) => resolve(f))
  const c = await collect(options, files)
  const results: Omit<LineAttributionResult, 'stats'>[] = []
  for (const file of files) results.push(await attributeFile(file, c))
  return { results, problems: c.problems, stats: c.stats }
}

/** Per line of `file` as it is on disk, the write that added it, from collected histories. */
async function attributeFile(
  file: string,
  c: Collected,
): Promise<Omit<LineAttributionResult, 'stats'>> {
  const current = await readTextFile(file, { lenient: true })
  if (!current.ok) return { file, lines: [], problems: [{ path: file, reason: current.reason }] }
  const history = c.histories.get(file)
  const owners = history ? attributeLines(current.text, history.replay) : null
  const count = owners?.length ?? countLines(current.text)
  const lines: (LineAttribution | null)[] = []
  for (let i = 0; i < count; i++) {
    const o = owners?.[i] ?? null
    if (o === null || !history) {
      lines.push(null)
      continue
    }
    const x = history.calls[o]
    lines.push({
      line: i + 1,
      sessionId: x.call.sessionId,
      timestamp: x.call.timestamp,
      transcript: x.transcript,
      tool: x.call.input.tool,
      cwd: x.call.cwd,
      gitBranch: x.call.gitBranch,
    })
  }
  return { file, lines, problems: [] }
}

/**
 * A "when was this line written" lookup for the audit (its `WrittenAtProvider` shape): the
 * timestamp of the write that added the line, from one attribution pass per file.
 */
export function writtenAtProvider(
  options: ProvenanceOptions,
): (
  file: string,
  line: number,
) => Promise<{ readonly at: string; readonly source: 'transcript' } | null> {
  // One pass over the transcripts per folder, not per file: a folder of 12,000 topic files
  // must not index the transcripts 12,000 times (issue 8, bad input).
  const perDir = new Map<string, Promise<Collected>>()
  const perFile = new Map<string, Promise<Omit<LineAttributionResult, 'stats'>>>()
  return async (file, line) => {
    const key = resolve(file)
    let hit = perFile.get(key)
    if (!hit) {
      const dir = dirname(key)
      let collected = perDir.get(dir)
      if (!collected) {
        collected = collect({ ...options, memoryDir: options.memoryDir ?? dir }, null)
        perDir.set(dir, collected)
      }
      hit = collected.then((c) => attributeFile(key, c))
      perFile.set(key, hit)
    }
    const owner = (await hit).lines[line - 1] ?? null
    return owner ? { at: owner.timestamp, source: 'transcript' } : null
  }
}
