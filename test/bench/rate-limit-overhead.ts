// Rate limits on vs off for the tickets list, in-process (app.handle, no sockets): the per-request
// difference without the HTTP noise, alternating the two apps over rounds and taking medians.
import { makeTestApp, type TestApp } from '../helpers/app.ts'
import { seedOrganization } from '../helpers/seed.ts'

export async function benchRateLimitOverhead(requests = 10_000, rounds = 12) {
  const apps: { on: boolean; app: TestApp; auth: Record<string, string> }[] = []
  try {
    for (const on of [true, false]) {
      const app = await makeTestApp({ RATE_LIMITS_ENABLED: String(on), LOG_LEVEL: 'warn' })
      const org = await seedOrganization(app, 'acme')
      // Raised so that nothing is refused.
      await app.context.db.raw.run('UPDATE organizations SET rate_limit_per_minute = 100000000, rate_limit_per_day = 100000000')
      const auth = org.users.admin.auth
      for (let i = 0; i < 50; i++) {
        await app.request('/api/v1/tickets', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ subject: `Ticket ${i}` }),
        })
      }
      apps.push({ on, app, auth })
    }
    const samples = new Map<boolean, number[]>([
      [true, []],
      [false, []],
    ])
    for (let round = 0; round < rounds; round++) {
      for (const { on, app, auth } of round % 2 ? [...apps].reverse() : apps) {
        const started = performance.now()
        for (let i = 0; i < requests; i++) {
          const response = await app.app.handle(new Request('http://localhost/api/v1/tickets?page_size=20', { headers: auth }))
          if (response.status !== 200) throw new Error(`the list answered ${response.status}`)
          await response.arrayBuffer()
        }
        // The first rounds warm the JIT up and are not kept.
        if (round >= 4) samples.get(on)!.push(((performance.now() - started) * 1000) / requests)
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    return { onUs: median(samples.get(true)!), offUs: median(samples.get(false)!) }
  } finally {
    for (const { app } of apps) await app.close()
  }
}

if (import.meta.main) console.log(await benchRateLimitOverhead())
