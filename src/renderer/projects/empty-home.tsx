/**
 * What the window shows before Claude Code has written any memory (issue 14): where it will
 * appear, and that it will appear on its own, without a restart.
 */
import type { ScanResult } from '../../shared/model'
import { formatNumber } from '../common/format'

export function EmptyHome({ claudeHome, scan }: { claudeHome: string | null; scan: ScanResult }) {
  const sessionsOnly = scan.projects.length
  return (
    <div className="empty empty-home" data-testid="empty-home" role="status">
      <h2>No memory written yet</h2>
      <p>
        Claude Code keeps its auto memory in{' '}
        <code>{claudeHome ? `${claudeHome}/projects/` : 'projects/'}&lt;project&gt;/memory/</code>:
        a <code>MEMORY.md</code> index and one topic file per note. None exists in this home yet
        {sessionsOnly > 0
          ? ` (${formatNumber(sessionsOnly)} project${sessionsOnly === 1 ? ' has' : 's have'} sessions but no memory)`
          : ''}
        .
      </p>
      <p>
        As soon as a session saves a note, its project appears here without a restart, with the line
        where loading stops, the entries that fall below it, and each note beside the code it
        describes.
      </p>
      <p className="hint">
        Auto memory is off when <code>autoMemoryEnabled</code> is <code>false</code> in Claude
        Code’s settings or <code>CLAUDE_CODE_DISABLE_AUTO_MEMORY=1</code> is set. The Instructions
        view works without memory.
      </p>
    </div>
  )
}
