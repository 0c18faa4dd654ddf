/**
 * Our SessionStart hook in a Claude Code settings file, on disk (issue 18 item 2): which file,
 * whether the hook is there, the diff of adding or removing it, and the write itself through
 * the one safe path (hash compare-and-swap, backup, atomic replace, an undo-log entry). The
 * text edit is planned in src/core/hooks/settings-edit.ts.
 *
 * Decisions:
 * - User scope: `<claude home>/settings.json`. Project scope: `.claude/settings.json` of the
 *   repository's top level holding the launch directory (the launch directory outside git):
 *   the shared file a team commits.
 * - The change is always planned here from the file on disk; a caller only names the scope,
 *   the action and the hash it reviewed (a page must never choose what a hook runs).
 * - The folder of a settings file is created when missing (a folder holds no bytes to lose).
 */
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import {
  findOurHooks,
  planHookInstall,
  planHookUninstall,
  type SettingsPlan,
} from '../../core/hooks/settings-edit'
import type { HookScope, HookSettingsPlan, HookSettingsState } from '../../shared/api-contract'
import type { EditOutcome } from '../../shared/model'
import { findRepo } from '../git/repo'
import { hashContent, readForEdit, safeWriteFile } from '../edits/safe-write'

export interface HookSettingsTarget {
  readonly claudeHome: string
  /** The launch directory, for the project scope. */
  readonly cwd: string | null
}

/** The settings file of a scope. */
export async function settingsPathFor(scope: HookScope, t: HookSettingsTarget): Promise<string> {
  if (scope === 'user') return join(t.claudeHome, 'settings.json')
  if (t.cwd === null) throw new Error('the project scope needs a launch directory')
  const repo = await findRepo(t.cwd)
  return join(repo?.toplevel ?? t.cwd, '.claude', 'settings.json')
}

interface Current {
  readonly text: string | null
  readonly hash: string | null
  readonly problem: string | null
}

async function readSettings(path: string): Promise<Current> {
  const r = await readForEdit(path)
  if (r.ok) return { text: r.text, hash: r.hash, problem: null }
  if (r.problem === 'missing' && r.reason === 'no such file')
    return { text: null, hash: null, problem: null }
  return { text: null, hash: null, problem: `cannot read ${path}: ${r.reason}` }
}

export async function hookState(
  scope: HookScope,
  t: HookSettingsTarget,
): Promise<HookSettingsState> {
  const path = await settingsPathFor(scope, t)
  const cur = await readSettings(path)
  if (cur.problem) return { scope, path, installed: false, problem: cur.problem }
  const found = findOurHooks(cur.text)
  // A file we could not add the hook to (e.g. `hooks` of another type) says why up front.
  const adding = found.found > 0 ? null : planHookInstall(cur.text, 'memory-curator')
  const reason = found.reason ?? (adding && !adding.ok ? adding.reason : null)
  return {
    scope,
    path,
    installed: found.found > 0,
    problem: reason === null ? null : `${path} is ${reason}`,
  }
}

function planFor(
  action: 'install' | 'uninstall',
  text: string | null,
  command: string,
): SettingsPlan {
  return action === 'install' ? planHookInstall(text, command) : planHookUninstall(text)
}

interface Planned extends HookSettingsPlan {
  readonly after: string | null
}

/** Plan the change (nothing written). */
export async function planHookChange(
  scope: HookScope,
  action: 'install' | 'uninstall',
  t: HookSettingsTarget,
  command: string,
): Promise<Planned> {
  const path = await settingsPathFor(scope, t)
  const cur = await readSettings(path)
  const base = { scope, action, path, expectedHash: cur.hash }
  const none = { changed: false, diff: '', afterHash: null, after: null }
  if (cur.problem) return { ...base, ...none, problem: cur.problem }
  const p = planFor(action, cur.text, command)
  if (!p.ok) return { ...base, ...none, problem: `${path} is ${p.reason}` }
  if (!p.changed) return { ...base, ...none, problem: null }
  const diff = createTwoFilesPatch(path, path, cur.text ?? '', p.after, 'now', `after ${action}`)
  return {
    ...base,
    changed: true,
    diff,
    afterHash: hashContent(p.after),
    problem: null,
    after: p.after,
  }
}

/**
 * Plan again and write, refused (a conflict) unless the file still has `expectedHash`, the hash
 * the person reviewed the diff against, and the plan still writes the text hashing to `afterHash`.
 */
export async function applyHookChange(
  scope: HookScope,
  action: 'install' | 'uninstall',
  t: HookSettingsTarget,
  command: string,
  expectedHash: string | null,
  afterHash: string,
  backupsDir: string,
): Promise<EditOutcome> {
  const plan = await planHookChange(scope, action, t, command)
  if (plan.problem) return { kind: 'error', path: plan.path, reason: plan.problem }
  if (plan.expectedHash !== expectedHash)
    return { kind: 'conflict', path: plan.path, currentHash: plan.expectedHash, currentText: null }
  if (!plan.changed || plan.after === null)
    return {
      kind: 'error',
      path: plan.path,
      reason: 'nothing to change: the file already is as asked',
    }
  if (plan.afterHash !== afterHash)
    return {
      kind: 'error',
      path: plan.path,
      reason: 'the change differs from the one shown; nothing written',
    }
  if (plan.expectedHash === null) await mkdir(dirname(plan.path), { recursive: true })
  return safeWriteFile({
    path: plan.path,
    expectedHash: plan.expectedHash,
    newText: plan.after,
    backupsDir,
    reason: `${action === 'install' ? 'add' : 'remove'} the Memory Curator SessionStart hook`,
  })
}
