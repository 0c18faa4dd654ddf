// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'

/** Layer arrows of docs/architecture.md: what each folder may not import. */
const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'crypto',
  'http',
  'net',
  'url',
  'stream',
  'util',
  'events',
  'worker_threads',
  'readline',
  'zlib',
]
const layer = (group, message) => ({ group, message })
/** The contract's types (src/shared/model.ts, api-contract.ts) are what core produces and node serves: types only. */
const sharedTypesOnly = (who) => ({
  group: ['**/shared/**'],
  allowTypeImports: true,
  message: `${who} may import only the contract's types from src/shared (import type).`,
})
/**
 * Issue 11: git runs only through src/node/git/run.ts, which disables every program a hostile
 * repository's config could make git run. Besides it, only isolated.ts starts a process: our
 * own job script (issue 11 item 8). No other module in src/ spawns anything.
 */
const noSpawn = layer(
  ['child_process', 'node:child_process'],
  'Run git through runGit() in src/node/git/run.ts (the one hardened runner), heavy jobs through src/node/jobs/isolated.ts, and an installed agent through src/node/agents/agent-process.ts; nothing else in src/ spawns processes.',
)

const layers = [
  {
    files: ['src/core/**/*.ts'],
    patterns: [
      layer(
        nodeBuiltins,
        'src/core is pure: no Node built-ins (put disk and process work in src/node).',
      ),
      layer(
        [
          'electron',
          'electron-store',
          'react',
          'react-dom',
          'monaco-editor',
          '@monaco-editor/*',
          'chokidar',
          'write-file-atomic',
        ],
        'src/core is pure: no Electron, React or I/O libraries.',
      ),
      layer(
        ['**/node/**', '**/main/**', '**/preload/**', '**/renderer/**', '**/cli/**'],
        'src/core imports only src/core and the contract types of src/shared.',
      ),
      sharedTypesOnly('src/core'),
    ],
  },
  {
    files: ['src/node/**/*.ts'],
    ignores: [
      'src/node/git/run.ts',
      'src/node/jobs/isolated.ts',
      'src/node/agents/agent-process.ts',
    ],
    patterns: [
      noSpawn,
      layer(
        ['electron', 'electron-store', 'react', 'react-dom', 'monaco-editor', '@monaco-editor/*'],
        'src/node must not depend on Electron or React.',
      ),
      layer(
        ['**/main/**', '**/preload/**', '**/renderer/**', '**/cli/**'],
        'src/node imports only src/core, Node and the contract types of src/shared.',
      ),
      sharedTypesOnly('src/node'),
    ],
  },
  {
    // The processes src/ starts: git through the hardened runner, our own job script
    // (isolated.ts forks heavy-worker.js, never a program named by input), and the person's own
    // installed agent on a click (agent-process.ts: only `claude`/`codex` found on absolute PATH
    // entries, in a temporary home, issue 13 item 4).
    files: ['src/node/git/run.ts', 'src/node/jobs/isolated.ts', 'src/node/agents/agent-process.ts'],
    patterns: [
      layer(
        ['electron', 'electron-store', 'react', 'react-dom', 'monaco-editor', '@monaco-editor/*'],
        'src/node must not depend on Electron or React.',
      ),
      layer(
        ['**/main/**', '**/preload/**', '**/renderer/**', '**/cli/**'],
        'src/node imports only src/core, Node and the contract types of src/shared.',
      ),
      sharedTypesOnly('src/node'),
    ],
  },
  {
    files: ['src/shared/**/*.ts'],
    patterns: [
      layer([...nodeBuiltins, 'electron', 'react'], 'src/shared holds the API contract only.'),
      layer(
        ['**/node/**', '**/main/**', '**/preload/**', '**/renderer/**', '**/cli/**'],
        'src/shared holds the contract: it imports only zod and the limits of src/core.',
      ),
    ],
  },
  {
    files: ['src/main/**/*.ts'],
    patterns: [
      noSpawn,
      layer(
        ['**/renderer/**', '**/cli/**', '**/preload/**', 'react', 'react-dom'],
        'src/main may import src/node, src/shared and electron only.',
      ),
    ],
  },
  {
    files: ['src/preload/**/*.ts'],
    patterns: [
      layer(
        [...nodeBuiltins, '**/node/**', '**/main/**', '**/renderer/**', '**/cli/**', '**/core/**'],
        'src/preload may import src/shared and electron only.',
      ),
    ],
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    patterns: [
      layer(
        [
          ...nodeBuiltins,
          'electron',
          'electron-store',
          '**/node/**',
          '**/main/**',
          '**/preload/**',
          '**/cli/**',
          '**/core/**',
        ],
        'src/renderer talks only through the API object; rules stay in src/core behind the API (types come through src/shared).',
      ),
    ],
  },
  {
    files: ['src/cli/**/*.ts'],
    patterns: [
      noSpawn,
      layer(
        [
          'electron',
          'electron-store',
          'react',
          'react-dom',
          '**/main/**',
          '**/preload/**',
          '**/renderer/**',
        ],
        'src/cli may import src/node and src/shared only.',
      ),
    ],
  },
]

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'node_modules/**',
      'resources/**',
      'test-results/**',
      'playwright-report/**',
      'bench-results/**',
      'tests/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  ...layers.map(({ files, ignores, patterns }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  })),
)
