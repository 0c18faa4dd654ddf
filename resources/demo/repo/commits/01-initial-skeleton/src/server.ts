import { createServer } from 'node:http'
import { createSession } from './auth/session'
import { handleApi } from '../packages/api/src/routes'

/** Start the HTTP server; API requests go to packages/api, the rest is static. */
export function startServer(port: number): Promise<void> {
  const server = createServer(async (req, res) => {
    if (req.url?.startsWith('/api/')) return handleApi(req, res)
    if (req.url === '/login' && req.method === 'POST') {
      const session = createSession('guest')
      res.setHeader('Set-Cookie', `sid=${session.token}; HttpOnly; SameSite=Lax`)
      res.end('ok')
      return
    }
    res.statusCode = 404
    res.end('not found')
  })
  return new Promise((resolve) => server.listen(port, resolve))
}
