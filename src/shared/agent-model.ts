/** The result of "Check with the installed agent" (issue 13 item 4), re-exported by model.ts. */

export type AgentName = 'claude' | 'codex'

/** An agent found on PATH that "Check with the installed agent" can run. */
export interface InstalledAgent {
  readonly agent: AgentName
  readonly path: string
}

export interface AgentCheckRow {
  readonly path: string
  /** 1-based position in what the agent sent, or null when it did not send the file. */
  readonly agent: number | null
  /** 1-based position in our model, or null when our model does not load it. */
  readonly ours: number | null
  readonly status: 'same' | 'moved' | 'only-agent' | 'only-ours' | 'cut-differs'
  readonly detail: string | null
}

/** What the installed agent sent to the stand-in server, beside our model. */
export interface AgentCheckResult {
  readonly agent: AgentName
  readonly binary: string
  /** First line of `<agent> --version`. */
  readonly version: string
  /** The command that ran (in the temporary copy). */
  readonly command: string
  readonly copiedFiles: number
  readonly ok: boolean
  /** Why the agent sent nothing (exit code, time limit, its output), or null. */
  readonly error: string | null
  readonly rows: readonly AgentCheckRow[]
  /** MEMORY.md: leading lines the agent sent against the lines our cutoff loads. */
  readonly memory: {
    readonly path: string
    readonly agentLines: number
    readonly ourLines: number
  } | null
}
