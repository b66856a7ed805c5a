// A TCP proxy that delays every chunk by DELAY_MS in each direction, as a database on another host or
// zone would be: what the write-capacity benchmark puts between the instances and PostgreSQL. It also
// counts round trips: on each connection, a chunk from the client after one from the server starts one.
// It runs in a process of its own (a benchmark blocked in spawnSync must not stop the traffic), which
// answers its round-trip count over HTTP.
import { createConnection, createServer, type Server, type Socket } from 'node:net'

export interface DelayProxy {
  port: number
  /** Round trips begun by clients so far, over all connections. */
  roundTrips(): Promise<number>
  close(): Promise<void>
}

/** Chunks of one direction leave in the order they came, each `delayMs` after it came (timers of one duration fire in order). */
function relay(from: Socket, to: Socket, delayMs: number, onChunk: () => void): void {
  from.on('data', (chunk) => {
    onChunk()
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk)
    }, delayMs)
  })
  from.on('end', () => setTimeout(() => to.end(), delayMs))
  from.on('error', () => to.destroy())
  from.on('close', () => setTimeout(() => to.destroy(), delayMs))
}

/** The proxy in this process: its port and its count. */
async function serveProxy(targetPort: number, delayMs: number): Promise<{ port: number; roundTrips: () => number }> {
  let roundTrips = 0
  const server: Server = createServer((client) => {
    client.setNoDelay(true)
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort })
    upstream.setNoDelay(true)
    // The last direction seen: a client chunk after a server chunk (or the first) begins a round trip.
    let serverSpoke = true
    relay(client, upstream, delayMs, () => {
      if (serverSpoke) roundTrips++
      serverSpoke = false
    })
    relay(upstream, client, delayMs, () => {
      serverSpoke = true
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the delay proxy has no port')
  return { port: address.port, roundTrips: () => roundTrips }
}

/** Starts the proxy in a child process; resolves once it listens. */
export async function startDelayProxy(targetPort: number, delayMs: number): Promise<DelayProxy> {
  const child = Bun.spawn([process.execPath, import.meta.path, String(targetPort), String(delayMs)], { stdout: 'pipe', stderr: 'inherit' })
  const reader = child.stdout.getReader()
  let text = ''
  while (!text.includes('\n')) {
    const { value, done } = await reader.read()
    if (done) throw new Error('the delay proxy exited before it listened')
    text += new TextDecoder().decode(value)
  }
  const { port, control } = JSON.parse(text.slice(0, text.indexOf('\n'))) as { port: number; control: number }
  return {
    port,
    roundTrips: async () => Number(await (await fetch(`http://127.0.0.1:${control}/round-trips`)).text()),
    async close() {
      child.kill()
      await child.exited
    },
  }
}

if (import.meta.main) {
  const [targetPort, delayMs] = process.argv.slice(2).map(Number)
  const proxy = await serveProxy(targetPort!, delayMs!)
  const control = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(String(proxy.roundTrips())) })
  process.stdout.write(`${JSON.stringify({ port: proxy.port, control: control.port })}\n`)
}
