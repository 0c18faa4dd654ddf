/**
 * Shared setup for the demo tests: a freshly materialised demo in a temp folder, and readers
 * for its files and transcripts (every Write/Edit of a memory file, with whether it succeeded).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeProjectDir } from '../../../../src/core/memory/project-path'
import { splitLines } from '../../../../src/core/text'
import { demoResourcesDir, materializeDemo, type DemoResult } from '../../../../src/node/app/demo'

export const resourcesDir = demoResourcesDir() ?? ''

/** The demo buildDemo made (live bindings: read them after it ran), its temp folder and memory folder. */
export let tmp = ''
export let demo: DemoResult
export let memoryDir = ''

/** Materialise a fresh demo in a new temp folder (for beforeAll). */
export async function buildDemo(): Promise<void> {
  tmp = await mkdtemp(join(tmpdir(), 'mc-demo-'))
  demo = await materializeDemo({ targetDir: join(tmp, 'demo'), resourcesDir })
  memoryDir = join(demo.claudeHome, 'projects', encodeProjectDir(demo.repoRoot), 'memory')
}

/** Remove the temp folder of buildDemo (for afterAll). */
export const removeDemo = (): Promise<void> => rm(tmp, { recursive: true, force: true })

/** Every regular file below `dir`, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(join(e.parentPath, e.name))
  }
  return out.sort()
}

export interface Line {
  readonly [key: string]: unknown
}
export const readJsonl = async (path: string): Promise<Line[]> =>
  splitLines(await readFile(path, 'utf8')).map((l) => JSON.parse(l) as Line)

export interface MemOp {
  readonly path: string
  readonly tool: string
  readonly ok: boolean
  readonly timestamp: string
  readonly sessionId: string
  readonly cwd: string
  readonly content?: string
  readonly oldString?: string
  readonly newString?: string
}

/** Write/Edit calls on memory files with whether they succeeded, from every transcript. */
export async function memoryOps(d: DemoResult): Promise<MemOp[]> {
  const ops: MemOp[] = []
  const transcripts = (await filesUnder(join(d.claudeHome, 'projects'))).filter((f) =>
    f.endsWith('.jsonl'),
  )
  for (const f of transcripts) {
    const lines = await readJsonl(f)
    const results = new Map<string, { isError: boolean; timestamp: string }>()
    for (const l of lines) {
      const content = (l.message as { content?: unknown } | undefined)?.content
      if (!Array.isArray(content)) continue
      for (const b of content as { type: string; tool_use_id?: string; is_error?: boolean }[]) {
        if (b.type === 'tool_result' && b.tool_use_id) {
          results.set(b.tool_use_id, {
            isError: b.is_error === true,
            timestamp: l.timestamp as string,
          })
        }
      }
    }
    for (const l of lines) {
      const content = (l.message as { content?: unknown } | undefined)?.content
      if (!Array.isArray(content)) continue
      for (const b of content as {
        type: string
        id?: string
        name?: string
        input?: Record<string, string>
      }[]) {
        if (b.type !== 'tool_use' || (b.name !== 'Write' && b.name !== 'Edit') || !b.input) continue
        if (!b.input.file_path.includes(`${join('', 'memory', '')}`)) continue
        const r = results.get(b.id ?? '')
        ops.push({
          path: b.input.file_path,
          tool: b.name,
          ok: r !== undefined && !r.isError,
          timestamp: r?.timestamp ?? (l.timestamp as string),
          sessionId: l.sessionId as string,
          cwd: l.cwd as string,
          content: b.input.content,
          oldString: b.input.old_string,
          newString: b.input.new_string,
        })
      }
    }
  }
  return ops
}
