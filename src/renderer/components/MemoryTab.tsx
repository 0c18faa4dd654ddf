/** The project's memory files: MEMORY.md with its cutoff, and each topic file. */
import { useState } from 'react'
import type { ProjectInfo } from '../../shared/limits'
import { MemoryFileView } from './MemoryFileView'

export function MemoryTab({ project }: { project: ProjectInfo }) {
  const index = project.memoryFiles.find((f) => f.role === 'index')
  const [openPath, setOpenPath] = useState<string | null>(index?.path ?? project.memoryFiles[0]?.path ?? null)
  if (project.memoryFiles.length === 0) return <p className="empty">This project has no memory files.</p>
  return (
    <div className="files-and-editor">
      <ul className="file-tabs" role="tablist" aria-label="Memory files">
        {project.memoryFiles.map((f) => (
          <li key={f.path}>
            <button
              role="tab"
              aria-selected={f.path === openPath}
              className={f.path === openPath ? 'tab active' : 'tab'}
              onClick={() => setOpenPath(f.path)}
              title={f.path}
            >
              {f.path.slice((project.memoryDir?.length ?? 0) + 1)}
              <span className="tab-meta">{f.lines} lines</span>
            </button>
          </li>
        ))}
      </ul>
      {openPath && <MemoryFileView key={openPath} path={openPath} isIndex={openPath === index?.path} />}
    </div>
  )
}
