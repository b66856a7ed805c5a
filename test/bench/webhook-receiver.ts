// Bench helper process: an HTTPS webhook receiver on loopback (the test certificate) that answers
// 200 at once and records, per delivery, how long after the event's created_at it arrived.
// On STATS_PORT (plain HTTP): GET -> {count, first_at, last_at, latencies_ms, sample_body}; POST /
// clears them; POST /hold makes deliveries wait unanswered (and unrecorded) until POST /release,
// which clears the figures first: a backlog builds up behind the held ones, then is let go at once.
import { join } from 'node:path'

const tls = join(import.meta.dir, '../helpers/tls')
let latencies: number[] = []
let firstAt = 0
let lastAt = 0
let sampleBody = ''
let held: { promise: Promise<void>; release(): void } | undefined

const receiver = Bun.serve({
  port: Number(process.env.PORT),
  hostname: '127.0.0.1',
  tls: { cert: Bun.file(join(tls, 'cert.pem')), key: Bun.file(join(tls, 'key.pem')) },
  async fetch(request) {
    const body = await request.text()
    if (held) await held.promise
    const now = Date.now()
    if (latencies.length === 0) firstAt = now
    lastAt = now
    sampleBody = body
    const createdAt = body.startsWith('{"id"') ? Date.parse((JSON.parse(body) as { created_at: string }).created_at) : NaN
    latencies.push(Number.isNaN(createdAt) ? -1 : now - createdAt)
    return new Response('ok')
  },
})

Bun.serve({
  port: Number(process.env.STATS_PORT),
  hostname: '127.0.0.1',
  fetch(request) {
    const path = new URL(request.url).pathname
    if (request.method === 'POST' && path === '/hold') {
      const gate = Promise.withResolvers<void>()
      held = { promise: gate.promise, release: gate.resolve }
      return new Response('holding')
    }
    if (request.method === 'POST') {
      latencies = []
      if (path === '/release') {
        held?.release()
        held = undefined
      }
      return new Response('reset')
    }
    return Response.json({ count: latencies.length, first_at: firstAt, last_at: lastAt, latencies_ms: latencies, sample_body: sampleBody })
  },
})

process.stdout.write(`receiver on ${receiver.port}\n`)
