/** Transport names shared by both ends (kept free of run-time dependencies so the preload stays small). */

/** IPC channel of a method; one place so main and preload agree. */
export const ipcChannel = (method: string): string => `curator:${method}`
export const IPC_EVENT_CHANNEL = 'curator:event'

/** HTTP transport: header carrying the per-run token, and the API path prefix. */
export const TOKEN_HEADER = 'x-curator-token'
/** `serve` hands the token to the page in the URL fragment, `#token=…` (never sent to a server). */
export const TOKEN_FRAGMENT_KEY = 'token'
export const API_PREFIX = '/api/'

/** Every method of the contract, by name (api.ts checks at compile time that this matches its schemas). */
export const API_METHOD_NAMES = [
  'getContext',
  'scan',
  'cutoff',
  'readFile',
  'loadOrder',
  'installedAgents',
  'checkWithAgent',
  'audit',
  'provenance',
  'noteDiffs',
  'writeFile',
  'deleteFile',
  'listOperations',
  'undo',
  'verifyNote',
  'listStamps',
  'markReviewed',
  'reviewDiff',
  'restoreLostLine',
  'planEdit',
  'applyPlan',
  'hooksStatus',
  'planHookInstall',
  'applyHookInstall',
  'memoryNotices',
  'noteOrigin',
  'noteEvidence',
  'getSettings',
  'setSettings',
  'searchMemory',
  'fitPlan',
  'previewRestore',
  'auditToken',
  'startAudit',
  'auditJob',
  'cancelAudit',
] as const
