/**
 * The job script of isolated.ts, run as its own process: takes one job from its parent, sends
 * the value back, and exits. Bundled as its own entry (out/cli/heavy-worker.js,
 * out/main/heavy-worker.js).
 */
import type { JobReply, JobRequest } from './isolated'
import { provenance, type ProvenanceOptions } from './provenance'

/** Every job the process can run, by name. Arguments and values are plain data. */
const jobs: Record<string, (args: never) => Promise<unknown>> = {
  async provenance(args: ProvenanceOptions) {
    const r = await provenance(args)
    return { files: r.files, problems: r.problems }
  },
}

// The parent is gone (closed, killed): nobody waits for the answer.
process.once('disconnect', () => process.exit(0))

process.once('message', (request: JobRequest) => {
  void (async () => {
    const fn = jobs[request.job]
    let reply: JobReply
    try {
      if (fn === undefined) reply = { ok: false, reason: `unknown job ${request.job}` }
      else reply = { ok: true, value: await fn(request.args as never) }
    } catch (err) {
      reply = { ok: false, reason: err instanceof Error ? err.message : String(err) }
    }
    process.send?.(reply, () => process.exit(0))
  })()
})
