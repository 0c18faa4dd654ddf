// The command line and `serve`, bundled for Node (dependencies stay external).
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
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
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
})
