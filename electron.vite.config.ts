import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig(({ command }) => ({
  main: {
    // A development build (electron-vite dev) only: it may follow ELECTRON_RENDERER_URL and show DevTools.
    define: { MC_DEV_BUILD: JSON.stringify(command === 'serve') },
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(root, 'src/main/index.ts'),
          // The worker thread of src/node/jobs/isolated.ts, found beside index.js.
          'heavy-worker': resolve(root, 'src/node/jobs/heavy-worker.ts'),
        },
      },
    },
  },
  preload: {
    // A sandboxed preload must be CommonJS and self-contained (docs/stack.md §5).
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    plugins: [react()],
    build: {
      minify: true,
      // Monaco is one large chunk by design, fetched after first paint; no warning for it.
      chunkSizeWarningLimit: 8192,
      rollupOptions: { input: { index: resolve(root, 'src/renderer/index.html') } },
    },
    worker: { format: 'es' },
  },
}))
