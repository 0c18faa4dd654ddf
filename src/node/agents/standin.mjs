/**
 * A stand-in model API on loopback for the conformance run: records every request and
 * answers with the smallest streamed reply each agent accepts. Our own code; it copies
 * nothing from the agents' packages.
 */
import { createServer } from 'node:http'

/** Claude Messages API: one content block streamed as server-sent events, then the stop. */
function claudeStream(res, id, block, delta, stopReason) {
  const ev = (type, data) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  ev('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'standin',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 1, output_tokens: 0 },
    },
  })
  ev('content_block_start', { index: 0, content_block: block })
  ev('content_block_delta', { index: 0, delta })
  ev('content_block_stop', { index: 0 })
  ev('message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 1 },
  })
  ev('message_stop', {})
  res.end()
}

/** A text reply. */
const claudeText = (res, text) =>
  claudeStream(
    res,
    'msg_standin',
    { type: 'text', text: '' },
    { type: 'text_delta', text },
    'end_turn',
  )

/** A `Read` tool call, so on-demand files load with its result. */
const claudeRead = (res, filePath) =>
  claudeStream(
    res,
    'msg_standin_read',
    { type: 'tool_use', id: 'toolu_standin', name: 'Read', input: {} },
    { type: 'input_json_delta', partial_json: JSON.stringify({ file_path: filePath }) },
    'tool_use',
  )

/** OpenAI Responses API (Codex `wire_api = "responses"`): one message, then completed. */
function codexText(res, text) {
  const ev = (type, data) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  ev('response.created', { response: { id: 'resp_standin' } })
  ev('response.output_item.done', {
    item: {
      type: 'message',
      role: 'assistant',
      id: 'msg_standin',
      content: [{ type: 'output_text', text }],
    },
  })
  ev('response.completed', {
    response: {
      id: 'resp_standin',
      usage: {
        input_tokens: 1,
        input_tokens_details: null,
        output_tokens: 1,
        output_tokens_details: null,
        total_tokens: 2,
      },
    },
  })
  res.end()
}

/**
 * Start the server on 127.0.0.1 (an ephemeral port). `plan.readPath`, when set, makes the
 * first main-loop Claude request answer with a Read of that file.
 */
export async function startStandin(plan = {}) {
  const requests = []
  let readSent = false
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body = null
      try {
        if (raw !== '') body = JSON.parse(raw)
      } catch {
        // Not JSON: recorded with a null body.
      }
      requests.push({ method: req.method, url: req.url, body })
      const path = (req.url ?? '').split('?')[0]
      if (req.method === 'POST' && path.endsWith('/messages')) {
        const main = body && Array.isArray(body.tools) && body.tools.length > 0
        if (main && plan.readPath && !readSent) {
          readSent = true
          return claudeRead(res, plan.readPath)
        }
        return claudeText(res, 'ok')
      }
      if (req.method === 'POST' && path.endsWith('/responses')) return codexText(res, 'ok')
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end('{"error":{"type":"not_found","message":"stand-in"}}')
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.()
        server.close(() => resolve())
      }),
  }
}
