/** Files that could not be read, each with why: the one list every view shows its problems in. */
import type { Problem } from '../../shared/model'
import { codeTooltip, isProblemCode, problemText } from './wording'

export function ProblemList({
  problems,
  className = 'problems',
  testId,
  alert = false,
}: {
  problems: readonly Problem[]
  className?: string
  testId?: string
  /** Announce the list (role="alert") when it appears. */
  alert?: boolean
}) {
  if (problems.length === 0) return null
  return (
    <ul className={className} role={alert ? 'alert' : undefined} data-testid={testId}>
      {problems.map((p) => (
        <li key={p.path + p.reason}>
          <code>{p.path}</code>:{' '}
          <span title={isProblemCode(p.reason) ? codeTooltip(p.reason) : undefined}>
            {problemText(p.reason)}
          </span>
        </li>
      ))}
    </ul>
  )
}
