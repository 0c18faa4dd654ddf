/** Types of standin.mjs (the stand-in model API on loopback). */
export interface RecordedRequest {
  readonly method?: string
  readonly url: string
  readonly body: unknown
}
export interface Standin {
  readonly url: string
  readonly requests: RecordedRequest[]
  close(): Promise<void>
}
export function startStandin(plan?: { readPath?: string }): Promise<Standin>
