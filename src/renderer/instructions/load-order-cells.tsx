/**
 * Pieces both load-order sections use: a file that opens read-only (indented under the file that
 * imports it), a measure against an advised limit, and the list of files that do not load.
 */
import type { ClaudeStartupFile } from '../../shared/model'
import { formatNumber } from '../common/format'
import { codeTooltip, isProblemCode, problemText } from '../common/wording'

export const fmt = (n: number): string => formatNumber(n)

/** A path as a person reads it here: relative to the launch directory when inside it. */
export function shortPath(p: string, cwd: string): string {
  const d = cwd.replace(/[\\/]+$/, '')
  return p.startsWith(d + '/') ? `./${p.slice(d.length + 1)}` : p
}

/** How deep each start-up file sits in the `@import` tree (0 = loaded in its own right). */
export function importDepths(files: readonly ClaudeStartupFile[]): number[] {
  const byPath = new Map(files.map((f) => [f.path, f]))
  return files.map((f) => {
    let depth = 0
    let at: ClaudeStartupFile | undefined = f
    while (at?.importedBy && depth < 16) {
      depth++
      at = byPath.get(at.importedBy)
    }
    return depth
  })
}

export function FileLink({
  path,
  cwd,
  onOpen,
  depth = 0,
}: {
  path: string
  cwd: string
  onOpen: (p: string) => void
  depth?: number
}) {
  return (
    <button
      className="link file-link"
      style={{ paddingLeft: depth * 18 }}
      onClick={() => onOpen(path)}
      title={`Open ${path} (read-only)`}
    >
      {depth > 0 && (
        <span className="tree-mark" aria-hidden="true">
          └@{' '}
        </span>
      )}
      {shortPath(path, cwd)}
    </button>
  )
}

export function Measure({ value, max, unit }: { value: number; max: number; unit: string }) {
  const over = value > max
  return (
    <span
      className={over ? 'measure over' : 'measure'}
      title={over ? `Over the advised ${fmt(max)} ${unit}` : `Advised at most ${fmt(max)} ${unit}`}
    >
      {fmt(value)}
      <span className="muted"> / {fmt(max)}</span>
      {over && ' ⚠'}
    </span>
  )
}

/** Files that were found but do not load, each with why. */
export function NotLoadedList({
  title,
  testId,
  items,
  cwd,
}: {
  title: string
  testId: string
  items: readonly { path: string; reason: string; detail?: string }[]
  cwd: string
}) {
  if (items.length === 0) return null
  return (
    <>
      <h3>{title}</h3>
      <ul className="plain-list" data-testid={testId}>
        {items.map((s) => (
          <li key={s.path + s.reason}>
            <code title={s.path}>{shortPath(s.path, cwd)}</code> —{' '}
            <span
              title={isProblemCode(s.reason) ? codeTooltip(s.reason, s.detail) : undefined}
              data-code={isProblemCode(s.reason) ? s.reason : undefined}
            >
              {problemText(s.reason)}
            </span>
          </li>
        ))}
      </ul>
    </>
  )
}
