/**
 * A MEMORY.md shaped like a real one a person sent (issue 15): 249 lines, 128 entries under 19
 * `##` headings, a blank line after most entries (about 120 of the lines are blank or headings),
 * Korean and English text, 3 exact duplicates, 2 entries linking a topic file an earlier entry
 * links, 6 entries whose topic files are gone, a few long entries, and about 115 topic files (some with no entry).
 * Deterministic: the same text on every call.
 */

export interface RealMemory {
  readonly text: string
  /** Topic files present, by name, with their text. */
  readonly topics: ReadonlyMap<string, string>
  /** Names linked by entries whose topic file is missing. */
  readonly missing: readonly string[]
}

const KOREAN = [
  '배포 전에 마이그레이션을 먼저 실행한다',
  '테스트는 임시 폴더에서만 실행한다',
  '결제 재시도는 전송 오류에만 적용한다',
  '로그에는 토큰을 남기지 않는다',
  '빌드 캐시는 매주 비운다',
]
const LONG_TAIL =
  ' 자세한 배경: 지난 분기에 두 번의 장애가 있었고, 두 번 모두 같은 원인이었다. The fix took three days; keep the checklist in the topic file and read it before every release, including hotfixes and rollbacks.'

function topicText(name: string, title: string, hook: string): string {
  return [
    '---',
    `name: ${title}`,
    `description: ${hook.slice(0, 80)}`,
    'type: project',
    '---',
    '',
    hook,
    '',
    '**Why:** it broke once.',
    '',
    '**How to apply:** check before each release.',
    '',
  ].join('\n')
}

/** Build the index and its topic files. */
export function realMemory(): RealMemory {
  const lines: string[] = ['# 프로젝트 메모리 (project memory)', '']
  const topics = new Map<string, string>()
  const missing: string[] = []
  let n = 0
  // 128 entries: 81 followed by a blank line (loose sections), 47 not (tight ones).
  let loose = 81
  const perSection = [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 7]
  perSection.forEach((count, s) => {
    lines.push(`## ${s % 2 === 0 ? `섹션 ${s + 1}` : `Section ${s + 1}`}`, '')
    for (let k = 0; k < count; k++) {
      n++
      const korean = n % 3 === 0
      const title = korean ? `${KOREAN[n % KOREAN.length].slice(0, 8)} ${n}` : `Note ${n}`
      let name = `topic-${n}.md`
      let hook = korean
        ? `${KOREAN[n % KOREAN.length]} (${n})`
        : `keep rule ${n} in mind when editing`
      if (n % 17 === 0) hook += LONG_TAIL
      let line = `- [${title}](${name}) — ${hook}`
      const copies: Record<number, number> = { 40: 10, 90: 55, 121: 91 }
      if (copies[n] !== undefined) {
        // An exact duplicate of an earlier entry (a session appended it again).
        line = lines.find((l) => l.includes(`(topic-${copies[n]}.md)`)) as string
        name = ''
      } else if ([60, 100].includes(n)) {
        // Another entry for an earlier entry's topic file, in other words.
        line = `- [${title}](topic-${n - 21}.md) — again: ${hook}`
        name = ''
      } else if ([25, 50, 75, 110, 125, 127].includes(n)) {
        missing.push(name)
        name = ''
      }
      if (name !== '') topics.set(name, topicText(name, title, hook))
      lines.push(line)
      if (loose > 0 && (k % 3 !== 2 || s < 6)) {
        lines.push('')
        loose--
      }
    }
  })
  while (lines.length > 249 && lines[lines.length - 1] === '') lines.pop()
  // A few topic files no entry links (orphans), as in the real folder.
  for (let k = 1; k <= 3; k++)
    topics.set(`extra-${k}.md`, topicText('', `Extra ${k}`, `extra ${k}`))
  return { text: `${lines.join('\n')}\n`, topics, missing }
}
