// Bench helper process: the ceiling for webhook delivery on this machine: a bare loop of signed fetch
// calls (HMAC of the body, the same headers as ours) to the receiver, CONCURRENCY at a time, TOTAL in
// all. Prints {seconds}.
import { createHmac } from 'node:crypto'
import { join } from 'node:path'

const url = process.env.URL!
const total = Number(process.env.TOTAL)
const concurrency = Number(process.env.CONCURRENCY)
const ca = await Bun.file(join(import.meta.dir, '../helpers/tls/cert.pem')).text()
const body = process.env.BODY!
let next = 0

async function worker() {
  while (next < total) {
    const i = next++
    const signature = `sha256=${createHmac('sha256', 'bench-secret-0123456789').update(body).digest('hex')}`
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': signature, 'x-service-attempt': '1', 'x-service-delivery-id': `dlv_${i}` },
      body,
      tls: { ca },
    } as RequestInit)
    await response.arrayBuffer()
  }
}

const started = performance.now()
await Promise.all(Array.from({ length: concurrency }, worker))
process.stdout.write(JSON.stringify({ seconds: (performance.now() - started) / 1000 }) + '\n')
