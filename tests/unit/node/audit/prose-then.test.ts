/**
 * Names a note gives in plain prose, on a real git repository (issue 12, recall): one the code
 * held when the note was written and lost since makes it stale, naming the commit; one the
 * code never held (or only held after the note) names nothing; a name with a value that
 * changed shows the line then and now; a glob that matched files then and none now is stale.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { git } from '../../../helpers/git'
import { byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'
import { withTreeThen } from '../../../../src/node/audit/prose-finding'
import { checked } from '../../../../src/core/audit/checked-reference'

afterAll(removeBase)

const pkg = (pad: string): string =>
  `{\n  "name": "demo",\n  "dependencies": {\n    "left-pad": "${pad}",\n    "astro": "^5.1.0"\n  }\n}\n`

describe('names in prose, checked through the note time (issue 12)', () => {
  const { repo, mem, sha, commit } = historyCase('prose')
  let notes: readonly AuditNote[] = []
  const WRITTEN = '2026-02-15T00:00:00Z'

  beforeAll(async () => {
    write(repo, 'src/jobs.ts', "export const kinds = ['eat_food', 'haul_to_stockpile']\n")
    write(repo, 'src/build.ts', 'export const chunkSizeWarningLimit = 1200\n')
    // A notebook's output table: what it printed, not a setting (blind set AI).
    const nb = (n: number): string =>
      `{"cells": [{"source": [\n    "| rampRowCount | ${n} |\\n",\n  ]}]}\n`
    write(repo, 'data/build.ipynb', nb(23))
    write(repo, 'package.json', pkg('1.2.0'))
    write(repo, 'targets/profiles/a.json', '{}\n')
    write(repo, 'targets/profiles/b.json', '{}\n')
    write(repo, 'scripts/gen.sh', 'cp ../sibling-repo/data/metrics.json src/\n')
    write(repo, 'src/models/types.ts', 'export interface CardInfo {}\nexport interface Deck {}\n')
    write(repo, 'models/tray.py', 'def build():\n    reset_bed()\n    clear()\n')
    write(repo, 'models/splitter.py', 'def build():\n    clear()\n')
    const zon = (v: string): string =>
      `.{\n    .dependencies = .{\n        .zuda = .{\n            .hash = "zuda-${v}-ih6_AbC",\n        },\n    },\n}\n`
    write(repo, 'build.zig.zon', zon('1.15.0'))
    // A Python module and a React component hold names a TSX example gives (blind set AM).
    write(repo, 'backend/forms.py', 'onSubmitDraft = None\n')
    write(repo, 'web/Form.tsx', 'export const onCancelDraft = () => null\n')
    commit('c1', '2026-01-01T12:00:00Z')
    // After the note: each of these goes or changes.
    write(repo, 'src/jobs.ts', "export const kinds = ['eat_food', 'haul_to_storage']\n")
    commit('kind-renamed', '2026-03-01T12:00:00Z')
    write(repo, 'package.json', pkg('>=1.3.0'))
    commit('pin-bumped', '2026-03-02T12:00:00Z')
    write(repo, 'build.zig.zon', zon('2.0.4'))
    commit('zig-bumped', '2026-03-02T13:00:00Z')
    write(repo, 'src/build.ts', 'export const chunkSizeWarningLimit = 1800\n')
    write(repo, 'data/build.ipynb', nb(31))
    // A test keeps the old value on purpose (a config of an older release read back).
    write(repo, 'tests/old-config.test.ts', 'const old = { chunkSizeWarningLimit: 1200 }\n')
    commit('limit-raised', '2026-03-03T12:00:00Z')
    mkdirSync(join(repo, 'materials'))
    git(repo, 'mv', 'targets', 'materials/targets')
    commit('profiles-moved', '2026-03-04T12:00:00Z')
    write(repo, 'scripts/gen.sh', 'cp ../../meta/data/metrics.json src/\n')
    commit('sibling-gone', '2026-03-05T12:00:00Z')
    write(repo, 'src/models/types.ts', 'export interface Deck {}\n')
    write(repo, 'src/games/types.ts', 'export interface CardInfo {}\n')
    commit('card-moved', '2026-03-05T13:00:00Z')
    // Both models hand the export to one helper; the call moves there.
    write(repo, 'models/tray.py', 'def build():\n    reset_bed()\n    return spec()\n')
    write(repo, 'models/splitter.py', 'def build():\n    return spec()\n')
    write(repo, 'common/export.py', 'def export(spec):\n    clear()\n')
    commit('export-moved', '2026-03-05T14:00:00Z')
    write(repo, 'backend/forms.py', 'on_submit = None\n')
    write(repo, 'web/Form.tsx', 'export const onClose = () => null\n')
    commit('forms-changed', '2026-03-05T15:00:00Z')
    // A name added after the note and removed again: it was not in the code when written.
    write(repo, 'src/tmp.ts', 'export const temp_flag_value = 1\n')
    commit('temp-added', '2026-03-06T12:00:00Z')
    git(repo, 'rm', '-q', 'src/tmp.ts')
    commit('temp-gone', '2026-03-07T12:00:00Z')

    const notesBy: [string, string][] = [
      ['prose-name', 'Evaluators: eat_food and haul_to_stockpile decide the work.'],
      ['never-name', 'Routing goes through ghost_planner_kind first.'],
      ['later-name', 'Caching keys on temp_flag_value.'],
      ['english', 'Make sure the Release Notes mention Phase 2 and step 3 of the Setup.'],
      ['pair', 'left-pad pinned to 1.2.0 in the dependencies.'],
      ['pair-id', 'The Vite chunkSizeWarningLimit is 1200 kB.'],
      ['notebook', 'The rampRowCount is 23 rows.'],
      ['pair-holds', 'An astro 5 static site; `src/jobs.ts` lists eat_food.'],
      ['glob', 'Profiles live in `targets/profiles/*.json`.'],
      ['outside', 'Metrics are copied from `../sibling-repo/data/`.'],
      ['located', '- `src/models/types.ts` — core types (CardInfo, MissingType)'],
      ['located-ticked', '- Export: tray.py/splitter.py call `clear()` before the STL.'],
      ['located-held', '- tray.py calls `reset_bed()` first.'],
      ['located-clause', '- `src/models/types.ts` holds the models; the deck view takes CardInfo.'],
      ['fence-other-language', 'The form:\n\n```tsx\n<Form onSubmitDraft={save} />\n```'],
      ['fence-same-language', 'The form:\n\n```tsx\n<Form onCancelDraft={close} />\n```'],
      ['pair-zig', 'zuda v1.15.0 is declared in `build.zig.zon`.'],
    ]
    notes = await auditTopics(repo, mem, notesBy, WRITTEN)
  })

  it('calls a prose identifier present when written and removed since stale, naming the commit', () => {
    const n = byTitle(notes, 'prose-name')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`haul_to_stockpile\` was in the code at ${sha.c1}, when the note was written (\`src/jobs.ts\`) and is not found now; removed in ${sha['kind-renamed']} on 2026-03-01`,
    )
    expect(n.references.map((r) => r.text)).toEqual(['haul_to_stockpile'])
  })

  it('leaves a prose word the code never held, or only held after the note, as no reference', () => {
    for (const title of ['never-name', 'later-name', 'english']) {
      const n = byTitle(notes, title)
      expect(n.verdict, title).toBe('unverifiable')
      expect(n.references, title).toEqual([])
      expect(n.reasons[0], title).toBe('nothing checkable: no path, symbol, command or quoted code')
    }
  })

  it('calls a package whose pinned version changed stale, with the line then and now', () => {
    const n = byTitle(notes, 'pair')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`left-pad\` 1.2.0: \`package.json\` line 4 held \`"left-pad": "1.2.0",\` at ${sha.c1}, when the note was written; now \`package.json\` line 4 holds \`"left-pad": ">=1.3.0",\`; changed in ${sha['pin-bumped']} on 2026-03-02`,
    )
  })

  it("reads a Zig package's version from build.zig.zon's hash line (blind set P)", () => {
    const n = byTitle(notes, 'pair-zig')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`zuda\` v1.15.0: \`build.zig.zon\` line 4 held \`.hash = "zuda-1.15.0-ih6_AbC",\` at ${sha.c1}, when the note was written; now \`build.zig.zon\` line 4 holds \`.hash = "zuda-2.0.4-ih6_AbC",\`; changed in ${sha['zig-bumped']} on 2026-03-02`,
    )
  })

  it('calls a setting whose value changed stale, with the line then and now', () => {
    const n = byTitle(notes, 'pair-id')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain('`export const chunkSizeWarningLimit = 1200`')
    expect(n.reasons[0]).toContain(
      'now `src/build.ts` line 1 holds `export const chunkSizeWarningLimit = 1800`',
    )
    expect(n.reasons[0]).toContain(`changed in ${sha['limit-raised']}`)
  })

  it("does not take a notebook's printed value for a setting (blind set AI)", () => {
    const n = byTitle(notes, 'notebook')
    expect(n.reasons.join('\n')).not.toContain('rampRowCount')
    expect(n.verdict).not.toBe('stale')
  })

  it('keeps a note whose prose names and values still hold as it was', () => {
    const n = byTitle(notes, 'pair-holds')
    expect(n.verdict).toBe('fresh')
    expect(n.references.map((r) => r.text)).toEqual(['src/jobs.ts'])
  })

  it('calls a glob that matched files when written and none now stale, naming the commit', () => {
    const n = byTitle(notes, 'glob')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`targets/profiles/*.json\` matched 2 files at ${sha.c1}, when the note was written (\`targets/profiles/a.json\`, …); none now; the last went in ${sha['profiles-moved']} on 2026-03-04`,
    )
  })

  it('calls a path outside the repository that code held when written and no longer holds stale', () => {
    const n = byTitle(notes, 'outside')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`../sibling-repo/data\` was in \`scripts/gen.sh\` line 1 at ${sha.c1}, when the note was written, and no code holds it now; removed in ${sha['sibling-gone']} on 2026-03-05`,
    )
  })

  it('calls a name a line places in the file it names, moved out of that file since, stale', () => {
    const n = byTitle(notes, 'located')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`CardInfo\` was in \`src/models/types.ts\` at ${sha.c1}, when the note was written; now it is not (it is in \`src/games/types.ts\`); removed in ${sha['card-moved']} on 2026-03-05`,
    )
    expect(n.references.map((r) => [r.text, r.status])).toEqual([
      ['src/models/types.ts', 'ok'],
      ['CardInfo', 'moved'],
    ])
  })

  it('calls a back-ticked name the files a line names all lost since stale, though code holds it', () => {
    const n = byTitle(notes, 'located-ticked')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toBe(
      `\`clear\` was in \`models/splitter.py\` at ${sha.c1}, when the note was written; now it is not (it is in \`common/export.py\`); removed in ${sha['export-moved']} on 2026-03-05`,
    )
    // The file it places a name in still holds it: nothing to say.
    expect(byTitle(notes, 'located-held').verdict).toBe('fresh')
  })

  it("checks a name only a fenced example gives in that example's language's files (blind set AM)", () => {
    // Held then only by a Python file: a TSX example's prop says nothing of it.
    const o = byTitle(notes, 'fence-other-language')
    expect(o.reasons.join('\n')).not.toContain('`onSubmitDraft` was in the code')
    expect(o.verdict).toBe('never-matched')
    const n = byTitle(notes, 'fence-same-language')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toContain('`onCancelDraft` was in the code')
    expect(n.reasons[0]).toContain('`web/Form.tsx`')
  })

  it('places no name across a `;` in the file the clause before it names (blind set AN)', () => {
    const n = byTitle(notes, 'located-clause')
    expect(n.reasons.join('\n')).not.toContain('CardInfo')
    expect(n.verdict).toBe('fresh')
  })
})

describe('a path missing with no known fate, checked against the tree then', () => {
  const ref = { kind: 'path', text: 'packs/', path: 'packs', line: null, dir: true } as const
  const missing = checked(ref, 'missing', null, { reason: '`packs/` does not exist' })
  const finding = (absentThen: string[]) => ({ checked: [], supersedes: [], absentThen })

  it('is never matched when the tree then did not hold it either', () => {
    const c = withTreeThen(missing, finding(['packs/']))
    expect(c.goneIn).toBeNull()
    expect(c.reason).toBe(
      '`packs/` does not exist, nor was it in the tree when the note was written',
    )
  })

  it('stays as it was when the tree then held it, or its fate is known', () => {
    expect(withTreeThen(missing, finding([]))).toBe(missing)
    const gone = {
      ...missing,
      goneIn: { sha: 'abc1234', date: '2026-03-01', how: 'deleted' } as const,
    }
    expect(withTreeThen(gone, finding(['packs/']))).toBe(gone)
  })
})

describe('bold package names, vouched for by a manifest then and now', () => {
  const { repo, mem, commit } = historyCase('deps')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'pyproject.toml',
      '[project]\nname = "ops"\ndependencies = [\n    "numpy>=2.2.6",\n    "pandas>=2.3.3",\n    "tqdm>=4.67.1",\n]\n',
    )
    write(repo, 'ops/run.py', 'import numpy\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      repo,
      'pyproject.toml',
      '[project]\nname = "ops"\ndependencies = [\n    "numpy>=2.2.6",\n]\n',
    )
    commit('drop unused deps', '2026-03-01T12:00:00Z')

    notes = await auditTopics(
      repo,
      mem,
      [
        ['Data stack', '- **pandas** / **numpy** - Data processing'],
        ['Numbers', '- **numpy** - arrays'],
        ['Plots', '- **matplotlib** - charts (planned)'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls a bold package the manifest listed when written and lists no more stale, naming the commit', () => {
    const n = byTitle(notes, 'Data stack')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toMatch(
      /^`pandas` was a dependency at [0-9a-f]{7}, when the note was written \(`pyproject\.toml` line 5: `"pandas>=2\.3\.3",`\); no manifest lists it now; removed in [0-9a-f]{7} on 2026-03-01$/,
    )
  })

  it('says nothing of a package still listed, or one never listed', () => {
    expect(byTitle(notes, 'Numbers').verdict).not.toBe('stale')
    expect(byTitle(notes, 'Plots').verdict).not.toBe('stale')
    expect(byTitle(notes, 'Plots').reasons.join('\n')).not.toContain('matplotlib')
  })
})

describe('utility-class lists a style note quotes, checked as literal code', () => {
  const { repo, mem, commit } = historyCase('classes')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'src/Card.jsx',
      'const c = "text-violet-500/70 font-medium"\nconst b = "text-[9px] font-bold"\nconst a = active ? " shadow-md -translate-y-px" : ""\n',
    )
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      repo,
      'src/Card.jsx',
      'const c = "text-violet-600 font-medium"\nconst b = "text-[9px] font-bold"\n',
    )
    commit('restyle', '2026-03-01T12:00:00Z')

    notes = await auditTopics(
      repo,
      mem,
      [
        ['Ingredient text', '- Principio activo text: `text-violet-500/70`'],
        ['Badges', '- Badge text: `text-[9px] font-bold`'],
        ['Sticky', '- Sticky header: `bg-slate-50/95 backdrop-blur-xl`'],
        ['Active card', 'Active card: colored bg + border + `shadow-md -translate-y-px` + X icon.'],
        ['Plain words', 'Never quote `read-only well-known` names.'],
      ],
      '2026-02-15T00:00:00Z',
    )
  }, 120_000)

  it('calls a class list the code held when written and holds no more stale, never a missing path', () => {
    const n = byTitle(notes, 'Ingredient text')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toMatch(
      /^`text-violet-500\/70` was in `src\/Card\.jsx` line 1 at [0-9a-f]{7}, when the note was written, and no code holds it now/,
    )
    expect(n.reasons.join('\n')).not.toContain('does not exist')
  })

  it('reads plain utility classes (no `/` or `[value]`) the same way', () => {
    const n = byTitle(notes, 'Active card')
    expect(n.verdict).toBe('stale')
    expect(n.reasons[0]).toMatch(
      /^`shadow-md -translate-y-px` was in `src\/Card\.jsx` line 3 at [0-9a-f]{7}, when the note was written, and no code holds it now/,
    )
    // Class-shaped words the code never held name nothing.
    expect(byTitle(notes, 'Plain words').verdict).toBe('unverifiable')
  })

  it('leaves a class list the code still holds, or never held, without a stale reason', () => {
    expect(byTitle(notes, 'Badges').verdict).not.toBe('stale')
    const sticky = byTitle(notes, 'Sticky')
    expect(sticky.verdict).not.toBe('stale')
    expect(sticky.verdict).not.toBe('never-matched')
  })
})
