// The mfa_cleanup cron task: a login challenge goes an hour after it expired (its wrong-code count feeds
// the lockout window until then), an SMS record a day after it was sent; anything younger stays.
import { afterAll, expect, test } from 'bun:test'
import { mfaCleanupTask } from '../../../src/modules/mfa/index.ts'
import { createLogger, memorySink } from '../../../src/lib/log.ts'
import { makeTestApp } from '../../helpers/app.ts'
import { challenge, enrollSmsViaLog, enrollTotp, freshOrg } from './helpers.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const HOUR = 3_600_000

async function runTask(): Promise<Record<string, unknown>> {
  const run = { now: app.clock.now(), log: createLogger({ level: 'error', sink: memorySink() }), signal: new AbortController().signal }
  return (await mfaCleanupTask(app.context).run(run)) as Record<string, unknown>
}

const count = async (table: string) => Number((await app.context.db.raw.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n)

test('challenges an hour past expiry and SMS records a day old are deleted; younger ones stay', async () => {
  const { users } = await freshOrg(app)
  await enrollTotp(app, users.agent.auth)
  await enrollSmsViaLog(app, users.supervisor.auth, '+14155550101')
  await challenge(app, users.agent.user.email)
  await challenge(app, users.supervisor.user.email)
  const challenges = await count('mfa_challenges')
  const texts = await count('sms_messages')
  expect(challenges).toBeGreaterThanOrEqual(2)
  // The enrollment's text message.
  expect(texts).toBeGreaterThanOrEqual(1)

  expect(await runTask()).toEqual({ worked: false, mfa_challenges_deleted: 0, sms_records_deleted: 0 })
  // Past the challenges' expiry, not yet an hour past it.
  app.clock.advance(app.context.config.mfaTokenTtlS * 1000 + HOUR - 1)
  expect((await runTask()).mfa_challenges_deleted).toBe(0)
  app.clock.advance(1)
  expect(await runTask()).toMatchObject({ worked: true, mfa_challenges_deleted: challenges, sms_records_deleted: 0 })
  expect(await count('mfa_challenges')).toBe(0)
  app.clock.advance(24 * HOUR)
  expect(await runTask()).toEqual({ worked: true, mfa_challenges_deleted: 0, sms_records_deleted: texts })
  expect(await count('sms_messages')).toBe(0)
})

test('the task is named mfa_cleanup, runs every 5 minutes by default and with AUTH_CLEANUP_INTERVAL', () => {
  const task = mfaCleanupTask(undefined as never)
  expect([task.name, task.intervalMs, task.scope]).toEqual(['mfa_cleanup', 300_000, undefined])
  expect(app.context.scheduler.status().mfa_cleanup).toBeDefined()
})
