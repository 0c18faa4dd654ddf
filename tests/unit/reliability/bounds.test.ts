/**
 * Size bounds and linear work (issue 11, item 8; docs/reliability.md): one line of input must
 * not crash or freeze the back end. Work is counted in steps, never timed.
 */
import { describe, expect, it } from 'vitest'
import { findCodeSpans, type CodeSpan, type WorkMeter } from '../../../src/core/audit/code-spans'
import {
  GIT_PATH_MAX_CHARS,
  GIT_PATH_MAX_COMPONENTS,
  REPLAY_MAX_CHARS,
} from '../../../src/core/limits'
import { parseIndexEntries } from '../../../src/core/memory/index-entries'
import { extractReferences } from '../../../src/core/audit/references'
import { applyWrite, replayWrites, type ReplayStep } from '../../../src/core/transcripts/replay'
import { candidatePaths } from '../../../src/core/audit/repo-paths'
import { checkReference } from '../../../src/core/audit/check-reference'
import {
  backtickFlood,
  deepPath,
  REPLAY_BOMB_EDITS,
  replayBombInput,
} from '../../helpers/bad-inputs/pathological-texts'

const SIZES = [10_000, 20_000, 40_000, 80_000] as const

describe('replay: the result length is known before it is built', () => {
  const bomb = replayBombInput()
  const steps: ReplayStep[] = [
    {
      sessionId: 's1',
      timestamp: '2026-03-03T10:00:00.000Z',
      input: { tool: 'Write', content: 'x\n' },
      status: 'ok',
      originalFile: null,
    },
    {
      sessionId: 's1',
      timestamp: '2026-03-03T10:00:02.000Z',
      input: {
        tool: 'MultiEdit',

        edits: bomb.edits.map((e) => ({
          oldString: e.old_string,
          newString: e.new_string,
          replaceAll: e.replace_all,
        })),
      },
      status: 'ok',
      originalFile: null,
    },
  ]

  it('a 4 KB MultiEdit of 40 replace_all x→xx edits is a problem with its reason, not a crash', () => {
    expect(JSON.stringify(bomb).length).toBeLessThan(4096)
    const r = replayWrites(steps)
    expect(r.outcomes[0]).toEqual({ kind: 'applied', exact: true })
    // 2^k characters after edit k; the first edit past the limit is refused before building it.
    let first = 1
    while (2 ** first + 1 <= REPLAY_MAX_CHARS) first++
    expect(first).toBeLessThan(REPLAY_BOMB_EDITS)
    expect(r.outcomes[1]).toEqual({
      kind: 'cannot-apply',
      reason: `edit ${first} of ${REPLAY_BOMB_EDITS}: the result would be ${(2 ** first + 1).toLocaleString('en')} characters, over the replay limit of ${REPLAY_MAX_CHARS.toLocaleString('en')}; not replayed`,
    })
    expect(r.final?.text).toBe('x\n')
  })

  it('the limit holds for every way an edit grows the text', () => {
    const big = 'y'.repeat(REPLAY_MAX_CHARS - 1)
    // A Write past the limit, an Edit that crosses it by one character, a CRLF file whose LF
    // form fits but whose CRLF form would not.
    expect(applyWrite(null, { tool: 'Write', content: `${big}zz` })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/over the replay limit/),
    })
    expect(
      applyWrite(`${big}z`, {
        tool: 'Edit',

        edit: { oldString: 'z', newString: 'zz', replaceAll: false },
      }),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/^the result would be/) })
    expect(
      applyWrite(`${big}z`, {
        tool: 'Edit',

        edit: { oldString: 'yz', newString: 'y', replaceAll: false },
      }),
    ).toEqual({ ok: true, text: big })
    const lines = 'a\r\n'.repeat(Math.floor(REPLAY_MAX_CHARS / 3))
    expect(
      applyWrite(lines, {
        tool: 'Edit',

        edit: { oldString: 'a\nQ', newString: 'b', replaceAll: false },
      }),
    ).toMatchObject({ ok: false, reason: 'old_string not found in the replayed text' })
    expect(
      applyWrite(lines, {
        tool: 'Edit',

        edit: { oldString: 'a\n', newString: 'a\n\n', replaceAll: true },
      }),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/over the replay limit/) })
  })
})

/** The spans of `s` by the rule itself, trying every run in order: the reference for the fast scan. */
function naiveSpans(s: string, escapes: boolean): CodeSpan[] {
  const out: CodeSpan[] = []
  let i = 0
  while (i < s.length) {
    if (escapes && s[i] === '\\') {
      i += 2
      continue
    }
    if (s[i] !== '`') {
      i++
      continue
    }
    let n = 0
    while (s[i + n] === '`') n++
    let j = i + n
    let close = -1
    while (j < s.length) {
      if (s[j] !== '`') {
        j++
        continue
      }
      let m = 0
      while (s[j + m] === '`') m++
      if (m === n) {
        close = j
        break
      }
      j += m
    }
    if (close === -1) {
      i += n
      continue
    }
    out.push({ start: i, end: close + n, contentStart: i + n, contentEnd: close })
    i = close + n
  }
  return out
}

/** Texts whose code spans were costly: each of n characters. */
const SHAPES: Record<string, (n: number) => string> = {
  'a flood after text': (n) => backtickFlood(n).slice(0, n),
  'runs of growing length, none closed': (n) => {
    let s = 'x'
    for (let k = 1; s.length < n; k++) s += `${'`'.repeat(k)} `
    return s.slice(0, n)
  },
  'one opener never closed, then pairs': (n) => `x \`\` ${'`a` '.repeat(n)}`.slice(0, n),
  'escaped backticks': (n) => '\\`a'.repeat(n).slice(0, n),
  'backslashes and lone ticks': (n) => '\\\\ ` '.repeat(n).slice(0, n),
}

describe('code spans: linear work, same spans as the rule', () => {
  it('agrees with the one-run-at-a-time rule on 3,000 random texts', () => {
    let seed = 7
    const rnd = (k: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % k
    }
    const alphabet = ['`', '`', '`', 'a', ' ', '\\', '\n']
    let spans = 0
    for (let t = 0; t < 3000; t++) {
      const s = Array.from({ length: 1 + rnd(60) }, () => alphabet[rnd(alphabet.length)]).join('')
      for (const escapes of [false, true]) {
        const fast = findCodeSpans(s, { escapes })
        expect(fast, JSON.stringify(s)).toEqual(naiveSpans(s, escapes))
        spans += fast.length
      }
    }
    expect(spans).toBeGreaterThan(1000)
  })

  it.each(Object.entries(SHAPES))('%s: steps grow linearly at 10k/20k/40k/80k', (_name, shape) => {
    const steps = SIZES.map((n) => {
      const meter: WorkMeter = { steps: 0 }
      findCodeSpans(shape(n), { meter })
      findCodeSpans(shape(n), { meter, escapes: true })
      return meter.steps
    })
    // Linear: the same small number of steps per character at every size (both passes
    // together), so doubling the input about doubles the work. A quadratic scan fails both.
    SIZES.forEach((n, k) => expect(steps[k] / n, `${n} characters`).toBeLessThan(6))
    for (let k = 1; k < SIZES.length; k++) expect(steps[k] / steps[k - 1]).toBeLessThan(2.5)
  })

  it('the parsers built on it give the same answer at every size', () => {
    for (const n of SIZES) {
      const flood = backtickFlood(n)
      expect(extractReferences(flood)).toEqual([])
      const entries = parseIndexEntries(`- [Note](note.md) — ${flood}`)
      expect(entries.map((e) => e.target)).toEqual(['note.md'])
    }
  })
})

describe('paths sent to git are bounded', () => {
  const facts = {
    root: '/r',
    exists: () => false,
  } as unknown as Parameters<typeof checkReference>[1]

  it('an 80 KB a/a/a… path and a 300-component one are reported, never looked up', () => {
    const long = deepPath(40_000)
    const many = deepPath(300)
    expect(long.length).toBeGreaterThan(80_000)
    expect(many.length).toBeLessThan(GIT_PATH_MAX_CHARS)
    for (const [path, why] of [
      [
        long,
        `is ${long.length.toLocaleString('en')} characters long, over the 4,096 a path can have`,
      ],
      [many, `has over ${GIT_PATH_MAX_COMPONENTS} path components`],
    ] as const) {
      // Nothing to look up: the audit asks git and the disk only about candidates.
      expect(candidatePaths(path, '/r', '/r/docs')).toBeNull()
      expect(
        checkReference({ kind: 'path', text: path, path, line: null, dir: false }, facts, null),
      ).toEqual({
        skipped: `\`${path.slice(0, 60)}…\` ${why}; not checked`,
      })
    }
    // Right at the bounds a path is still looked up.
    expect(candidatePaths(deepPath(GIT_PATH_MAX_COMPONENTS - 1), '/r', null)).toHaveLength(1)
  })

  it('extraction finds the long path in a note: the bound is what keeps it from git', () => {
    const refs = extractReferences(`See \`${deepPath(40_000)}\` for details.`)
    expect(refs.map((r) => r.kind)).toEqual(['path'])
  })
})
