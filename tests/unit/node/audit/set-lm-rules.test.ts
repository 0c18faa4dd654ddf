/**
 * Rules blind sets L and M (docs/eval-audit.md) showed were missing, on real git repositories.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditNote } from '../../../../src/shared/model'
import { clearMissingBlobCache } from '../../../../src/node/git/missing-blobs'
import { git } from '../../../helpers/git'
import { base, byTitle, removeBase, write } from './scripted-repo'
import { auditTopics, historyCase } from './topic-audit'

afterAll(removeBase)

const fence = (lang: string, body: string): string => `\`\`\`${lang}\n${body}\n\`\`\``

describe('a clone without the blobs of its 3D prints', () => {
  const { repo: source, commit } = historyCase('lm-pc')
  const clone = join(base, 'lm-pc-clone')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      source,
      'pkg/cutter.py',
      'def cut_with_wires(m, *specs):\n    return m\n\n\nclass CutSpec:\n    pass\n',
    )
    write(
      source,
      'src/tray.py',
      'from pkg.cutter import cut_with_wires, CutSpec\n\nmodel = build()\n',
    )
    write(source, 'models/tray.stl', randomBytes(8192))
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      source,
      'src/tray.py',
      'from pkg.cutter import CutSpec, cut_with_wires\n\nmodel = build()\n',
    )
    write(source, 'models/tray.stl', randomBytes(8192))
    commit('lint', '2026-03-01T12:00:00Z')
    git(source, 'config', 'uploadpack.allowFilter', 'true')
    git(base, 'clone', '-q', '--filter=blob:limit=1k', `file://${source}`, clone)
    expect(git(clone, 'rev-list', '--objects', '--missing=print', 'HEAD')).toContain('?')
    clearMissingBlobCache()
    notes = await auditTopics(
      clone,
      join(base, 'lm-pc-mem'),
      [
        [
          'Example',
          `Cutting along wires:\n\n${fence('python', 'from pkg.cutter import cut_with_wires, CutSpec\npieces = cut_with_wires(model, CutSpec(wire, plane), CutSpec(wire2, plane2))')}`,
        ],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('reads an example as an example although a binary blob was missing then', () => {
    const n = byTitle(notes, 'Example')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
    expect(n.reasons.join('\n')).toContain('when the note was written')
  })
})

describe('an example whose import line the code took up after the note', () => {
  const { repo, mem, sha, commit } = historyCase('lm-imp')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(
      repo,
      'src/utils/sentry.ts',
      'export async function captureException(e: unknown, ctx: object) {}\nexport async function captureMessage(m: string, level: string, ctx: object) {}\n',
    )
    write(repo, 'src/main/app.ts', 'export const app = 1\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      repo,
      'src/main/sync.ts',
      "import { captureException, captureMessage } from '../utils/sentry';\n\nexport function sync() {}\n",
    )
    commit('adopt', '2026-03-01T12:00:00Z')
    write(repo, 'src/main/sync.ts', 'export function sync() {}\n')
    write(
      repo,
      'src/main/shell.ts',
      "import { captureException, captureMessage } from '../utils/sentry';\n\nexport function run() {}\n",
    )
    commit('move', '2026-04-01T12:00:00Z')
    write(repo, 'src/main/old.ts', 'export function legacyFlush(): void {}\n')
    commit('legacy', '2026-04-10T12:00:00Z')
    write(repo, 'src/main/old.ts', 'export const none = 0\n')
    commit('drop', '2026-05-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        [
          'Sentry',
          `Report errors:\n\n${fence('typescript', "import { captureException, captureMessage } from '../utils/sentry';\n\nawait captureException(error, { userId, operation: 'sync' });\nawait captureMessage('Unusual state detected', 'warning', { state });")}`,
        ],
        [
          'Flush',
          `Flush before exit:\n\n${fence('typescript', 'export function legacyFlush(): void {}\nflushEverything(now, { force: true, drain: 1 })')}`,
        ],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('does not call the quote removed when the code holds its line now', () => {
    const n = byTitle(notes, 'Sentry')
    expect(n.verdict, n.reasons.join('\n')).not.toBe('stale')
    expect(n.reasons.join('\n')).toContain('src/main/shell.ts')
  })

  it('still calls a quote removed when its line left the code', () => {
    const n = byTitle(notes, 'Flush')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain(sha.drop)
  })
})

describe('a product the manifests dropped, and a key whose value changed', () => {
  const { repo, mem, sha, commit } = historyCase('lm-dep')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'requirements.txt', 'fastapi>=0.110\nqdrant-client>=1.13.0\n')
    write(
      repo,
      'app/store.py',
      'from qdrant_client import QdrantClient\n\nstore = QdrantClient()\n',
    )
    write(
      repo,
      'package.json',
      '{\n  "scripts": {\n    "dev": "concurrently a b",\n    "build": "vite build"\n  }\n}\n',
    )
    write(repo, 'workflows/psm/schema.yaml', 'name: psm\nlegal_basis: "OSHA-KR Article 44"\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(
      repo,
      'workflows/psm/schema.yaml',
      'name: psm\nlegal_basis:\n  - "OSHA-KR Article 44"\n  - "OSHA-KR Article 61"\n',
    )
    write(repo, 'requirements.txt', 'fastapi>=0.110\npgvector>=0.3\n')
    write(repo, 'app/store.py', 'from pgvector.psycopg import register_vector\n')
    write(
      repo,
      'package.json',
      '{\n  "scripts": {\n    "dev": "node scripts/dev.mjs",\n    "build": "vite build"\n  }\n}\n',
    )
    commit('pgvector', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Store', '- **Qdrant** - vector storage (tag filtering for access control)'],
        ['Api', '- FastAPI serves the app'],
        ['Schema', '- Every workflow schema cites its `legal_basis`'],
        [
          'Scripts',
          '```bash\nnpm run dev      # development with hot reload\nnpm run build    # production build\n```',
        ],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('calls a product stale when no manifest lists it now, naming the commit', () => {
    const n = byTitle(notes, 'Store')
    expect(n.verdict, n.reasons.join('\n')).toBe('stale')
    expect(n.reasons.join('\n')).toContain('qdrant-client')
    expect(n.reasons.join('\n')).toContain(sha.pgvector)
  })

  it('says nothing of a product the manifests still list', () => {
    expect(byTitle(notes, 'Api').verdict).not.toBe('stale')
    expect(byTitle(notes, 'Api').verdict).not.toBe('suspect')
  })

  it('keeps a key whose value changed, and not a script whose command changed', () => {
    const n = byTitle(notes, 'Schema')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
    const s = byTitle(notes, 'Scripts')
    expect(s.verdict, s.reasons.join('\n')).toBe('suspect')
    expect(s.reasons.join('\n')).toContain('node scripts/dev.mjs')
  })
})

describe('a line a note points at', () => {
  const { repo, mem, commit } = historyCase('lm-line')
  let notes: readonly AuditNote[] = []
  const types = (before: number): string =>
    [
      ...Array.from({ length: before }, (_, i) => `  table_${i}: { id: number }`),
      '  vehicles: {',
      '    Row: { id: string }',
      '  }',
    ].join('\n') + '\n'

  beforeAll(async () => {
    write(repo, 'types/supabase.ts', types(60))
    write(repo, 'src/app.ts', 'export const a = 1\nexport function start() {}\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'types/supabase.ts', types(400))
    write(repo, 'src/app.ts', 'export const a = 2\nexport function start() {}\n')
    commit('regen', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Types', '- **Check `types/supabase.ts` line ~61** before adding columns to `.select()`'],
        ['Start', '- The app starts in `src/app.ts:2`'],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('calls a note suspect when the line it points at moved far, saying where it is now', () => {
    const n = byTitle(notes, 'Types')
    expect(n.verdict, n.reasons.join('\n')).toBe('suspect')
    expect(n.reasons.join('\n')).toContain('it is line 401 now')
  })

  it('keeps a pointer whose line is still there', () => {
    const n = byTitle(notes, 'Start')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
  })
})

describe('a bare file name in prose that the repository never had', () => {
  const { repo, mem, commit } = historyCase('lm-bare')
  let notes: readonly AuditNote[] = []

  beforeAll(async () => {
    write(repo, 'src/app.ts', 'export function start() {}\n')
    commit('c1', '2026-01-01T12:00:00Z')
    write(repo, 'src/app.ts', 'export function start() {}\nexport const v = 2\n')
    commit('c2', '2026-03-01T12:00:00Z')
    notes = await auditTopics(
      repo,
      mem,
      [
        ['Tools', '- Runs any model: Ollama, LM Studio, llama.cpp; starts from `src/app.ts`'],
        ['Ticked', '- The model server is `llama.cpp`'],
      ],
      '2026-02-01T00:00:00Z',
    )
  }, 120_000)

  it('reads it as another project’s name, not a wrong path', () => {
    const n = byTitle(notes, 'Tools')
    expect(n.verdict, n.reasons.join('\n')).toBe('fresh')
    expect(n.reasons.join('\n')).toContain('`llama.cpp` is a name in prose')
  })

  it('still calls a back-ticked one wrong from the start', () => {
    const n = byTitle(notes, 'Ticked')
    expect(n.verdict, n.reasons.join('\n')).toBe('never-matched')
    expect(n.reasons.join('\n')).toContain('wrong from the start')
  })
})
