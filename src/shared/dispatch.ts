/**
 * The server side of every transport: validate the raw arguments of a call with its
 * method's schema, then call the one handler table. IPC and `serve` both use this.
 */
import { ZodError } from 'zod'
import { API_METHODS, apiSchemas, type ApiMethod, type CuratorApi } from './api'

export class DispatchError extends Error {
  constructor(
    readonly code: 'bad-request' | 'not-found',
    message: string,
  ) {
    super(message)
    this.name = 'DispatchError'
  }
}

export function isApiMethod(name: string): name is ApiMethod {
  return (API_METHODS as string[]).includes(name)
}

/** Validate and call `method` on `api`. Throws DispatchError for unknown methods or bad arguments. */
export async function dispatch(
  api: CuratorApi,
  method: string,
  rawArgs: unknown,
): Promise<unknown> {
  if (!isApiMethod(method))
    throw new DispatchError('not-found', `unknown API method: ${method.slice(0, 80)}`)
  let args: unknown[]
  try {
    args = apiSchemas[method].parse(rawArgs) as unknown[]
  } catch (err) {
    const msg =
      err instanceof ZodError
        ? err.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')
        : String(err)
    throw new DispatchError('bad-request', `bad arguments for ${method}: ${msg}`)
  }
  const fn = api[method] as (...a: unknown[]) => Promise<unknown>
  return fn.apply(api, args)
}
