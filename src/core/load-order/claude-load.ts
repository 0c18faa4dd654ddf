/**
 * Loading one Claude instruction file and what it imports (docs/memory-rules.md §3): a file found by its
 * place, a `rules/` folder, AGENTS.md in the CLAUDE.md slot, and `@imports` with their hop limit,
 * cycles and the approval outside imports need. Pure: reads go through the context's port.
 */
import { IMPORT_MAX_HOPS, INSTRUCTION_ADVISED_MAX_LINES, INSTRUCTION_FLAG_CHARS } from '../limits'
import type { ClaudeScope } from '../../shared/model'
import { stripForLoading } from '../markdown/strip'
import { countLines } from '../text'
import { findImports, resolveImport } from './imports'
import { isInsidePath, joinPath } from '../paths'
import { parseRule, pathsTrigger } from './rules'
import { blank, onDemandFile, read, skip, type Ctx, type PortRead } from './claude-context'

/** Managed and user files may import anywhere; project files need approval to leave the launch directory. */
export function importsAnywhere(scope: ClaudeScope): boolean {
  return scope === 'managed' || scope === 'user'
}

/**
 * One file found by its place (not by an import): read it, apply the disable switch and
 * `claudeMdExcludes` (never to managed files, docs/memory-rules.md §3.10), then load it.
 */
export async function loadTop(
  ctx: Ctx,
  path: string,
  scope: ClaudeScope,
  excludable: boolean,
  preread?: PortRead,
): Promise<void> {
  if (ctx.loaded.has(path)) return // already loaded (by an import, or user home = a chain folder)
  const r = preread ?? (await read(ctx, path))
  if (!r.ok && r.problem === 'missing') return
  if (ctx.input.disableClaudeMds)
    return skip(ctx, path, 'disabled', 'CLAUDE_CODE_DISABLE_CLAUDE_MDS=1')
  if (excludable && ctx.excluded(path))
    return skip(ctx, path, 'excluded', 'matches claudeMdExcludes')
  if (!r.ok) return skip(ctx, path, r.problem, r.reason)
  if (blank(r)) return skip(ctx, path, 'empty', 'whitespace only; Claude Code does not send it')
  await load(ctx, path, scope, null, r.text, 0, [path], excludable, importsAnywhere(scope))
}

/** Rules of one `rules/` folder: unconditional ones load now, `paths` ones go on demand. */
export async function loadRules(
  ctx: Ctx,
  rulesDir: string,
  excludable: boolean,
  /** Managed and user rules may import anywhere (docs/memory-rules.md §3.7 [agent]). */
  anywhere: boolean,
): Promise<void> {
  // Raw filesystem order, as the agent reads the folder (docs/memory-rules.md §3.5 [agent]).
  const files = await ctx.port.listRulesDir(rulesDir)
  for (const rel of files) {
    const path = joinPath(rulesDir, rel)
    if (ctx.loaded.has(path) || ctx.rulesSeen.has(path)) continue
    ctx.rulesSeen.add(path)
    const r = await read(ctx, path)
    if (!r.ok || blank(r) || ctx.input.disableClaudeMds || (excludable && ctx.excluded(path))) {
      await loadTop(ctx, path, 'rule', excludable, r)
      continue
    }
    const rule = parseRule(r.text)
    for (const w of rule.warnings) ctx.warnings.push({ path, code: w.code, message: w.message })
    if (rule.condition.kind === 'paths') {
      ctx.onDemand.push({ path, scope: 'rule', trigger: pathsTrigger(rule.condition) })
    } else await load(ctx, path, 'rule', null, r.text, 0, [path], excludable, anywhere)
  }
}

/** AGENTS.md in a folder: loads in the CLAUDE.md slot only when no CLAUDE file shadows it. */
export async function agentsMd(
  ctx: Ctx,
  path: string,
  shadowed: boolean,
  mode: 'startup' | 'on-demand',
  dir: string,
): Promise<void> {
  if (ctx.loaded.has(path)) return
  const r = await read(ctx, path)
  if (!r.ok && r.problem === 'missing') return
  if (shadowed && !ctx.input.disableClaudeMds) {
    return skip(
      ctx,
      path,
      'agents-md-shadowed',
      'a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md exists',
    )
  }
  if (mode === 'startup') return loadTop(ctx, path, 'project', true, r)
  return onDemandFile(ctx, path, 'project', dir, r)
}

/** Add a loaded file, its size warnings, then its imports right after it (docs/memory-rules.md §3). */
export async function load(
  ctx: Ctx,
  path: string,
  scope: ClaudeScope,
  importedBy: string | null,
  text: string,
  hop: number,
  ancestry: readonly string[],
  excludable: boolean,
  anywhere: boolean,
): Promise<void> {
  const body = stripForLoading(text).text
  const lines = countLines(body)
  ctx.loaded.add(path)
  ctx.startup.push({ path, scope, importedBy, lines, chars: body.length })
  if (lines > INSTRUCTION_ADVISED_MAX_LINES) {
    ctx.warnings.push({
      path,
      code: 'over-200-lines',
      message: `${lines} lines load; the docs advise under ${INSTRUCTION_ADVISED_MAX_LINES} per file`,
    })
  }
  if (body.length > INSTRUCTION_FLAG_CHARS) {
    ctx.warnings.push({
      path,
      code: 'over-40k-chars',
      message: `${body.length} characters load, over ${INSTRUCTION_FLAG_CHARS}`,
    })
  }
  for (const imp of findImports(body)) {
    const target = resolveImport(path, imp.path, ctx.input.homeDir)
    await loadImport(ctx, target, path, hop + 1, ancestry, excludable, anywhere)
  }
}

/** One `@path` import: cycles, repeats, depth, exclusion and read problems are skipped. */
export async function loadImport(
  ctx: Ctx,
  target: string,
  from: string,
  hop: number,
  ancestry: readonly string[],
  excludable: boolean,
  anywhere: boolean,
): Promise<void> {
  if (ancestry.includes(target)) {
    return skip(ctx, target, 'import-cycle', `imported again by ${from}, which it imports`, from)
  }
  if (ctx.loaded.has(target)) return skip(ctx, target, 'import-repeat', 'already loaded', from)
  if (hop > IMPORT_MAX_HOPS) {
    return skip(
      ctx,
      target,
      'import-depth',
      `${hop} hops from the importing file, over ${IMPORT_MAX_HOPS}`,
      from,
    )
  }
  const { cwd, repoRoot, claudeHome, managedDir } = ctx.input
  // Outside the launch directory, a project file's import needs approval; until then the
  // agent does not read it, and neither do we (docs/memory-rules.md §3 [agent]; issue 11 item 6).
  if (!anywhere && !isInsidePath(target, cwd) && ctx.input.externalImportsApproved !== true) {
    return skip(
      ctx,
      target,
      'import-needs-approval',
      `outside the launch directory; Claude Code loads it only once external imports are approved for ${repoRoot ?? cwd}`,
      from,
    )
  }
  const r = await read(ctx, target)
  if (!r.ok && r.problem === 'missing') {
    return skip(ctx, target, 'import-missing', 'Claude ignores a missing import silently', from)
  }
  if (excludable && ctx.excluded(target))
    return skip(ctx, target, 'excluded', 'matches claudeMdExcludes', from)
  if (!r.ok) return skip(ctx, target, r.problem, r.reason, from)
  if (blank(r))
    return skip(ctx, target, 'empty', 'whitespace only; Claude Code does not send it', from)
  const inside = [repoRoot ?? cwd, claudeHome, managedDir].some((root) =>
    isInsidePath(target, root),
  )
  if (!inside) {
    ctx.warnings.push({
      path: target,
      code: 'import-outside-repo',
      message: `imported by ${from} from outside the repository and the Claude home`,
    })
  }
  await load(ctx, target, 'import', from, r.text, hop, [...ancestry, target], excludable, anywhere)
}

/**
 * On-demand files below the launch directory: CLAUDE.md, .claude/CLAUDE.md, .claude/rules
 * and CLAUDE.local.md load when Claude reads a file under their folder (docs/memory-rules.md §3.2).
 * Skips node_modules and dot folders; looks at no more than the cap of folders.
 */
