import { describe, expect, it } from 'vitest'
import { sectionMembers } from '../../../../src/core/audit/section-members'
import { settingLiterals, valueClaims } from '../../../../src/core/audit/stated-values'
import { normaliseLines, quotedCode } from '../../../../src/core/audit/snippet-match'
import { extractReferences } from '../../../../src/core/audit/references'

describe('sectionMembers', () => {
  it('takes the bold or back-ticked first cells under a heading naming one folder', () => {
    const text = [
      '## Skills (`.claude/skills/`)',
      '',
      '| Skill | When |',
      '|---|---|',
      '| **php-pro** | PHP |',
      '| `mysql` | SQL |',
      '| plain | not marked |',
      '',
      '## Other',
      '| **later** | x |',
      '| **more** | y |',
    ].join('\n')
    expect(sectionMembers(text)).toEqual([
      { folder: '.claude/skills/', items: ['php-pro', 'mysql'] },
    ])
  })

  it('needs one folder in the heading and two entries', () => {
    expect(sectionMembers('## Skills\n| **a-b** | x |\n| **c-d** | y |')).toEqual([])
    expect(sectionMembers('## In `a/` and `b/`\n- **x** one\n- **y** two')).toEqual([])
    expect(sectionMembers('## In `a/`\n- **x** one')).toEqual([])
    expect(sectionMembers('## In `lib/`\n- **x** — one\n- `y`: two')).toEqual([
      { folder: 'lib/', items: ['x', 'y'] },
    ])
  })
})

describe('settingLiterals', () => {
  it('gives the quoted literal of a back-ticked setting, not words any code holds', () => {
    expect(
      settingLiterals(
        "Old rows have `activityType: 'findthecenter'` or `mode = \"strict\"`; `flag: true`, `x: 'ab'`, `on: 'true'`",
      ),
    ).toEqual(['findthecenter', 'strict'])
  })
})

describe('values a drawing states', () => {
  it('reads a folder tree’s lines as sentences', () => {
    const claims = valueClaims('```\napps/\n├── platform/   Next.js admin (port 3002)\n```')
    expect(claims.map((c) => c.value)).toContain('3002')
    expect(valueClaims('```js\nlisten(3002)\n```')).toEqual([])
  })
})

describe('a quote’s own remarks', () => {
  it('drops a comment after a statement and a line that only elides', () => {
    expect(quotedCode('  await sweep(id, config);  // write side effect')).toBe(
      'await sweep(id, config);',
    )
    expect(quotedCode('x = f(a)  # note')).toBe('x = f(a)')
    expect(quotedCode("fetch('http://x.io/a')")).toBe("fetch('http://x.io/a')")
    expect(normaliseLines('a();\n// ...\n# …\n/* ... */\nb();').map((l) => l.text)).toEqual([
      'a();',
      'b();',
    ])
  })
})

describe('a plugin’s slash command', () => {
  it('is its skill or command file at the root or under plugins/<plugin>/, example or not', () => {
    const paths = extractReferences(
      'Invoke it as `/adam:<skill>` (e.g. `/adam:pin-actions-to-sha`)',
    ).flatMap((r) => (r.kind === 'path' ? [r.path] : []))
    expect(paths).toContain('plugins/adam/skills/pin-actions-to-sha/SKILL.md')
    expect(paths).toContain('skills/pin-actions-to-sha/SKILL.md')
    expect(paths.some((p) => p.includes('<skill>'))).toBe(false)
  })
})

describe('an element in back-ticks', () => {
  it('names its component, not a quote to find', () => {
    const refs = extractReferences(
      'Help comes from `<FeatureHelp slug="filename" anchorId="a" />` and `<Tabs.Panel>`',
    )
    expect(refs.map((r) => (r.kind === 'symbol' ? r.name : r.kind))).toEqual([
      'FeatureHelp',
      'Tabs.Panel',
    ])
  })
})

describe('a block whose strings hold placeholders', () => {
  it('is a template, not a quote; markup in strings is not a placeholder', () => {
    const template = '```go\nvar (\n    ErrNotFound = errors.New("<module> not found")\n)\n```'
    expect(extractReferences(template).some((r) => r.kind === 'snippet')).toBe(false)
    const markup = '```js\nel.innerHTML = "<div>hi</div>"\nrender(el)\n```'
    expect(extractReferences(markup).some((r) => r.kind === 'snippet')).toBe(true)
  })
})
