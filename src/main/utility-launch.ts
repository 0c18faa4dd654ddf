/**
 * Heavy jobs in an Electron utility process (issue 11 items 8 and 10). A packaged build turns
 * the RunAsNode fuse off, so Node's `fork` of the app binary no longer starts Node; Electron's
 * `utilityProcess.fork` does. This adapter gives isolated.ts the few ChildProcess members it
 * uses; heavy-worker.ts answers on `process.parentPort` there. No Electron import: the fork
 * function is passed in, so it is tested under Node.
 */
import { EventEmitter } from 'node:events'
import type { LaunchFn } from '../node/jobs/isolated'

/** The members of Electron's UtilityProcess this adapter uses. */
export interface UtilityProcessLike {
  postMessage(message: unknown): void
  kill(): boolean
  on(event: 'message', listener: (message: unknown) => void): unknown
  on(event: 'exit', listener: (code: number) => void): unknown
  on(event: 'error', listener: (...args: unknown[]) => void): unknown
}

export type UtilityFork = (
  modulePath: string,
  args: string[],
  options: { execArgv: string[]; serviceName: string; stdio: 'ignore' },
) => UtilityProcessLike

export function utilityLaunch(forkUtility: UtilityFork): LaunchFn {
  return (script, heapMb) => {
    const proc = forkUtility(script, [], {
      execArgv: [`--max-old-space-size=${heapMb}`],
      serviceName: 'Memory Curator job',
      stdio: 'ignore',
    })
    const child = new EventEmitter() as EventEmitter & {
      exitCode: number | null
      signalCode: NodeJS.Signals | null
    }
    child.exitCode = null
    child.signalCode = null
    proc.on('message', (m) => child.emit('message', m))
    proc.on('error', (...args) =>
      child.emit('error', new Error(`utility process error: ${args.map(String).join(' ')}`)),
    )
    proc.on('exit', (code) => {
      child.exitCode = code
      child.emit('exit', code, null)
    })
    return Object.assign(child, {
      send(message: unknown, callback?: (err: Error | null) => void): boolean {
        try {
          proc.postMessage(message)
          callback?.(null)
        } catch (err) {
          callback?.(err instanceof Error ? err : new Error(String(err)))
        }
        return true
      },
      kill(): boolean {
        return proc.kill()
      },
    }) as unknown as ReturnType<LaunchFn>
  }
}
