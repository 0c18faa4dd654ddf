/**
 * The job script of isolated.ts, run as its own process: takes one job from its parent, sends
 * the value back, and exits. Bundled as its own entry (out/cli/heavy-worker.js,
 * out/main/heavy-worker.js).
 */
import type { JobReply, JobRequest } from './isolated'
import { provenance, type ProvenanceOptions } from '../transcripts/provenance'

/** Every job the process can run, by name. Arguments and values are plain data. */
const jobs: Record<string, (args: never) => Promise<unknown>> = {
  async provenance(args: ProvenanceOptions) {
    const r = await provenance(args)
    return { files: r.files, problems: r.problems }
  },
}

async function answer(request: JobRequest): Promise<JobReply> {
  const fn = jobs[request.job]
  try {
    if (fn === undefined) return { ok: false, reason: `unknown job ${request.job}` }
    return { ok: true, value: await fn(request.args as never) }
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) }
  }
}

/** Electron's utility process talks through `process.parentPort` (src/main/utility-launch.ts). */
interface ParentPort {
  once(event: 'message', listener: (e: { data: JobRequest }) => void): void
  postMessage(message: unknown): void
}
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort

if (parentPort) {
  parentPort.once('message', (e) => {
    void answer(e.data).then((reply) => {
      parentPort.postMessage(reply)
      setImmediate(() => process.exit(0))
    })
  })
} else {
  // The parent is gone (closed, killed): nobody waits for the answer.
  process.once('disconnect', () => process.exit(0))
  process.once('message', (request: JobRequest) => {
    void answer(request).then((reply) => process.send?.(reply, () => process.exit(0)))
  })
}
