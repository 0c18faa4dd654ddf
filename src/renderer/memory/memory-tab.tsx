/**
 * The memory workspace of a project: the folder's files on the left (index, topic files
 * with their frontmatter, orphans and dangling links), the open file on the right
 * (MEMORY.md with its load cutoff), previewed edits, and the undo history.
 */
import { useCallback, useEffect, useState } from 'react'
import type { CutoffResult, ProjectInfo } from '../../shared/model'
import { getApi } from '../api/api-client'
import { MemoryFileView } from './memory-file-view'
import { MemoryFileList } from './memory-file-list'
import { PlanDialog, type PlanAction } from './plan-dialog'
import { FitDialog } from './fit-dialog'
import { UndoHistoryButton } from '../common/undo-history'
import './memory.css'
import { ErrorBar } from '../common/error-bar'
import { useStore } from '../state/store'
import { appStore } from '../state/app-state'

/** The index's cutoff, re-read when the folder changes on disk or `refresh` changes. */
function useCutoff(indexPath: string | null, memoryDir: string | null, refresh: number) {
  const [cutoff, setCutoff] = useState<CutoffResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (!indexPath) {
      setCutoff(null)
      return
    }
    let live = true
    const api = getApi()
    const load = () =>
      api.cutoff(indexPath).then(
        (c) => {
          if (!live) return
          setCutoff(c)
          setError(null)
        },
        (e: Error) => live && setError(`${indexPath}: ${e.message}`),
      )
    void load()
    const off = api.onDidChange((e) => {
      // Topic files count too: adding or removing one changes orphans and dangling links.
      if (
        e.paths.length === 0 ||
        e.paths.some((p) => p === indexPath || (memoryDir !== null && p.startsWith(memoryDir)))
      )
        void load()
    })
    return () => {
      live = false
      off()
    }
  }, [indexPath, memoryDir, refresh])
  return { cutoff, error }
}

export function MemoryTab({ project }: { project: ProjectInfo }) {
  const index = project.memoryFiles.find((f) => f.role === 'index') ?? null
  const [open, setOpen] = useState<{ path: string; line?: number; nonce: number } | null>(() => {
    const first = index?.path ?? project.memoryFiles[0]?.path
    return first ? { path: first, nonce: 0 } : null
  })
  // A search result (search/search-palette.tsx) opens its file at its line.
  const reveal = useStore(appStore, (s) => s.reveal)
  useEffect(() => {
    if (reveal?.projectId === project.id)
      setOpen({ path: reveal.file, line: reveal.line, nonce: 1000 + reveal.nonce })
  }, [reveal, project.id])
  const [refresh, setRefresh] = useState(0)
  const [action, setAction] = useState<PlanAction | null>(null)
  const [fitting, setFitting] = useState(false)
  const { cutoff, error } = useCutoff(index?.path ?? null, project.memoryDir, refresh)
  const bump = useCallback(() => setRefresh((n) => n + 1), [])

  // The open file may vanish (deleted, undone creation): fall back to the index.
  const openPath =
    open && project.memoryFiles.some((f) => f.path === open.path)
      ? open.path
      : (index?.path ?? null)

  if (project.memoryFiles.length === 0) {
    return (
      <div className="workspace-empty">
        <p className="empty">
          {project.memoryDir
            ? `The memory folder ${project.memoryDir} holds no markdown files.`
            : 'This project has no memory folder.'}
          {project.repoRoot &&
            project.cwds.length > 0 &&
            !project.cwds.includes(project.repoRoot) &&
            ` Sessions launched here write their memory under the main worktree (${project.repoRoot}).`}
        </p>
        <div className="toolbar">
          <UndoHistoryButton onChanged={bump} />
        </div>
      </div>
    )
  }

  return (
    <div className="workspace" data-testid="memory-workspace">
      <aside className="ws-files" aria-label="Memory files">
        <div className="toolbar">
          <UndoHistoryButton onChanged={bump} />
        </div>
        <MemoryFileList
          project={project}
          cutoff={cutoff}
          openPath={openPath}
          onOpen={(path, line) => setOpen((o) => ({ path, line, nonce: (o?.nonce ?? 0) + 1 }))}
        />
      </aside>
      <div className="ws-main">
        <ErrorBar message={error} />
        {openPath && (
          <MemoryFileView
            key={openPath}
            path={openPath}
            isIndex={openPath === index?.path}
            cutoff={openPath === index?.path ? cutoff : null}
            reveal={
              open && open.path === openPath && open.line
                ? { line: open.line, nonce: open.nonce }
                : null
            }
            refresh={refresh}
            onPlan={setAction}
            onFit={() => setFitting(true)}
          />
        )}
      </div>
      {action && (
        <PlanDialog
          action={action}
          onClose={() => setAction(null)}
          onApplied={() => {
            setAction(null)
            bump()
          }}
          onFit={() => {
            setAction(null)
            setFitting(true)
          }}
        />
      )}
      {fitting && index && (
        <FitDialog file={index.path} onClose={() => setFitting(false)} onApplied={bump} />
      )}
    </div>
  )
}
