/**
 * Attacks on the backend API: hostile paths in every path slot, wrong arity and wrong types,
 * and method-specific attacks (writes outside, traversing undo ids, escaping plan names).
 */

export interface AttackTargets {
  readonly claudeHome: string
  readonly memoryDir: string
  readonly repo: string
  /** A canary file and its folder, outside every root. */
  readonly canaryFile: string
  readonly canaryDir: string
  /** A canary in a folder whose name starts like a root (`/x/claude-evil` beside `/x/claude`). */
  readonly prefixSibling: string
  /** Symlinks inside the Claude home that lead to the canaries. */
  readonly escapeLink: string
  readonly escapeDirLink: string
}

export interface Attack {
  readonly method: string
  readonly args: unknown
  readonly note: string
}

const HASH = 'a'.repeat(64)

/** Path arguments that try to leave the roots: traversal, encodings, NUL, links, odd forms. */
export function hostilePaths(t: AttackTargets): { readonly path: string; readonly note: string }[] {
  const rel = t.canaryFile.replace(/^\/+/, '')
  const up = '../'.repeat(30)
  return [
    { path: '/etc/passwd', note: 'absolute path outside' },
    { path: '/etc/shadow', note: 'absolute path outside' },
    { path: '/proc/self/environ', note: 'process environment' },
    { path: '/dev/zero', note: 'endless device' },
    { path: '/dev/stdin', note: 'blocking device' },
    { path: t.canaryFile, note: 'canary outside the roots' },
    { path: t.canaryDir, note: 'canary folder outside the roots' },
    { path: `${t.memoryDir}/${up}${rel}`, note: '../ from inside a root' },
    { path: `${t.memoryDir}/..%2f..%2f..%2f..%2f..%2f..%2f${rel}`, note: 'encoded %2f' },
    {
      path: `${t.memoryDir}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/${rel}`,
      note: 'encoded %2e%2e',
    },
    { path: `${t.memoryDir}/%252e%252e/%252e%252e/${rel}`, note: 'double-encoded' },
    { path: `${t.memoryDir}/..\\..\\..\\..\\${rel}`, note: 'backslashes' },
    { path: `${t.memoryDir}/\u2025/\uff0e\uff0e/${rel}`, note: 'unicode dot look-alikes' },
    { path: t.prefixSibling, note: 'prefix sibling of a root' },
    { path: t.escapeLink, note: 'symlink inside the home that escapes' },
    {
      path: `${t.escapeDirLink}/${t.canaryFile.split('/').pop()}`,
      note: 'file below a symlinked folder that escapes',
    },
    {
      path: `${t.escapeDirLink}/new-file.md`,
      note: 'new file below a symlinked folder that escapes',
    },
    {
      path: `${t.claudeHome}/projects/../../${t.canaryDir.split('/').slice(-2).join('/')}`,
      note: '.. after a root',
    },
    { path: `${t.memoryDir}/MEMORY.md\u0000/etc/passwd`, note: 'NUL byte' },
    { path: rel, note: 'relative path' },
    { path: `./${rel}`, note: 'dot-relative path' },
    { path: `~/${rel}`, note: 'tilde path' },
    { path: `file://${t.canaryFile}`, note: 'file URL' },
    { path: `//${t.canaryFile}`, note: 'double slash' },
    { path: `${t.memoryDir}/${'a'.repeat(5000)}`, note: 'over the length limit' },
    { path: `${t.memoryDir}/${'../'.repeat(1300)}`, note: 'thousands of ..' },
    { path: '', note: 'empty' },
  ]
}

/** Values of every wrong type, for every argument position. */
const WRONG_VALUES: readonly { readonly value: unknown; readonly note: string }[] = [
  { value: 42, note: 'number' },
  { value: true, note: 'boolean' },
  { value: null, note: 'null' },
  { value: {}, note: 'object' },
  { value: [], note: 'array' },
  { value: { __proto__: { polluted: 1 }, toString: 'x' }, note: 'prototype pollution object' },
  { value: JSON.parse('{"__proto__":{"polluted":1}}'), note: 'JSON __proto__' },
  { value: 'x'.repeat(9 * 1024 * 1024), note: '9 MB string' },
  { value: -1, note: 'negative number' },
  { value: 1e308, note: 'huge number' },
  { value: 1.5, note: 'fraction' },
]

/** Well-shaped argument lists of every method, with the path slots marked. */
function templates(t: AttackTargets): Record<string, { args: unknown[]; paths: number[] }> {
  const mem = `${t.memoryDir}/MEMORY.md`
  return {
    getContext: { args: [], paths: [] },
    scan: { args: [], paths: [] },
    cutoff: { args: [mem], paths: [0] },
    readFile: { args: [mem], paths: [0] },
    loadOrder: { args: [t.repo], paths: [0] },
    installedAgents: { args: [], paths: [] },
    checkWithAgent: { args: ['claude', t.repo], paths: [1] },
    audit: { args: [t.memoryDir, t.repo], paths: [0, 1] },
    provenance: { args: [t.memoryDir], paths: [0] },
    noteDiffs: { args: [t.memoryDir, t.repo, mem, 3], paths: [0, 1, 2] },
    writeFile: { args: [mem, HASH, 'CANARY-WRITE\n', 'attack'], paths: [0] },
    deleteFile: { args: [mem, HASH, 'attack'], paths: [0] },
    listOperations: { args: [], paths: [] },
    undo: { args: [null], paths: [] },
    verifyNote: { args: [t.memoryDir, t.repo, mem, 3], paths: [0, 1, 2] },
    listStamps: { args: [t.memoryDir, t.repo], paths: [0, 1] },
    markReviewed: { args: [mem, HASH], paths: [0] },
    reviewDiff: { args: [t.memoryDir, mem], paths: [0, 1] },
    restoreLostLine: { args: [t.memoryDir, mem, '- restored', HASH], paths: [0, 1] },
    planEdit: { args: [{ kind: 'move-entry-above-cutoff', file: mem, line: 3 }], paths: [] },
    applyPlan: {
      args: [[{ path: mem, expectedHash: HASH, after: 'CANARY-WRITE\n' }], 'attack'],
      paths: [],
    },
    hooksStatus: { args: [t.repo], paths: [0] },
    planHookInstall: { args: ['project', 'install', t.repo], paths: [2] },
    applyHookInstall: { args: ['project', 'install', t.repo, HASH, HASH], paths: [2] },
    memoryNotices: { args: [0], paths: [] },
    noteOrigin: { args: [t.memoryDir, mem, 3], paths: [0, 1] },
    noteEvidence: { args: [t.memoryDir], paths: [0] },
    getSettings: { args: [], paths: [] },
    setSettings: { args: [{ theme: 'dark' }], paths: [] },
    // The query is text, never a path: a path-looking query only searches the scanned files.
    searchMemory: { args: ['../../../../etc/passwd'], paths: [] },
    fitPlan: { args: [mem, null], paths: [0] },
    previewRestore: { args: [t.memoryDir, mem, '- restored', 'in-place'], paths: [0, 1] },
    auditToken: { args: [t.memoryDir, t.repo], paths: [0, 1] },
    startAudit: { args: [t.memoryDir, t.repo], paths: [0, 1] },
    auditJob: { args: ['00000000-0000-4000-8000-000000000000'], paths: [] },
    cancelAudit: { args: ['00000000-0000-4000-8000-000000000000'], paths: [] },
  }
}

/**
 * Every attack on every method: hostile paths in each path slot, wrong arity, wrong types in
 * each slot, and method-specific ones (write to a path outside with no expected hash, undo ids
 * that traverse, plans whose new topic file names leave the folder).
 */
export function apiAttacks(t: AttackTargets, methods: readonly string[]): Attack[] {
  const out: Attack[] = []
  const tpl = templates(t)
  const paths = hostilePaths(t)
  for (const method of methods) {
    const base = tpl[method]
    if (!base)
      throw new Error(`no attack template for ${method}: add one to bad-inputs/api-attacks.ts`)
    for (const slot of base.paths) {
      for (const p of paths) {
        const args = [...base.args]
        args[slot] = p.path
        out.push({ method, args, note: `arg ${slot}: ${p.note}` })
      }
    }
    out.push({ method, args: [...base.args, t.canaryFile], note: 'one argument too many' })
    if (base.args.length > 0)
      out.push({ method, args: base.args.slice(0, -1), note: 'one argument too few' })
    out.push({ method, args: { 0: t.canaryFile, length: 1 }, note: 'arguments as an object' })
    out.push({ method, args: t.canaryFile, note: 'arguments as a string' })
    out.push({ method, args: null, note: 'arguments null' })
    for (let slot = 0; slot < base.args.length; slot++) {
      for (const w of WRONG_VALUES) {
        const args = [...base.args]
        args[slot] = w.value
        out.push({ method, args, note: `arg ${slot}: ${w.note}` })
      }
    }
  }
  // Method-specific attacks.
  for (const p of paths) {
    out.push({
      method: 'writeFile',
      args: [p.path, null, 'CANARY-WRITE\n', 'attack'],
      note: `create: ${p.note}`,
    })
    out.push({
      method: 'planEdit',
      args: [{ kind: 'delete-entry', file: p.path, line: 3, deleteTopic: true }],
      note: `plan delete: ${p.note}`,
    })
    out.push({
      method: 'planEdit',
      args: [
        {
          kind: 'extract-to-topic',
          file: `${t.memoryDir}/MEMORY.md`,
          line: 3,
          topicName: p.path || 'x',
        },
      ],
      note: `plan extract to topic named: ${p.note}`,
    })
    out.push({ method: 'undo', args: [p.path.slice(0, 200) || 'x'], note: `undo id: ${p.note}` })
    out.push({
      method: 'applyPlan',
      args: [[{ path: p.path, expectedHash: null, after: 'CANARY-WRITE\n' }], 'attack'],
      note: `plan creating: ${p.note}`,
    })
    out.push({
      method: 'applyPlan',
      args: [[{ path: p.path, expectedHash: HASH, after: null }], 'attack'],
      note: `plan deleting: ${p.note}`,
    })
  }
  out.push({
    method: 'planEdit',
    args: [{ kind: 'move-entry-above-cutoff', file: t.canaryFile, line: 1, extra: 1 }],
    note: 'plan with an extra key',
  })
  out.push({
    method: 'planEdit',
    args: [{ kind: 'run-shell', file: t.canaryFile, line: 1 }],
    note: 'plan of an unknown kind',
  })
  out.push({
    method: 'writeFile',
    args: [`${t.memoryDir}/MEMORY.md`, HASH, 'x'.repeat(9 * 1024 * 1024), 'big'],
    note: '9 MB write',
  })
  out.push({
    method: 'restoreLostLine',
    args: [t.memoryDir, `${t.memoryDir}/MEMORY.md`, 'x'.repeat(200_000), HASH],
    note: 'oversized line',
  })
  for (const name of [
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'guard',
    'emitChange',
    'onDidChange',
    'dispose',
    '../scan',
    'scan/../readFile',
    'SCAN',
    '',
  ]) {
    out.push({
      method: name,
      args: [t.canaryFile],
      note: `not an API method: ${JSON.stringify(name)}`,
    })
  }
  return out
}
