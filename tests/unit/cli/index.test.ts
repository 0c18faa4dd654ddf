/**
 * Start-up of the built command line (issue 16), read from the bundle's import graph: the
 * entry loads only the argument parser (no src/node module, no package, no `node:net`), each
 * command is a chunk of its own loaded by a dynamic import, dependencies are bundled (every
 * remaining import is a Node built-in), and nothing Electron-only is in any chunk. No timing:
 * the times are in `npm run bench` (docs/performance.md).
 */
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const OUT = resolve('out/cli')
const ENTRY = join(OUT, 'index.js')
const built = existsSync(ENTRY)

/** Static imports of a built module (`import … from "x"`, `import "x"`), in order. */
function staticImports(file: string): string[] {
  const code = readFileSync(file, 'utf8')
  return [...code.matchAll(/^import\s(?:[^'"]*?\sfrom\s)?["']([^"']+)["'];?$/gm)].map((m) => m[1])
}

/** Dynamic `import("x")` specifiers of a built module. */
function dynamicImports(file: string): string[] {
  const code = readFileSync(file, 'utf8')
  return [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1])
}

/** Every file loaded before any code of `entry` runs, and the bare specifiers they import. */
function startupGraph(entry: string): { files: string[]; bare: string[] } {
  const files = new Set<string>()
  const bare = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const f = queue.pop() as string
    if (files.has(f)) continue
    files.add(f)
    for (const s of staticImports(f)) {
      if (s.startsWith('.')) queue.push(join(dirname(f), s))
      else bare.add(s)
    }
  }
  return { files: [...files], bare: [...bare] }
}

/** The source files a built module was made from (its source map), relative to the checkout. */
function sourcesOf(file: string): string[] {
  const map = `${file}.map`
  if (!existsSync(map)) return []
  const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }
  return sources.map((s) => resolve(dirname(file), s).slice(resolve('.').length + 1))
}

const chunks = built ? readdirSync(OUT).filter((f) => f.endsWith('.js')) : []

describe.skipIf(!built)('the built CLI (skipped when out/cli is not built: npm run build)', () => {
  it('starts from the argument parser alone: no src/node module, no package, no node:net', () => {
    const { files, bare } = startupGraph(ENTRY)
    const sources = files.flatMap(sourcesOf)
    expect(sources.length).toBeGreaterThan(0)
    expect(sources.filter((s) => !s.startsWith('src/cli/') && s !== 'package.json')).toEqual([])
    expect(sources).toContain('src/cli/args.ts')
    expect(bare.filter((s) => !s.startsWith('node:'))).toEqual([])
    expect(bare).not.toContain('node:net')
  })

  it('loads each command as its own chunk, by a dynamic import', () => {
    const targets = dynamicImports(ENTRY)
    for (const name of ['scan', 'cutoff', 'load-order', 'audit', 'provenance', 'serve']) {
      const chunk = targets.find((t) => new RegExp(`^\\./command-${name}-[\\w-]+\\.js$`).test(t))
      expect(chunk, name).toBeDefined()
      expect(existsSync(join(OUT, chunk as string)), name).toBe(true)
      // The command's own module is in its chunk, not in the entry.
      expect(sourcesOf(join(OUT, chunk as string))).toContain(`src/cli/commands/${name}.ts`)
    }
  })

  it('cutoff loads neither the back end nor the API schemas', () => {
    const cutoff = chunks.find((c) => c.startsWith('command-cutoff-')) as string
    const sources = startupGraph(join(OUT, cutoff)).files.flatMap(sourcesOf)
    expect(sources).toContain('src/node/memory/cutoff-file.ts')
    expect(sources.filter((s) => /src\/node\/app\/|node_modules\/zod\//.test(s))).toEqual([])
  })

  it('a warm provenance loads only the check of its inputs and the printing', () => {
    // What runs before the kept result is printed (issue 16: a warm run close to a bare node).
    const chunk = chunks.find((c) => /^command-provenance-(?!run-)/.test(c)) as string
    const { files, bare } = startupGraph(join(OUT, chunk))
    const sources = files.flatMap(sourcesOf)
    expect(sources).toContain('src/node/cache/run-cache.ts')
    const light = new RegExp(
      '^(package\\.json|src/cli/(index|args|input|stdout|commands/provenance)\\.ts|' +
        'src/node/(cache/(run-cache|file-identity)|transcripts/provenance-inputs|' +
        'app/state-dir|memory/home-dirs)\\.ts)$',
    )
    expect(sources.filter((s) => !light.test(s))).toEqual([])
    // No node:crypto (~6 ms to load), no child_process, no stream of process.stdout.
    expect(bare.sort()).toEqual(['node:fs', 'node:fs/promises', 'node:os', 'node:path', 'node:url'])
    // The computation and the report for a person come by dynamic import, when needed.
    const later = dynamicImports(join(OUT, chunk))
    expect(later.some((t) => /^\.\/command-provenance-run-[\w-]+\.js$/.test(t))).toBe(true)
    expect(later.some((t) => /^\.\/report-[\w-]+\.js$/.test(t))).toBe(true)
  })

  it('only mcp loads the MCP SDK: scan and serve reach zod, never the SDK it was bundled with', () => {
    // Static and dynamic imports alike: everything a command could ever load.
    const reach = (entry: string): string[] => {
      const seen = new Set<string>()
      const queue = [entry]
      while (queue.length > 0) {
        const f = queue.pop() as string
        // The entry is loaded already; its dynamic imports are the command table, not this command.
        if (seen.has(f) || f === ENTRY) continue
        seen.add(f)
        // (A vendor chunk's code may hold `import("./x")` of its own package's text: no file.)
        for (const s of [...staticImports(f), ...dynamicImports(f)])
          if (s.startsWith('.') && existsSync(join(dirname(f), s))) queue.push(join(dirname(f), s))
      }
      return [...seen].flatMap(sourcesOf)
    }
    for (const name of ['scan', 'audit', 'provenance', 'load-order', 'serve']) {
      const chunk = chunks.find((c) => c.startsWith(`command-${name}-`)) as string
      const sources = reach(join(OUT, chunk))
      // Those that answer through the API's schemas reach zod; none reaches the SDK.
      if (name === 'scan' || name === 'serve')
        expect(
          sources.some((s) => s.includes('node_modules/zod/')),
          name,
        ).toBe(true)
      expect(
        sources.filter((s) => s.includes('node_modules/@modelcontextprotocol/')),
        name,
      ).toEqual([])
    }
  })

  it('bundles its dependencies: every import left is a Node built-in', () => {
    for (const c of chunks) {
      const bare = [...staticImports(join(OUT, c)), ...dynamicImports(join(OUT, c))].filter(
        (s) => !s.startsWith('.'),
      )
      expect(
        bare.filter((s) => !isBuiltin(s)),
        c,
      ).toEqual([])
    }
  })

  it('gives bundled CommonJS the __filename and __dirname an ES module lacks', () => {
    // write-file-atomic read `__filename` in an ES chunk: every safe write of serve failed.
    // (Our own modules are ES modules already; src/node/app/setup.ts guards with typeof.)
    for (const c of chunks.filter((f) => f.startsWith('vendor-'))) {
      const code = readFileSync(join(OUT, c), 'utf8')
      for (const name of ['__filename', '__dirname']) {
        const uses = code.match(new RegExp(`(?<!typeof )\\b${name}\\b`, 'g'))?.length ?? 0
        if (uses === 0) continue
        expect(code, `${c} uses ${name}`).toMatch(new RegExp(`(const|var|let) ${name}\\b`))
      }
    }
  })

  it('holds nothing Electron-only in any chunk', () => {
    for (const c of chunks) {
      const sources = sourcesOf(join(OUT, c))
      expect(
        sources.filter((s) =>
          /node_modules\/(electron|electron-store|conf|@electron\/[^/]+)\//.test(s),
        ),
        c,
      ).toEqual([])
    }
  })

  it('answers --help and --version from the bin script as well', async () => {
    const run = (args: string[]): Promise<string> =>
      new Promise((ok, no) =>
        execFile(process.execPath, [resolve('bin/memory-curator.js'), ...args], (err, out) =>
          err ? no(err) : ok(out),
        ),
      )
    expect(await run(['--help'])).toContain('memory-curator <command> [options]')
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
    expect(await run(['--version'])).toBe(`${pkg.version}\n`)
  })
})
