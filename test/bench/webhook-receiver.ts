// Bench helper process: an HTTPS webhook receiver on loopback (the test certificate) that answers
// 200 at once and records, per delivery, how long after the event's created_at it arrived.
// GET /stats (plain HTTP on STATS_PORT) -> {count, latencies_ms} ; POST /reset clears them.
import { join } from 'node:path'

const tls = join(import.meta.dir, '../helpers/tls')
let latencies: number[] = []
let firstAt = 0
let lastAt = 0

const receiver = Bun.serve({
  port: Number(process.env.PORT),
  hostname: '127.0.0.1',
  tls: { cert: Bun.file(join(tls, 'cert.pem')), key: Bun.file(join(tls, 'key.pem')) },
  async fetch(request) {
    const body = await request.text()
    const now = Date.now()
    if (latencies.length === 0) firstAt = now
    lastAt = now
    const createdAt = body.startsWith('{"id"') ? Date.parse((JSON.parse(body) as { created_at: string }).created_at) : NaN
    latencies.push(Number.isNaN(createdAt) ? -1 : now - createdAt)
    return new Response('ok')
  },
})

Bun.serve({
  port: Number(process.env.STATS_PORT),
  hostname: '127.0.0.1',
  fetch(request) {
    if (request.method === 'POST') {
      latencies = []
      return new Response('reset')
    }
    return Response.json({ count: latencies.length, first_at: firstAt, last_at: lastAt, latencies_ms: latencies })
  },
})

process.stdout.write(`receiver on ${receiver.port}\n`)
