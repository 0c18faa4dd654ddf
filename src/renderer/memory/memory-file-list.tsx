/**
 * The memory folder's files beside the open one: MEMORY.md, each topic file with the
 * `name`, `description` and `type` of its frontmatter shown as fields (docs/memory-rules.md §2.6
 * "Index format"; issue 15 item 17: a raw preview was cut mid-line), orphans and dangling links
 * flagged (from the index's cutoff). The fields come parsed with the scan (memory-folder-scan.ts).
 * A real folder has a hundred topic files or more: they are drawn a window at a time (issue 15
 * item 6), each row one fixed height.
 */
import { useShowMore } from '../common/show-more'
import { VirtualList } from '../common/virtual-list'
import { countOf, formatBytes, formatNumber } from '../common/format'
import type { ReactNode } from 'react'
import type { CutoffResult, MemoryFileInfo, ProjectInfo } from '../../shared/model'

/** Height of a topic file's row (memory.css `.topic-row` must match). */
const TOPIC_ROW = 94

function Fields({ f }: { f: MemoryFileInfo }) {
  const fm = f.frontmatter
  if (fm === undefined) return null
  if (fm === null || (!fm.name && !fm.description && !fm.type)) {
    return <span className="frontmatter missing">no frontmatter fields</span>
  }
  return (
    <span className="fm-fields" data-testid="frontmatter">
      <span className="fm-line">
        {fm.name && (
          <span className="fm-name" title={`name: ${fm.name}`} data-testid="fm-name">
            {fm.name}
          </span>
        )}
        {fm.type && (
          <span className="badge fm-type" title="type" data-testid="fm-type">
            {fm.type}
          </span>
        )}
      </span>
      {fm.description && (
        <span
          className="fm-description"
          title={`description: ${fm.description}`}
          data-testid="fm-description"
        >
          {fm.description}
        </span>
      )}
    </span>
  )
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
  const orphans = new Set(cutoff?.orphans ?? [])
  const [shownDangling, moreDangling] = useShowMore(cutoff?.dangling ?? NONE, 'more-dangling')
  const rel = (p: string) =>
    project.memoryDir && p.startsWith(project.memoryDir) ? p.slice(project.memoryDir.length + 1) : p
  const item = (f: MemoryFileInfo, children?: ReactNode, className?: string) => (
    <li key={f.path} className={className}>
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
          {countOf(f.lines, 'line')} · {formatBytes(f.bytes)}
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
      <h3>Topic files ({formatNumber(topics.length)})</h3>
      {topics.length === 0 && <p className="muted small">None.</p>}
      {topics.length > 0 && (
        <VirtualList
          items={topics}
          rowHeight={TOPIC_ROW}
          className="topic-list"
          aria-label="Topic files"
          testId="topic-list"
          renderRow={(f) => item(f, <Fields f={f} />, 'topic-row')}
        />
      )}
      {cutoff && cutoff.dangling.length > 0 && (
        <>
          <h3 className="warn">Dangling links ({formatNumber(cutoff.dangling.length)})</h3>
          <ul className="dangling-list" data-testid="dangling-list">
            {shownDangling.map((d) => (
              <li key={d.line}>
                <button
                  className="link"
                  onClick={() => index && onOpen(index.path, d.line)}
                  title={`MEMORY.md line ${formatNumber(d.line)} links ${d.target}, which does not exist`}
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
