import { startServer } from './server'

const port = Number(process.env.PORT ?? 3000)
startServer(port).then(() => {
  console.log(`acme-shop listening on http://localhost:${port}`)
})
