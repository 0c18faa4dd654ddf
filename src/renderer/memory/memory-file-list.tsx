/**
 * The memory folder's files beside the open one: MEMORY.md, each topic file with the
 * frontmatter it starts with (docs/memory-rules.md §2.6 "Index format"), orphans and dangling links
 * flagged (from the index's cutoff). The frontmatter is shown as written: parsing YAML is
 * the back end's job, and the contract does not carry parsed frontmatter yet.
 */
import { useShowMore } from '../common/show-more'
import { useEffect, useState, type ReactNode } from 'react'
import type { CutoffResult, MemoryFileInfo, ProjectInfo } from '../../shared/model'
import { getApi } from '../api/api-client'

/** The opening `---` … `---` block as written, or null when the file has none. */
function rawFrontmatter(text: string): string | null {
  const lines = text.split(/\r?\n/)
  if (lines[0]?.trim() !== '---') return null
  const end = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'))
  return end < 0 ? null : lines.slice(1, end).join('\n')
}

type Head =
  | { readonly state: 'loading' }
  | { readonly state: 'ok'; readonly block: string | null }
  | { readonly state: 'error'; readonly reason: string }

/** Each topic file's frontmatter block, re-read when the file changes on disk. */
function useFrontmatter(files: readonly MemoryFileInfo[]): ReadonlyMap<string, Head> {
  const [heads, setHeads] = useState<ReadonlyMap<string, Head>>(new Map())
  const key = files.map((f) => `${f.path}:${f.bytes}`).join('|')
  useEffect(() => {
    let live = true
    const api = getApi()
    const read = (paths: readonly string[]) => {
      for (const p of paths) {
        api.readFile(p).then(
          (c) =>
            live &&
            setHeads((m) =>
              new Map(m).set(
                p,
                c.ok
                  ? { state: 'ok', block: rawFrontmatter(c.text) }
                  : { state: 'error', reason: c.reason },
              ),
            ),
          (err: Error) =>
            live && setHeads((m) => new Map(m).set(p, { state: 'error', reason: err.message })),
        )
      }
    }
    const all = files.map((f) => f.path)
    read(all)
    const off = api.onDidChange((e) =>
      read(e.paths.length === 0 ? all : all.filter((p) => e.paths.includes(p))),
    )
    return () => {
      live = false
      off()
    }
    // `key` stands for `files`: re-read when the set of files or their sizes change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])
  return heads
}

const NONE: CutoffResult['dangling'] = []

export function MemoryFileList({
  project,
  cutoff,
  openPath,
  onOpen,
}: {
  project: ProjectInfo
  cutoff: CutoffResult | null
  openPath: string | null
  onOpen: (path: string, line?: number) => void
}) {
  const index = project.memoryFiles.find((f) => f.role === 'index') ?? null
  const topics = project.memoryFiles.filter((f) => f.role === 'topic')
  const heads = useFrontmatter(topics)
  const orphans = new Set(cutoff?.orphans ?? [])
  const [shownDangling, moreDangling] = useShowMore(cutoff?.dangling ?? NONE, 'more-dangling')
  const rel = (p: string) =>
    project.memoryDir && p.startsWith(project.memoryDir) ? p.slice(project.memoryDir.length + 1) : p
  const item = (f: MemoryFileInfo, children?: ReactNode) => (
    <li key={f.path}>
      <button
        className={f.path === openPath ? 'file-item active' : 'file-item'}
        aria-current={f.path === openPath ? 'true' : undefined}
        onClick={() => onOpen(f.path)}
        title={f.path}
        data-testid="memory-file-item"
      >
        <span className="file-name">
          {rel(f.path)}
          {orphans.has(f.path) && (
            <span
              className="badge warn"
              title="No entry of MEMORY.md links this file, so nothing at start-up points Claude to it"
              data-testid="orphan-badge"
            >
              orphan
            </span>
          )}
        </span>
        <span className="file-meta">
          {f.lines} lines · {f.bytes.toLocaleString('en')} bytes
        </span>
        {children}
      </button>
    </li>
  )
  return (
    <div className="memory-file-list" data-testid="memory-file-list">
      {index && (
        <>
          <h3>Index</h3>
          <ul>
            {item(
              index,
              cutoff && cutoff.firstUnloadedLine !== null && (
                <span
                  className="badge danger"
                  title={`From line ${cutoff.firstUnloadedLine} on, nothing loads at session start`}
                >
                  overflows at line {cutoff.firstUnloadedLine}
                </span>
              ),
            )}
          </ul>
        </>
      )}
      {!index && project.memoryDir && (
        <p className="note warn">
          No MEMORY.md in {project.memoryDir}: nothing of this folder loads at session start.
        </p>
      )}
      <h3>Topic files ({topics.length})</h3>
      {topics.length === 0 && <p className="muted small">None.</p>}
      <ul>
        {topics.map((f) => {
          const h = heads.get(f.path)
          return item(
            f,
            h?.state === 'ok' ? (
              h.block === null ? (
                <span className="frontmatter missing">no frontmatter</span>
              ) : (
                <pre className="frontmatter" title={h.block} data-testid="frontmatter">
                  {h.block}
                </pre>
              )
            ) : h?.state === 'error' ? (
              <span className="frontmatter danger">{h.reason}</span>
            ) : null,
          )
        })}
      </ul>
      {cutoff && cutoff.dangling.length > 0 && (
        <>
          <h3 className="warn">Dangling links ({cutoff.dangling.length})</h3>
          <ul className="dangling-list" data-testid="dangling-list">
            {shownDangling.map((d) => (
              <li key={d.line}>
                <button
                  className="link"
                  onClick={() => index && onOpen(index.path, d.line)}
                  title={`MEMORY.md line ${d.line} links ${d.target}, which does not exist`}
                >
                  line {d.line}: {d.target}
                </button>
              </li>
            ))}
          </ul>
          {moreDangling}
        </>
      )}
    </div>
  )
}
