/**
 * The command line (docs/cli.md): the same core as the window, for
 * scripts, cron and CI. Exit 0 ok, 1 findings at or above --fail-on, 2 bad usage
 * or an unreadable argument (one line on stderr naming the path or option).
 */
import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { auditMemory } from '../node/audit/audit'
import { cutoffFile } from '../node/memory/cutoff-file'
import { resolveHomes } from '../node/memory/homes'
import { provenance, writtenAtProvider } from '../node/transcripts/provenance'
import { noteEvidence } from '../node/transcripts/note-evidence'
import { auditWithEvidence, filesWithEvidence } from './evidence-fields'
import { defaultStateDir } from '../node/app/setup'
import { saveAuditDigest } from '../node/hooks/audit-digest'
import { scanClaudeHome } from '../node/memory/scan'
import { callBackend } from './backend-call'
import { parseArgs, UsageError, type Command } from './args'
import { auditReport, cutoffReport, loadOrderReport, provenanceReport, scanReport } from './report'
import { startServe } from './serve'
import { version } from '../../package.json'

class InputError extends Error {}

/** The transcript index cache: a second run reads only new bytes (in our state folder, never the Claude home). */
const provenanceCache = (): string => join(defaultStateDir(), 'provenance-cache')

/** Where the evidence of notes is read and archived: our state folder, never the Claude home. */
const evidenceArgs = (claudeHome: string, memoryDir: string) => ({
  claudeHome,
  memoryDir,
  stateDir: defaultStateDir(),
  cacheDir: provenanceCache(),
})

async function requireDir(p: string, what: string): Promise<string> {
  const abs = resolve(p)
  let ok: boolean
  try {
    ok = (await stat(abs)).isDirectory()
  } catch {
    throw new InputError(`${what} ${abs}: no such directory`)
  }
  if (!ok) throw new InputError(`${what} ${abs}: not a directory`)
  return abs
}

function emit(json: boolean, value: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text()}\n`)
}

async function run(cmd: Command): Promise<number> {
  switch (cmd.kind) {
    case 'help':
      process.stdout.write(cmd.text)
      return 0
    case 'version':
      process.stdout.write(`${version}\n`)
      return 0
    case 'serve':
      await startServe(cmd)
      return new Promise<number>(() => {}) // serves until stopped
    // Issue 18: each in its own module, loaded only when asked for.
    case 'hook':
      return (await import('./commands/hook')).run(cmd)
    case 'hooks':
      return (await import('./commands/hooks')).run(cmd)
    case 'mcp':
      return (await import('./commands/mcp')).run(cmd)
    case 'watch':
      return (await import('./commands/watch')).run(cmd)
    default:
      break
  }
  const homes = resolveHomes(cmd.global)
  // The Claude home is the input of scan, audit and provenance; load-order and cutoff only consult it.
  if (cmd.global.claudeHome && cmd.kind !== 'load-order' && cmd.kind !== 'cutoff') {
    await requireDir(cmd.global.claudeHome, '--claude-home')
  }
  switch (cmd.kind) {
    case 'scan': {
      const r = await callBackend({ homes }, 'scan', [])
      emit(cmd.global.json, r, () => scanReport(r))
      return 0
    }
    case 'cutoff': {
      const file = resolve(cmd.file)
      try {
        const st = await stat(file)
        if (st.isDirectory()) throw new InputError(`${file}: is a directory, not a MEMORY.md file`)
      } catch (err) {
        if (err instanceof InputError) throw err
        const code = (err as NodeJS.ErrnoException).code
        throw new InputError(
          `${file}: ${code === 'ELOOP' ? 'symlink loop' : code === 'ENOENT' ? 'no such file' : `cannot stat (${code})`}`,
        )
      }
      const r = await cutoffFile(file)
      emit(cmd.global.json, r, () => cutoffReport(r))
      return 0
    }
    case 'load-order': {
      const cwd = await requireDir(cmd.cwd, '--cwd')
      // The window's and serve's handler: MEMORY.md found with the agent's switches and overrides.
      const r = await callBackend({ homes, namedLaunchDirs: [cwd] }, 'loadOrder', [cwd])
      emit(cmd.global.json, r, () => loadOrderReport(r))
      return 0
    }
    case 'audit': {
      let memoryDir: string
      let repo: string | null = cmd.repo ? await requireDir(cmd.repo, '--repo') : null
      if (cmd.memoryDir) {
        memoryDir = await requireDir(cmd.memoryDir, '--memory-dir')
        if (!cmd.repo) {
          // The repository of the project that owns this memory folder, if the scan knows it.
          const scan = await scanClaudeHome(homes.claudeHome)
          repo = scan.projects.find((p) => p.memoryDir === memoryDir)?.repoRoot ?? null
        }
      } else {
        const scan = await scanClaudeHome(homes.claudeHome)
        const project = scan.projects.find((p) => p.id === cmd.project)
        if (!project)
          throw new InputError(
            `--project ${cmd.project}: no such project folder in ${homes.claudeHome}/projects`,
          )
        if (!project.memoryDir)
          throw new InputError(`--project ${cmd.project}: has no memory folder`)
        memoryDir = project.memoryDir
        if (!cmd.repo) repo = project.repoRoot
      }
      const r = await auditMemory({
        memoryDir,
        repo,
        // When a note was written: the transcript write that last touched its lines, else coarser sources.
        writtenAtFor: writtenAtProvider({
          claudeHome: homes.claudeHome,
          cacheDir: provenanceCache(),
        }),
        onProgress: cmd.global.json
          ? undefined
          : (done, total) => process.stderr.write(`\raudit ${done}/${total}`),
      })
      if (!cmd.global.json) process.stderr.write('\n')
      // Kept for `hook session-start` (issue 18): it names stale notes without auditing.
      await saveAuditDigest(defaultStateDir(), memoryDir, r)
      // --json adds each note's evidence (archiving excerpts seen for the first time, issue 12 item 10).
      const out = cmd.global.json
        ? auditWithEvidence(
            r,
            (await noteEvidence(evidenceArgs(homes.claudeHome, memoryDir))).notes,
          )
        : r
      emit(cmd.global.json, out, () => auditReport(r))
      if (cmd.failOn === 'stale' && r.summary.stale > 0) return 1
      if (cmd.failOn === 'suspect' && r.summary.stale + r.summary.suspect > 0) return 1
      return 0
    }
    case 'provenance': {
      const memoryDir = cmd.memoryDir
        ? await requireDir(cmd.memoryDir, '--memory-dir')
        : await requireDir(
            join(homes.claudeHome, 'projects', cmd.project ?? '', 'memory'),
            `--project ${cmd.project}:`,
          )
      const r = await provenance({
        claudeHome: homes.claudeHome,
        memoryDir,
        cacheDir: provenanceCache(),
      })
      const evidence = await noteEvidence(evidenceArgs(homes.claudeHome, memoryDir))
      const files = filesWithEvidence(r.files, evidence.notes)
      emit(cmd.global.json, { files }, () => provenanceReport({ files }))
      return 0
    }
  }
}

async function main(): Promise<void> {
  let code: number
  try {
    code = await run(parseArgs(process.argv.slice(2)))
  } catch (err) {
    if (err instanceof UsageError || err instanceof InputError) {
      process.stderr.write(`memory-curator: ${err.message}\n`)
      code = 2
    } else {
      process.stderr.write(
        `memory-curator: internal error: ${(err as Error).stack ?? String(err)}\n`,
      )
      code = 3
    }
  }
  process.exitCode = code
}

void main()
