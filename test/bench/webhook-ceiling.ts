// Bench helper process: the ceiling for webhook delivery on this machine: a bare loop of signed fetch
// calls (the headers of a delivery, both signatures included) to the receiver, CONCURRENCY at a time, TOTAL in
// all, after a warm-up of WARM_UP (connections open, code compiled). Prints {seconds}.
import { join } from 'node:path'
import { deliveryHeaders } from '../../src/lib/webhook-signature.ts'

const url = process.env.URL!
const total = Number(process.env.TOTAL)
const concurrency = Number(process.env.CONCURRENCY)
const ca = await Bun.file(join(import.meta.dir, '../helpers/tls/cert.pem')).text()
const body = process.env.BODY!
const WARM_UP = 1000
let next = 0

async function worker(count: number) {
  while (next < count) {
    const i = next++
    const headers = deliveryHeaders({
      secret: 'bench-secret-0123456789',
      eventId: 'evt_BENCH',
      deliveryId: `dlv_${i}`,
      attempt: 1,
      timestampS: Math.floor(Date.now() / 1000),
      body,
      userAgent: 'Switchboard-Webhooks/bench',
    })
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      tls: { ca },
    } as RequestInit)
    await response.arrayBuffer()
  }
}

await Promise.all(Array.from({ length: concurrency }, () => worker(WARM_UP)))
next = 0
const started = performance.now()
await Promise.all(Array.from({ length: concurrency }, () => worker(total)))
process.stdout.write(JSON.stringify({ seconds: (performance.now() - started) / 1000 }) + '\n')
