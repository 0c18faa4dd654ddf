/** One project: where it was launched, its problems, and its memory files. */
import { useState } from 'react'
import type { ProjectInfo } from '../../core/model'
import { MemoryFileView } from './MemoryFileView'

export function ProjectView({ project }: { project: ProjectInfo }) {
  const index = project.memoryFiles.find((f) => f.role === 'index')
  const [openPath, setOpenPath] = useState<string | null>(index?.path ?? project.memoryFiles[0]?.path ?? null)
  return (
    <section className="project-view" aria-label={`Project ${project.name}`}>
      <div className="project-head">
        <h1>{project.name}</h1>
        <dl>
          <dt>Launched in</dt>
          <dd>{project.cwds.length ? project.cwds.join(', ') : 'unknown (no transcript names a cwd)'}</dd>
          {project.repoRoot && (
            <>
              <dt>Repository</dt>
              <dd>{project.repoRoot}</dd>
            </>
          )}
          <dt>Memory</dt>
          <dd>{project.memoryDir ?? 'no memory folder'}</dd>
        </dl>
        {project.problems.length > 0 && (
          <ul className="problems" data-testid="project-problems">
            {project.problems.map((p) => (
              <li key={p.path + p.reason}>
                <code>{p.path}</code>: {p.reason}
              </li>
            ))}
          </ul>
        )}
      </div>
      {project.memoryFiles.length > 0 ? (
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
                  <span className="tab-meta">
                    {f.lines} lines
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {openPath && <MemoryFileView key={openPath} path={openPath} isIndex={openPath === index?.path} />}
        </div>
      ) : (
        <p className="empty">This project has no memory files.</p>
      )}
    </section>
  )
}
