// The command line and `serve`, bundled for Node with their dependencies (issue 16): one
// entry file that loads only the argument parser, one chunk per command (imported when it
// runs, src/cli/index.ts) and shared chunks beside them, so a command resolves no package
// in node_modules and compiles only what it uses. Electron-only packages never come in:
// nothing under src/cli imports them (eslint layers; tests/unit/cli/cli-bundle.test.ts).
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * CommonJS packages bundled into ES module chunks keep their `__filename` / `__dirname`, which
 * an ES module does not have (write-file-atomic seeds its temp names with `__filename`: every
 * safe write of `serve` failed with "__filename is not defined"). A vendor chunk that uses them
 * gets them from `import.meta` (Node ≥ 20.11; package.json asks for 20.19).
 */
const commonJsPaths: Plugin = {
  name: 'memory-curator:commonjs-paths',
  renderChunk(code, chunk) {
    if (!chunk.name.startsWith('vendor-')) return null
    const head = [
      /\b__filename\b/.test(code) ? 'const __filename = import.meta.filename;' : '',
      /\b__dirname\b/.test(code) ? 'const __dirname = import.meta.dirname;' : '',
    ].join('')
    return head === '' ? null : { code: head + code, map: null }
  },
}

export default defineConfig({
  plugins: [commonJsPaths],
  ssr: {
    // Bundle every dependency; node built-ins stay imports.
    noExternal: true,
    external: ['electron', 'electron-store', 'conf'],
  },
  build: {
    ssr: true,
    outDir: resolve(root, 'out/cli'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      // heavy-worker: the worker thread of src/node/jobs/isolated.ts, found beside index.js.
      input: {
        index: resolve(root, 'src/cli/index.ts'),
        'heavy-worker': resolve(root, 'src/node/jobs/heavy-worker.ts'),
      },
      // Chunks beside index.js: modules that find files relative to themselves (serve's
      // renderer, heavy-worker.js) see the same folder as before the split.
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        // A command's own chunk is named after it (command-scan-<hash>.js): the import graph
        // test (tests/unit/cli/index.test.ts) and a reader of out/cli tell them apart.
        // One chunk per package: a command loads only the packages it uses (left to itself the
        // bundler merged yaml into the chunk `cutoff` needs for its path checks).
        // A group takes the packages its modules import along with it (rolldown's
        // includeDependenciesRecursively), so zod went into the MCP SDK's chunk and every
        // command that validates an API call loaded the SDK: zod's group is taken first.
        codeSplitting: {
          groups: [
            // zod 3's copy serves only the SDK (its compat layer); our schemas are zod 4.
            { name: 'vendor-zod-v3', test: /[\\/]node_modules[\\/]zod[\\/]v3[\\/]/, priority: 3 },
            { name: 'vendor-zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 2 },
            {
              name: (id: string) => {
                const m = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id)
                return m ? `vendor-${m[1].replace(/[\\/@]/g, '-').replace(/^-/, '')}` : null
              },
              priority: 1,
            },
          ],
        },
        chunkFileNames: (chunk) =>
          chunk.facadeModuleId?.replace(/\\/g, '/').includes('/src/cli/commands/')
            ? 'command-[name]-[hash].js'
            : '[name]-[hash].js',
      },
    },
  },
})
