/** Types of agent-request.mjs (what reached the model, read from a recorded request). */
export interface RecordedRequest {
  readonly method?: string
  readonly url: string
  readonly body: unknown
}
export function strings(value: unknown, out?: string[]): string[]
export function claudeMainRequests<T extends RecordedRequest>(requests: readonly T[]): T[]
export function codexRequests<T extends RecordedRequest>(requests: readonly T[]): T[]
export function claudeFilesSent(body: unknown): string[]
export function memoryLinesSent(body: unknown): number[]
export function memoryCutLine(body: unknown): number | null
export function codexFilesSent(
  body: unknown,
  files: Record<string, string>,
): { name: string; bytes: number; brokenChar: boolean }[]
