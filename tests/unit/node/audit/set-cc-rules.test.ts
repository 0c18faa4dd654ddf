/**
 * Rules blind sets CA to CC (docs/eval-audit.md) showed were missing, on a real git repository:
 * a skill folder named with its prefix (`.claude/skills/meow:memory/`) is what `/meow:memory`
 * and `meow:plan-creator` name, and a folder of the plain name (now run under another prefix)
 * does not keep them true (set CC); a path from a placeholder for the repository's root
 * (`<project>/.claude/commands/`) is a path from the root (set CC); one branch of a drawn tree
 * (`├── agents/  — 3 agents`) gives its folder's count (set CA); and a name given with its
 * initials (`Acme Projects Console (APC)`) is the product's own, gone when no file holds it, as is
 * a colour (`#0a1628`) the code held when the note was written (set CA); `Type.field = value`
 * rests on the type and its field (set CC); a path given as an example ("such as `apps/claw-pc/`")
 * is the repository's when it had it (set CE).
 */
import { join } from 'node:path'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase, verdictChecks } from './topic-audit'

afterAll(removeBase)

describe('set CA to CC rules on a real repository', () => {
  const { repo, mem, sha, commit } = historyCase('scc')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, '.claude/skills/meow:memory/SKILL.md', '---\nname: meow:memory\n---\n')
    write(repo, '.claude/skills/meow:plan/SKILL.md', '---\nname: meow:plan\n---\n')
    write(repo, '.claude/skills/review/SKILL.md', '---\nname: review\n---\n')
    write(repo, '.claude/commands/status.md', 'Show the status.\n')
    write(repo, '.claude/commands/deploy.md', 'Deploy.\n')
    for (const a of ['one', 'two', 'three']) write(repo, `.claude/agents/${a}.md`, `# ${a}\n`)
    write(
      repo,
      'src/package.json',
      '{\n  "name": "apc",\n  "productName": "Acme Projects Console"\n}\n',
    )
    write(repo, 'src/index.html', '<title>Acme Projects Console</title>\n')
    write(repo, 'UPDATES.md', '# Updates\n')
    write(repo, 'apps/claw-pc/package.json', '{ "name": "claw-pc" }\n')
    write(
      repo,
      'Assets/MjpegScreen.cs',
      'public class MjpegScreen {\n  private bool useTextureAspect = true;\n  private int fps = 30;\n}\n',
    )
    write(repo, 'src/card.css', '.card {\n  background: linear-gradient(#0a1628, #1e3a5f);\n}\n')
    commit('c1', '2026-01-01T12:00:00Z')
    rmSync(join(repo, '.claude/skills/meow:memory'), { recursive: true })
    rmSync(join(repo, '.claude/skills/meow:plan'), { recursive: true })
    write(repo, '.claude/skills/memory/SKILL.md', '---\nname: mk:memory\n---\n')
    write(repo, '.claude/skills/plan/SKILL.md', '---\nname: mk:plan\n---\n')
    rmSync(join(repo, '.claude/commands'), { recursive: true })
    rmSync(join(repo, 'UPDATES.md'))
    rmSync(join(repo, 'apps/claw-pc'), { recursive: true })
    write(repo, 'apps/cloud-pc/package.json', '{ "name": "cloud-pc" }\n')
    write(repo, 'Assets/MjpegScreen.cs', 'public class MjpegScreen {\n  private int fps = 30;\n}\n')
    write(repo, 'src/card.css', '.card {\n  background: linear-gradient(#ffffff, #1e3a5f);\n}\n')
    write(repo, '.claude/skills/status/SKILL.md', '---\nname: status\n---\n')
    write(repo, '.claude/agents/four.md', '# four\n')
    write(
      repo,
      'src/package.json',
      '{\n  "name": "ace",\n  "productName": "Agent Command Engine"\n}\n',
    )
    write(repo, 'src/index.html', '<title>Agent Command Engine</title>\n')
    commit('change', '2026-02-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Prune', '**Pruning:** `/meow:memory --prune` archives old entries.'],
        ['Plan skill', '- Skill: `meow:plan` picks the right template'],
        ['Review', 'Run `/review` before a pull request.'],
        ['Commands', '| `<project>/.claude/commands/` | project slash commands |'],
        ['Bulletin', 'Migrations append to `<workspace>/UPDATES.md` at start-up.'],
        ['Palette', '- Background gradient: #0a1628 → #1e3a5f'],
        ['Brand', '- Brand colour: #ff5a1f (from the style guide)'],
        ['Aspect', 'Keep `MjpegScreen.useTextureAspect = true` (the default).'],
        ['Frames', 'Set `MjpegScreen.maxFrameRate = 60` on the device.'],
        ['Apps', '- `apps/`: runnable application surfaces such as `apps/claw-pc/`.'],
        ['Example', 'Put each tool in its own folder, e.g. `tools/my-tool/`.'],
        ['Agents', '```\n├── agents/         — 3 autonomous agents\n```'],
        ['Product', 'Acme Projects Console (APC)'],
        ['Other product', 'Built on the Model Context Protocol (MCP).'],
      ],
      '2026-01-10T00:00:00Z',
    )
  }, 120_000)

  const { called, quiet } = verdictChecks(() => notes)

  it('reads a prefixed skill name as the folder of that name, not a later plain one (CC)', () => {
    called('Prune', 'stale', '`.claude/skills/meow:memory/SKILL.md`', sha.change)
    called('Plan skill', 'stale')
    // A plain name kept by its skill stays true.
    called('Review', 'fresh')
  })

  it("reads a path from the root's placeholder as a path from the root (CC)", () => {
    called('Commands', 'stale', '`.claude/commands`')
    // A workspace is the running app's folder, not the repository (blind set BR).
    expect(byTitle(notes, 'Bulletin').reasons.join('\n')).not.toContain('`UPDATES.md` was deleted')
    quiet('Bulletin')
  })

  it('reads an example path the repository had as one it names (CE)', () => {
    called('Apps', 'stale', '`apps/claw-pc`')
    // An example the repository never had is the note's own.
    quiet('Example')
  })

  it("reads one branch of a drawn tree as its folder's count (CA)", () => {
    called('Agents', 'suspect', 'the note counts 3 beside `agents`')
  })

  it('reads a colour the code held then and no file holds now as gone (CA)', () => {
    called('Palette', 'stale', '#0a1628')
    expect(byTitle(notes, 'Palette').reasons.join('\n')).not.toContain('#1e3a5f')
    // A colour no code ever held says nothing.
    quiet('Brand')
  })

  it('reads `Type.field = value` as resting on the type and its field (CC)', () => {
    called('Aspect', 'stale', 'useTextureAspect')
    // A field the class never had: the note's own example, never stale.
    quiet('Frames', true)
  })

  it('reads a name given with its initials as the product, gone when no file holds it (CA)', () => {
    called('Product', 'stale', 'Acme Projects Console')
    // A name no file of the repository ever held says nothing.
    quiet('Other product')
  })
})
