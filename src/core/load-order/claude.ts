/**
 * What Claude Code loads when launched in a directory (docs/memory-rules.md §3): the startup
 * files in load order, what loads on demand, and what a reader might expect that does not
 * load. Pure: every disk access goes through an injected `ClaudeFsPort`.
 */
import { ON_DEMAND_WALK_MAX_DIRS } from '../limits'
import { ancestorsRootFirst, isInsidePath, joinPath } from '../paths'
import { parseRule, pathsTrigger } from './rules'
import {
  blank,
  excludeMatcher,
  exists,
  onDemandFile,
  read,
  shadows,
  skip,
  type ClaudeFsPort,
  type ClaudeLoadInput,
  type ClaudeLoadOrder,
  type Ctx,
} from './claude-context'
import { agentsMd, loadRules, loadTop } from './claude-load'

export type {
  ClaudeFsPort,
  ClaudeLoadInput,
  ClaudeLoadOrder,
  PortRead,
  PortReadProblem,
  SkippedFile,
} from './claude-context'
export { ON_DEMAND_WALK_MAX_DIRS }

/** Folders the on-demand walk never enters (besides dot folders). */
const WALK_SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules'])

/**
 * Claude Code's load order for `input.cwd` (docs/memory-rules.md §3). Rules inside one `rules/`
 * folder load in the order the port lists them: the raw order the filesystem returns,
 * never sorted (docs/memory-rules.md §3.5 [agent]).
 */
export async function claudeLoadOrder(
  input: ClaudeLoadInput,
  port: ClaudeFsPort,
): Promise<ClaudeLoadOrder> {
  const ctx: Ctx = {
    input,
    port,
    startup: [],
    onDemand: [],
    skipped: [],
    warnings: [],
    loaded: new Set(),
    rulesSeen: new Set(),
    reads: new Map(),
    excluded: excludeMatcher(input.claudeMdExcludes),
    outsideWorktree: [],
  }
  const chain = walkUpDirs(ctx, ancestorsRootFirst(input.cwd))
  if (!(await port.isDir(input.cwd))) {
    ctx.warnings.push({
      path: input.cwd,
      code: 'cwd-not-a-directory',
      message: 'the launch directory does not exist or is not a folder',
    })
  }

  // AGENTS.md counts only where no CLAUDE file exists in the launch directory or above.
  let claudeFileInChain = false
  for (const dir of chain) {
    for (const name of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) {
      if (shadows(await read(ctx, joinPath(dir, name)))) claudeFileInChain = true
    }
  }

  await loadTop(ctx, joinPath(input.managedDir, 'CLAUDE.md'), 'managed', false)
  await loadRules(ctx, joinPath(input.managedDir, 'rules'), false, true)
  await loadTop(ctx, joinPath(input.claudeHome, 'CLAUDE.md'), 'user', true)
  await loadRules(ctx, joinPath(input.claudeHome, 'rules'), true, true)
  for (const dir of chain) {
    await loadTop(ctx, joinPath(dir, 'CLAUDE.md'), 'project', true)
    await loadTop(ctx, joinPath(dir, '.claude', 'CLAUDE.md'), 'project', true)
    await loadRules(ctx, joinPath(dir, '.claude', 'rules'), true, false)
    // AGENTS.md comes after its folder's rules (docs/memory-rules.md §3.12 [agent]).
    await agentsMd(ctx, joinPath(dir, 'AGENTS.md'), claudeFileInChain, 'startup', dir)
    await loadTop(ctx, joinPath(dir, 'CLAUDE.local.md'), 'local', true)
  }
  if (input.memoryFile) {
    const m = input.memoryFile
    ctx.startup.push({
      path: m.path,
      scope: 'memory',
      importedBy: null,
      lines: m.lines,
      chars: m.chars,
    })
  }
  for (const dir of ctx.outsideWorktree) {
    for (const name of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) {
      const path = joinPath(dir, name)
      if (exists(await read(ctx, path))) {
        skip(
          ctx,
          path,
          'outside-worktree',
          'in the main checkout around this nested worktree; Claude Code does not load it',
        )
      }
    }
  }
  await walkBelow(ctx, claudeFileInChain)

  // An `@AGENTS.md` import reads a shadowed AGENTS.md after all (docs/memory-rules.md §3.12).
  const skipped = ctx.skipped.filter(
    (s) => !(s.reason === 'agents-md-shadowed' && ctx.loaded.has(s.path)),
  )
  return { startup: ctx.startup, onDemand: ctx.onDemand, skipped, warnings: ctx.warnings }
}

/**
 * The folders of the walk up. In a worktree nested inside its main checkout
 * (`main/.claude/worktrees/feat`), the folders of the main checkout around it are not
 * walked (docs/memory-rules.md §3.8 [agent]); their CLAUDE files are reported as skipped.
 */
function walkUpDirs(ctx: Ctx, chain: readonly string[]): string[] {
  const { repoRoot, repoMainRoot } = ctx.input
  if (!repoRoot || !repoMainRoot || repoRoot === repoMainRoot) return [...chain]
  if (!isInsidePath(repoRoot, repoMainRoot)) return [...chain]
  const out: string[] = []
  for (const dir of chain) {
    if (isInsidePath(dir, repoMainRoot) && !isInsidePath(dir, repoRoot))
      ctx.outsideWorktree.push(dir)
    else out.push(dir)
  }
  return out
}

/**
 * On-demand files below the launch directory: CLAUDE.md, .claude/CLAUDE.md, .claude/rules
 * and CLAUDE.local.md load when Claude reads a file under their folder (docs/memory-rules.md §3.2).
 * Skips node_modules and dot folders; looks at no more than the cap of folders.
 */
async function walkBelow(ctx: Ctx, claudeFileInChain: boolean): Promise<void> {
  const cap = ctx.input.onDemandMaxDirs ?? ON_DEMAND_WALK_MAX_DIRS
  let visited = 0
  const stack: string[] = []
  const pushChildren = async (dir: string): Promise<void> => {
    const names = [...(await ctx.port.listSubdirs(dir))].sort()
    const keep = names.filter((n) => !n.startsWith('.') && !WALK_SKIP_DIRS.has(n))
    for (let i = keep.length - 1; i >= 0; i--) stack.push(joinPath(dir, keep[i]))
  }
  await pushChildren(ctx.input.cwd)
  while (stack.length > 0) {
    if (visited >= cap) {
      ctx.warnings.push({
        path: ctx.input.cwd,
        code: 'on-demand-walk-capped',
        message: `looked at ${cap} folders below the launch directory; deeper on-demand files are not listed`,
      })
      return
    }
    const dir = stack.pop() as string
    visited++
    const claudeHere = []
    for (const name of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) {
      const path = joinPath(dir, name)
      const r = await read(ctx, path)
      if (!r.ok && r.problem === 'missing') continue
      if (shadows(r)) claudeHere.push(path)
      await onDemandFile(ctx, path, name === 'CLAUDE.local.md' ? 'local' : 'project', dir, r)
    }
    await agentsMd(
      ctx,
      joinPath(dir, 'AGENTS.md'),
      claudeFileInChain || claudeHere.length > 0,
      'on-demand',
      dir,
    )
    await onDemandRules(ctx, joinPath(dir, '.claude', 'rules'), dir)
    await pushChildren(dir)
  }
}

async function onDemandRules(ctx: Ctx, rulesDir: string, dir: string): Promise<void> {
  const files = await ctx.port.listRulesDir(rulesDir)
  for (const rel of files) {
    const path = joinPath(rulesDir, rel)
    if (ctx.rulesSeen.has(path)) continue
    ctx.rulesSeen.add(path)
    const r = await read(ctx, path)
    if (!r.ok || blank(r) || ctx.input.disableClaudeMds || ctx.excluded(path)) {
      await onDemandFile(ctx, path, 'rule', dir, r)
      continue
    }
    const rule = parseRule(r.text)
    for (const w of rule.warnings) ctx.warnings.push({ path, code: w.code, message: w.message })
    const trigger =
      rule.condition.kind === 'paths'
        ? `${pathsTrigger(rule.condition)} (under ${dir})`
        : `reading a file under ${dir}`
    ctx.onDemand.push({ path, scope: 'rule', trigger })
  }
}
