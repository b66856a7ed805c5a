// A real HTTPS webhook receiver on loopback for tests: a self-signed certificate (test/helpers/tls,
// valid for hooks.test, localhost and 127.0.0.1, test-only) and a script of answers; it records every
// request with its raw body and headers.
import { join } from 'node:path'

export const TLS_DIR = join(import.meta.dir, 'tls')
export const CA_FILE = join(TLS_DIR, 'cert.pem')

export interface Received {
  path: string
  headers: Record<string, string>
  body: string
  at: number
  /** The answer went back to a sender still waiting for it (false while answering, or if the sender hung up). */
  answered: boolean
}

/** What the receiver answers to one request; a function may wait before answering. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }

export async function startReceiver(answer: (request: Received, index: number) => Answer = () => ({ status: 200 })) {
  const received: Received[] = []
  const load = { now: 0, max: 0 }
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { cert: Bun.file(join(TLS_DIR, 'cert.pem')), key: Bun.file(join(TLS_DIR, 'key.pem')) },
    async fetch(request) {
      const url = new URL(request.url)
      const entry: Received = {
        path: url.pathname,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
        at: Date.now(),
        answered: false,
      }
      received.push(entry)
      load.max = Math.max(load.max, ++load.now)
      try {
        const reply = answer(entry, received.length - 1)
        if (reply.delayMs) await Bun.sleep(reply.delayMs)
        entry.answered = !request.signal.aborted
        return new Response(reply.body ?? 'ok', { status: reply.status, headers: reply.headers })
      } finally {
        load.now--
      }
    },
  })
  return {
    received,
    /** Requests being answered at once: now, and the most seen. */
    load,
    port: server.port!,
    url: (path = '/hook') => `https://127.0.0.1:${server.port}${path}`,
    ca: await Bun.file(CA_FILE).text(),
    stop: () => server.stop(true),
  }
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>
