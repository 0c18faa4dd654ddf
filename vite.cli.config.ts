// The command line and `serve`, bundled for Node (dependencies stay external).
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  build: {
    ssr: resolve(root, 'src/cli/index.ts'),
    outDir: resolve(root, 'out/cli'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: { output: { format: 'es', entryFileNames: 'index.js' } },
  },
})
