// The oauth_cleanup cron task: authorization codes leave the database once expired (used or not), on
// the cron loop's interval; until then a used code is kept, so its replay is recognised.
import { expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { tokenWorld } from './token-helpers.ts'

const w = await tokenWorld()
const { app, acme } = w
const dashboard = await w.register()
const codes = () => app.context.db.raw.all<{ consumed_at: number | null }>('SELECT consumed_at FROM oauth_codes')

test('expired codes are deleted by the cron task every 5 minutes; fresh ones stay', async () => {
  const used = await w.issueCode({ user: acme.users.agent.user, client: dashboard, scope: 'openid' })
  expect((await w.exchange(dashboard, used.code)).status).toBe(200)
  await w.issueCode({ user: acme.users.agent.user, client: dashboard, scope: 'openid' })
  expect(await codes()).toHaveLength(2)
  expect(app.context.scheduler.status().oauth_cleanup).toMatchObject({ runs: 0 })

  app.clock.advance(5 * 60_000)
  const fresh = await w.issueCode({ user: acme.users.agent.user, client: dashboard, scope: 'openid' })
  await app.context.scheduler.tick()
  expect(app.context.scheduler.status().oauth_cleanup).toMatchObject({ runs: 1, failures: 0 })
  expect(await codes()).toEqual([{ consumed_at: null }])
  const line = app.logs.records().findLast((r) => r.msg === 'cron' && r.task === 'oauth_cleanup')
  expect(line).toMatchObject({ codes_deleted: 2 })

  // After deletion a replay is just unknown; the fresh code still works.
  const replay = await w.exchange(dashboard, used.code)
  expect(await json(replay)).toMatchObject({ error: 'invalid_grant', error_description: 'The authorization code is unknown or expired' })
  expect((await w.exchange(dashboard, fresh.code)).status).toBe(200)
})
