// The README's tour runs as written: its `sh` blocks after the two commands, one after another in one
// shell, against a real server started from source, with the answers a reader would see.
import { afterAll, expect, test } from 'bun:test'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { deliveryHeaders } from '../src/lib/webhook-signature.ts'
import { runShell, shBlocks, startDocsServer } from './helpers/docs.ts'
import { ROOT } from './helpers/root.ts'

let server: Awaited<ReturnType<typeof startDocsServer>> | undefined
afterAll(async () => {
  await server?.close()
})

test('the README tour: sign in, a user and a ticket, two pages of a list, a webhook', async () => {
  server = await startDocsServer('switchboard-tour-')
  // The first two blocks install and start (or test); the tour is what follows, pointed at this server.
  const tour = shBlocks('README.md').slice(2).join('\n')
  expect(tour).toContain('api/v1/auth/login')
  const run = await runShell(tour, server)
  const lines = run.lines
  expect([run.code, run.stderr]).toEqual([0, ''])
  expect(lines.slice(0, 4)).toEqual(['admin@switchboard.local', '1', '["Printer on fire","Paper jam"]', '["Toner low"]'])
  expect(lines[4]).toBe('["ticket.*"]')
})

test('the TypeScript webhook receiver of docs/webhooks.md accepts a signed delivery and refuses a forged one', async () => {
  const [code] = [...readFileSync(join(ROOT, 'docs/webhooks.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!)
  expect(code).toContain("from 'standardwebhooks'")
  // Written inside the repository, so that it resolves standardwebhooks from node_modules as a user's project would.
  const file = join(ROOT, 'test', `.receiver-${process.pid}.ts`)
  await Bun.write(file, code!)
  try {
    process.env.SWITCHBOARD_WEBHOOK_SECRET = 'a-long-random-secret-of-yours'
    const { handle } = (await import(file)) as { handle(request: Request): Promise<Response> }
    const body = JSON.stringify({ id: 'evt_1', type: 'ticket.created', created_at: new Date().toISOString(), data: {} })
    const headers = deliveryHeaders({
      secret: 'a-long-random-secret-of-yours',
      eventId: 'evt_1',
      deliveryId: 'dlv_1',
      attempt: 1,
      timestampS: Math.floor(Date.now() / 1000),
      body,
      userAgent: 'Switchboard-Webhooks/test',
    })
    const post = (text: string) => handle(new Request('http://receiver.test/', { method: 'POST', headers, body: text }))
    expect((await post(body)).status).toBe(204)
    expect((await post(body.replace('ticket.created', 'ticket.updated'))).status).toBe(400)
  } finally {
    rmSync(file, { force: true })
  }
})
