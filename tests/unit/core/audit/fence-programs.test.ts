/** The programs a note's shell blocks run (src/core/audit/fence-programs.ts; blind set CG). */
import { describe, expect, it } from 'vitest'
import { fencePrograms } from '../../../../src/core/audit/fence-programs'

describe('fencePrograms', () => {
  it('takes each command’s program, through runners, prompts and env assignments', () => {
    const note = [
      '```bash',
      '$ black . --exclude venv',
      'uv run isort . && python -m pytest -q',
      'CI=1 npx eslint src | tee out.txt',
      '# flake8 is no longer run',
      '```',
    ].join('\n')
    expect(fencePrograms(note)).toEqual(['black', 'isort', 'pytest', 'eslint', 'tee'])
  })

  it('reads shell blocks only', () => {
    expect(fencePrograms('```python\nblack = 1\n```\nRun black on the code.')).toEqual([])
  })
})
