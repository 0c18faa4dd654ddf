/**
 * Bad inputs of issue 8 that spoil contents and names: encodings, NUL bytes, broken and
 * explosive frontmatter, escaping imports, broken transcripts, pathological markdown, odd
 * names, escaping symlinks, many files and random bytes.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { transcriptLine } from '../fixture-home'
import { SESSION, type BadInput, mem } from './tree'
import { lines, aliasBomb, PATHOLOGICAL_TEXTS } from './pathological-texts'
import { writeCall } from './plant-helpers'

/** Bad contents and names: readable files whose text or name is hostile. */
export const CONTENT_INPUTS: readonly BadInput[] = [
  {
    id: 'invalid-utf8',
    what: 'MEMORY.md, a topic file and CLAUDE.md with invalid UTF-8 (overlong, lone continuation, truncated sequence)',
    plant: (t) => {
      const bad = Buffer.concat([
        Buffer.from('# Memory\n- [a](a.md) '),
        Buffer.from([0xc0, 0xaf, 0x80, 0xe2, 0x82, 0x0a, 0xff, 0xfe, 0x0a]),
      ])
      writeFileSync(mem(t), bad)
      writeFileSync(mem(t, 'a.md'), bad)
      writeFileSync(join(t.repo, 'CLAUDE.md'), bad)
    },
  },
  {
    id: 'nul-bytes',
    what: 'NUL bytes in MEMORY.md, a topic file, CLAUDE.md and a transcript line',
    plant: (t) => {
      writeFileSync(mem(t), '# Memory\n\u0000- [a](a.md)\n')
      writeFileSync(mem(t, 'a.md'), '---\nname: a\u0000\n---\n\u0000\u0000\n')
      writeFileSync(join(t.repo, 'CLAUDE.md'), '# App\u0000\n@x.md\n')
      writeFileSync(
        t.transcript,
        readFileSync(t.transcript, 'utf8') +
          '{"type":"user","cwd":"/a\u0000b"}\n\u0000\u0000\u0000\n',
        { flag: 'w' },
      )
    },
  },
  {
    id: 'utf16-bom',
    what: 'MEMORY.md in UTF-16 LE with BOM, a topic in UTF-16 BE with BOM, CLAUDE.md in UTF-16 LE with BOM, an odd byte count',
    plant: (t) => {
      const le = (s: string): Buffer =>
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')])
      const be = (s: string): Buffer => {
        const b = Buffer.from(s, 'utf16le')
        b.swap16()
        return Buffer.concat([Buffer.from([0xfe, 0xff]), b])
      }
      writeFileSync(mem(t), le('# Memory\n\n- [Main](main-note.md) — `src/main.ts`\n'))
      writeFileSync(mem(t, 'be.md'), be('---\nname: BE\n---\nbig endian `src/main.ts`\n'))
      writeFileSync(mem(t, 'odd.md'), Buffer.concat([le('odd'), Buffer.from([0x41])]))
      writeFileSync(join(t.repo, 'CLAUDE.md'), le('# App\n@README.md\n'))
    },
  },
  {
    id: 'frontmatter-unclosed',
    what: 'topic files and a rule whose frontmatter opens with --- and never closes; MEMORY.md with unclosed frontmatter',
    plant: (t) => {
      writeFileSync(mem(t), '---\nname: index\n- [Main](main-note.md)\n')
      writeFileSync(
        mem(t, 'main-note.md'),
        '---\nname: Main\ndescription: never closed\n`src/main.ts`\n',
      )
      mkdirSync(join(t.repo, '.claude', 'rules'), { recursive: true })
      writeFileSync(join(t.repo, '.claude', 'rules', 'open.md'), '---\npaths: src/**\n')
    },
  },
  {
    id: 'frontmatter-alias-bomb',
    what: 'billion-laughs YAML in a topic file, in MEMORY.md and in a rule paths frontmatter',
    plant: (t) => {
      const bomb = `---\n${aliasBomb()}\nname: bomb\npaths: *i\n---\n`
      writeFileSync(mem(t), bomb + '- [Main](main-note.md)\n')
      writeFileSync(mem(t, 'main-note.md'), bomb + '`src/main.ts`\n')
      mkdirSync(join(t.repo, '.claude', 'rules'), { recursive: true })
      writeFileSync(join(t.repo, '.claude', 'rules', 'bomb.md'), bomb + 'rule\n')
      writeFileSync(join(t.claudeHome, 'CLAUDE.md'), bomb)
    },
  },
  {
    id: 'frontmatter-weird',
    what: 'frontmatter with YAML tags (!!js/function, !!binary), 20,000 nested brackets, and a 70 KB block',
    plant: (t) => {
      writeFileSync(
        mem(t, 'tags.md'),
        '---\nname: !!js/function "function(){ globalThis.pwned = 1 }"\ndata: !!binary AAAA\n---\nx\n',
      )
      writeFileSync(
        mem(t, 'deep.md'),
        '---\nx: ' + '['.repeat(20_000) + ']'.repeat(20_000) + '\n---\n',
      )
      writeFileSync(
        mem(t, 'huge.md'),
        '---\n' + lines(7000, (i) => `key${i}: value ${i}`) + '---\nbody\n',
      )
      writeFileSync(
        mem(t),
        '# Memory\n' + ['tags', 'deep', 'huge'].map((n) => `- [${n}](${n}.md)`).join('\n') + '\n',
      )
    },
  },
  {
    id: 'imports-escaping',
    what: 'CLAUDE.md importing a file outside the repo, an absolute path, a binary image, itself, a deep chain and ~/ paths',
    plant: (t) => {
      writeFileSync(
        join(t.repo, 'logo.png'),
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      )
      for (let i = 0; i < 12; i++)
        writeFileSync(join(t.repo, `chain${i}.md`), `@chain${i + 1}.md\n`)
      writeFileSync(
        join(t.repo, 'CLAUDE.md'),
        `# App\n\n@../../outside/secret.md\n@${join(t.outside, 'secret.md')}\n@logo.png\n@CLAUDE.md\n@chain0.md\n@~/../../../../etc/hostname\n@./${'../'.repeat(40)}etc/hostname\n@${'a/'.repeat(2000)}x.md\n`,
      )
    },
  },
  {
    id: 'transcript-broken',
    what: 'a transcript with truncated, non-JSON, wrong-typed and half-written lines, and a Write whose fields are wrong types',
    plant: (t) => {
      const good = readFileSync(t.transcript, 'utf8')
      const broken = [
        good.trimEnd(),
        '{"type":"user", this is not json',
        'null',
        '[]',
        '42',
        '"string"',
        '{"type":"assistant","message":{"content":"not an array"}}',
        '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"x","name":"Write","input":{"file_path":42,"content":{}}}]}}',
        '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"y","name":"Edit","input":{"file_path":"' +
          mem(t) +
          '"}}]}}',
        '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"z","name":"MultiEdit","input":{"file_path":"' +
          mem(t) +
          '","edits":"no"}}]}}',
        '{"type":"user","toolUseResult":"Error: failed","message":{"content":[{"type":"tool_result","tool_use_id":"y","is_error":true}]}}',
        '\uFEFF{"type":"user"}',
        '{"type":"user","timestamp":"not a date","cwd":' + JSON.stringify('x'.repeat(10_000)) + '}',
        '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Write","input":{"file_path":"' +
          mem(t),
      ].join('\n')
      writeFileSync(t.transcript, broken)
      writeFileSync(join(t.projectDir, '55555555-5555-4555-8555-555555555555.jsonl'), '')
      writeFileSync(join(t.projectDir, '66666666-6666-4666-8666-666666666666.jsonl'), '\n\n\n{')
    },
  },
  {
    id: 'transcript-gigantic-lines',
    what: 'a transcript with a 12 MB single line (over the line cap) and a 6 MB Write of MEMORY.md, no newline at the end',
    plant: (t) => {
      const huge = JSON.stringify({
        type: 'user',
        sessionId: SESSION,
        cwd: t.repo,
        message: { content: 'x'.repeat(12 * 1024 * 1024) },
      })
      const big = writeCall(mem(t), '- [a](a.md)\n'.repeat(500_000), 'tu-big')
      writeFileSync(t.transcript, readFileSync(t.transcript, 'utf8') + huge + '\n' + big)
    },
  },
  {
    id: 'pathological-markdown',
    what: '50,000 nested brackets, 50,000 emphasis markers, an unclosed <!--, 50,000 backticks and 50,000 @imports in MEMORY.md, topics and CLAUDE.md',
    plant: (t) => {
      const byId = new Map(PATHOLOGICAL_TEXTS.map((p) => [p.id, p.text]))
      writeFileSync(mem(t), byId.get('open-comment')!)
      const topics = [
        'nested-brackets-50k',
        'emphasis-50k',
        'emphasis-mixed',
        'backticks-50k',
        'backtick-runs',
        'links-100k',
        'html-tags',
        'regex-backtrack',
      ]
      for (const id of topics) writeFileSync(mem(t, `${id}.md`), byId.get(id)!)
      writeFileSync(
        join(t.repo, 'CLAUDE.md'),
        byId.get('nested-brackets-50k')! +
          byId.get('emphasis-50k')! +
          byId.get('backticks-50k')! +
          '<!--\n' +
          byId.get('at-imports-50k')!,
      )
    },
  },
  {
    id: 'pathological-index',
    what: 'MEMORY.md of 2,000 entries each with 30 nested brackets, 100,000 links on one line, and 50,000 CR characters',
    plant: (t) => {
      const byId = new Map(PATHOLOGICAL_TEXTS.map((p) => [p.id, p.text]))
      writeFileSync(
        mem(t),
        byId.get('nested-brackets-lines')! + byId.get('links-100k')! + byId.get('crlf-and-cr')!,
      )
    },
  },
  {
    id: 'names-with-newlines',
    what: 'a topic file, a project folder, a transcript cwd and a repo folder whose names hold newlines, tabs and quotes',
    plant: (t) => {
      writeFileSync(mem(t, 'line\nbreak.md'), '---\nname: nl\n---\n`src/main.ts`\n')
      writeFileSync(mem(t, 'tab\tand "quote".md'), 'x\n')
      writeFileSync(mem(t), '# Memory\n- [NL](line%0Abreak.md)\n- [Q](tab\tand "quote".md)\n')
      const odd = join(t.claudeHome, 'projects', '-tmp-new\nline')
      mkdirSync(odd)
      writeFileSync(
        join(odd, `${SESSION}.jsonl`),
        transcriptLine({ cwd: '/tmp/new\nline', sessionId: SESSION }) + '\n',
      )
      mkdirSync(join(odd, 'memory'))
      writeFileSync(join(odd, 'memory', 'MEMORY.md'), '- [x](x.md)\n')
    },
  },
  {
    id: 'names-255-bytes',
    what: 'topic files with 255-byte names (ASCII and 3-byte UTF-8), a 255-byte project folder, a path near PATH_MAX',
    plant: (t) => {
      const ascii = 'n'.repeat(252) + '.md'
      const wide = '\u4e2d'.repeat(84) + '.md' // 84 × 3 + 3 = 255 bytes
      writeFileSync(mem(t, ascii), '`src/main.ts`\n')
      writeFileSync(mem(t, wide), 'wide\n')
      writeFileSync(
        mem(t),
        `# Memory\n- [A](${ascii})\n- [W](${wide})\n- [Too long](${'y'.repeat(300)}.md)\n`,
      )
      const longProject = join(t.claudeHome, 'projects', '-' + 'p'.repeat(254))
      mkdirSync(longProject)
      writeFileSync(
        join(longProject, `${SESSION}.jsonl`),
        transcriptLine({ cwd: '/' + 'p'.repeat(4000), sessionId: SESSION }) + '\n',
      )
      let deep = join(t.memoryDir, 'deep')
      for (let i = 0; i < 15; i++) deep = join(deep, 'd'.repeat(250))
      mkdirSync(deep, { recursive: true })
      writeFileSync(join(deep, 'bottom.md'), 'deep\n')
    },
  },
  {
    id: 'symlinks-escaping',
    what: 'topic files and the memory folder symlinked outside the roots (to the outside folder and /etc)',
    plant: (t) => {
      symlinkSync(join(t.outside, 'secret.md'), mem(t, 'escape.md'))
      symlinkSync('/etc', join(t.memoryDir, 'etc'))
      symlinkSync(t.outside, join(t.memoryDir, 'outside'))
      writeFileSync(
        mem(t),
        '# Memory\n- [E](escape.md)\n- [P](etc/passwd)\n- [S](outside/secret.md)\n- [U](../../../../../../etc/passwd)\n',
      )
    },
  },
  {
    id: 'many-files',
    what: '10,001 empty topic files (one over the listing cap) and 1,000 empty transcripts',
    plant: (t) => {
      for (let i = 0; i < 10_001; i++) writeFileSync(mem(t, `t${i}.md`), '')
      for (let i = 0; i < 1000; i++)
        writeFileSync(
          join(t.projectDir, `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000.jsonl`),
          '',
        )
    },
  },
  {
    id: 'binary-everything',
    what: 'random bytes as MEMORY.md, topic, transcript, CLAUDE.md, AGENTS.md and a Codex AGENTS.md',
    plant: (t) => {
      let seed = 12345
      const rnd = (n: number): Buffer => {
        const b = Buffer.alloc(n)
        for (let i = 0; i < n; i++) {
          seed = (seed * 1103515245 + 12345) & 0x7fffffff
          b[i] = seed & 0xff
        }
        return b
      }
      for (const p of [
        mem(t),
        mem(t, 'rnd.md'),
        t.transcript,
        join(t.repo, 'CLAUDE.md'),
        join(t.repo, 'AGENTS.md'),
        join(t.codexHome, 'AGENTS.md'),
      ]) {
        writeFileSync(p, rnd(64 * 1024))
      }
    },
  },
]
