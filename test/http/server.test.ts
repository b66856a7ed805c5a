// The app behind a real Bun server on loopback: error shapes survive the network path, and
// shutdown lets an in-flight request finish while refusing new connections.
import { afterAll, describe, expect, test } from 'bun:test'
import { shutdown, startServer } from '../../src/cli/serve.ts'
import { loadConfig } from '../../src/config.ts'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { openRuntime } from '../../src/runtime.ts'
import { tempDirs } from '../helpers/app.ts'
import { freePort } from '../helpers/process.ts'

const dataDir = tempDirs()

async function boot(extra: Record<string, string> = {}) {
  const config = loadConfig({ DATA_DIR: dataDir(), HOST: '127.0.0.1', PORT: String(freePort()), ...extra })
  const logs = memorySink()
  const log = createLogger({ level: 'debug', sink: logs })
  const runtime = await openRuntime(config, { log })
  runtime.app.get('/test/slow', async () => {
    await Bun.sleep(400)
    return { done: true }
  })
  const server = startServer(runtime, config)
  return { runtime, server, log, logs, url: `http://127.0.0.1:${server.port}` }
}

const network = await boot({ MAX_BODY_BYTES: '2048' })

describe('over the network', () => {
  const { runtime, server, log, url } = network
  afterAll(() => shutdown(server, runtime, log))

  test('GET and HEAD /health', async () => {
    expect((await fetch(`${url}/health`)).status).toBe(200)
    const head = await fetch(`${url}/health`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  test('404 and 405 keep the JSON error body', async () => {
    const missing = await fetch(`${url}/nope`)
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { code: string }).code).toBe('NOT_FOUND')
    const wrong = await fetch(`${url}/ready`, { method: 'POST' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, HEAD')
    expect(((await wrong.json()) as { code: string }).code).toBe('METHOD_NOT_ALLOWED')
  })

  test("an oversized body gets our JSON 413, not the server's bare one", async () => {
    const response = await fetch(`${url}/health`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(10_000),
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The request body is larger than 2048 bytes',
      request_id: response.headers.get('x-request-id'),
    })
  })
})

describe('shutdown', () => {
  test('an in-flight request finishes, new connections are refused, the database is closed', async () => {
    const { runtime, server, log, url } = await boot()
    const inFlight = fetch(`${url}/test/slow`)
    await Bun.sleep(100)
    const stopped = shutdown(server, runtime, log)
    await Bun.sleep(50)
    await expect(fetch(`${url}/health`)).rejects.toThrow()
    const response = await inFlight
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ done: true })
    await stopped
    await expect(runtime.context.db.raw.get('SELECT 1')).rejects.toThrow()
  })

  test('a request that outlives the drain timeout is cut off and shutdown still completes', async () => {
    const { runtime, server, log, logs, url } = await boot()
    const inFlight = fetch(`${url}/test/slow`).then(
      () => 'answered',
      () => 'cut off',
    )
    await Bun.sleep(100)
    await shutdown(server, runtime, log, 50)
    expect(await inFlight).toBe('cut off')
    expect(logs.records().some((r) => r.msg === 'in-flight requests did not finish in time; closing their connections')).toBe(true)
  })
})
