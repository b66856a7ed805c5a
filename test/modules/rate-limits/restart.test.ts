// The daily quota across restarts of the same DATA_DIR: in memory, a clean shutdown saves it, the cron
// task saves it periodically (so a crash loses at most one interval's counts), and the minute window
// starts afresh; in Redis (PostgreSQL runs), Redis keeps every window, so a restart changes nothing.
import { describe, expect, test } from 'bun:test'
import { localRateCounters, rateLimitSaveTask } from '../../../src/modules/rate-limits/index.ts'
import { createLogger, memorySink } from '../../../src/lib/log.ts'
import { makeTestApp, tempDirs, type TestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { seedOrganization, signIn, type SeededOrg } from '../../helpers/seed.ts'
import type { UserRow } from '../../../src/modules/users/index.ts'

const dataDirs = tempDirs()
const ON = { RATE_LIMITS_ENABLED: 'true' }

const me = (app: TestApp, auth: { authorization: string }) => app.request('/api/v1/me', { headers: auth })

/** A fresh DATA_DIR with one organization whose users get `perDay` requests a day (and 1,000 a minute). */
async function firstStart(perDay: number, plan = 'enterprise', perMinute: number | null = 1000) {
  const dataDir = dataDirs()
  const clock = new FakeClock()
  const app = await makeTestApp(ON, { dataDir, keepData: true, clock })
  const org = await seedOrganization(app, 'acme')
  await app.context.db.raw.run('UPDATE organizations SET plan = ?, rate_limit_per_minute = ?, rate_limit_per_day = ? WHERE id = ?', [
    plan,
    perMinute,
    perDay,
    org.org.id,
  ])
  return { dataDir, clock, app, org }
}

/** The same DATA_DIR opened again, and a new session of the same user (the old tokens stay valid too). */
async function restart(dataDir: string, clock: FakeClock, user: UserRow) {
  const app = await makeTestApp(ON, { dataDir, keepData: true, clock })
  return { app, auth: (await signIn(app, user)).auth }
}

describe('a restart does not hand out a fresh daily quota', () => {
  test('after a clean shutdown the count goes on where it stopped', async () => {
    const { dataDir, clock, app, org } = await firstStart(5)
    const agent: SeededOrg['users']['agent'] = org.users.agent
    for (let i = 0; i < 3; i++) expect((await me(app, agent.auth)).status).toBe(200)
    await app.close()
    clock.advance(60_000)

    const second = await restart(dataDir, clock, agent.user)
    const fourth = await me(second.app, second.auth)
    expect([fourth.status, fourth.headers.get('x-ratelimit-limit'), fourth.headers.get('x-ratelimit-remaining')]).toEqual([200, '5', '1'])
    expect((await me(second.app, second.auth)).status).toBe(200)
    const refused = await me(second.app, second.auth)
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { message: string }).message).toContain('5 requests per day for this user')
    await second.app.close()
  })

  test('after a crash, what the cron task saved survives (only the counts since its last run are lost)', async () => {
    const { dataDir, clock, app, org } = await firstStart(10)
    const agent = org.users.agent
    for (let i = 0; i < 6; i++) await me(app, agent.auth)
    const inMemory = localRateCounters(app.context.ports.rateCounters) !== undefined
    if (inMemory) {
      const report = await rateLimitSaveTask(app.context).run({
        now: clock.now(),
        log: createLogger({ level: 'error', sink: memorySink() }),
        signal: new AbortController().signal,
      })
      // user and organization, per day: the minute windows are not saved.
      expect(report).toMatchObject({ counters_saved: 2 })
    }
    await me(app, agent.auth)
    // The first process is never closed: as if it had been killed.
    const second = await restart(dataDir, clock, agent.user)
    const response = await me(second.app, second.auth)
    // In memory the request after the save is lost with the crash; Redis has lost nothing.
    expect([response.status, response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]).toEqual([
      200,
      '10',
      inMemory ? '3' : '2',
    ])
    await second.app.close()
    await app.context.db.close()
  })

  test('the minute window starts afresh in memory, and goes on in Redis', async () => {
    const { dataDir, clock, app, org } = await firstStart(1000, 'free', null)
    const inMemory = localRateCounters(app.context.ports.rateCounters) !== undefined
    for (let i = 0; i < 60; i++) await me(app, org.users.agent.auth)
    expect((await me(app, org.users.agent.auth)).status).toBe(429)
    await app.close()
    const second = await restart(dataDir, clock, org.users.agent.user)
    const response = await me(second.app, second.auth)
    const seen = [response.status, response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining')]
    // Another instance of the cluster sees the same minute: a restart must not hand out a fresh one.
    expect(seen).toEqual(inMemory ? [200, '60', '59'] : [429, '60', '0'])
    await second.app.close()
  })
})
