// The cron tasks on a fake clock: engagement_snooze_wake makes snoozed sessions active at snoozed_until
// (not before), engagement_auto_close closes active sessions inactive for ENGAGEMENT_AUTO_CLOSE_MINUTES
// with close_reason auto_inactive and engagement.closed (a message keeps one open; a snoozed or queued
// one is left alone; becoming active again restarts the clock), both in batches larger than one.
import { describe, expect, test } from 'bun:test'
import { client, engagementEvents, engagementsApp } from './engagements-api.ts'

const { app, acme } = await engagementsApp({ ENGAGEMENT_AUTO_CLOSE_MINUTES: '30', ENGAGEMENT_INTERVAL: '60' })
const admin = client(app, acme.users.admin.auth)
const contactId = await admin.contact()
const agentId = acme.users.agent.user.id
const tick = async (ms: number) => {
  app.clock.advance(ms)
  await app.context.scheduler.tick()
}

describe('engagement_snooze_wake', () => {
  test('wakes snoozed sessions once snoozed_until has come, in batches', async () => {
    const until = new Date(app.clock.now() + 5 * 60_000).toISOString()
    const rows = []
    for (let i = 0; i < 205; i++) {
      const row = await admin.create({ contact_id: contactId, assignee_id: agentId })
      rows.push(await admin.ok(admin.op(row.id, 'snooze', { until })))
    }
    await tick(60_000)
    expect((await admin.get(rows[0]!.id)).status).toBe('snoozed')
    await tick(4 * 60_000)
    for (const row of [rows[0]!, rows[204]!]) expect(await admin.get(row.id)).toMatchObject({ status: 'active', snoozed_until: null })
    const [{ n }] = (await app.context.db.raw.all<{ n: number }>("SELECT count(*) AS n FROM engagements WHERE status = 'snoozed'")) as [
      { n: number },
    ]
    expect(Number(n)).toBe(0)
    // Close them all so the auto-close test starts clean.
    for (const row of rows) await admin.ok(admin.op(row.id, 'close'))
  }, 60_000)
})

describe('engagement_auto_close', () => {
  test('closes active sessions inactive for the setting, as auto_inactive with engagement.closed', async () => {
    const idle = await admin.create({ contact_id: contactId, assignee_id: agentId })
    const talking = await admin.create({ contact_id: contactId, assignee_id: agentId })
    const queued = await admin.create({ contact_id: contactId })
    const snoozed = await admin.create({ contact_id: contactId, assignee_id: agentId })
    await admin.ok(admin.op(snoozed.id, 'snooze', { until: new Date(app.clock.now() + 86_400_000).toISOString() }))
    await tick(20 * 60_000)
    await admin.message(talking.id, 'in')
    await tick(11 * 60_000)
    const closed = await admin.get(idle.id)
    expect(closed).toMatchObject({ status: 'closed', close_reason: 'auto_inactive', closed_at: new Date(app.clock.now()).toISOString() })
    expect((await admin.get(talking.id)).status).toBe('active')
    expect((await admin.get(queued.id)).status).toBe('queued')
    expect((await admin.get(snoozed.id)).status).toBe('snoozed')
    const events = await engagementEvents(app, idle.id)
    expect(events.map((e) => e.type)).toEqual(['engagement.created', 'engagement.closed'])
    expect(events[1]!.data.engagement).toEqual(closed)
    await tick(30 * 60_000)
    expect(await admin.get(talking.id)).toMatchObject({ status: 'closed', close_reason: 'auto_inactive' })
  })

  test('becoming active again starts the inactivity clock afresh: woken, reopened, assigned or escalated to an agent long after the last activity, a session stays open', async () => {
    const snoozed = await admin.create({ contact_id: contactId, assignee_id: agentId })
    await admin.ok(admin.op(snoozed.id, 'snooze', { until: new Date(app.clock.now() + 2 * 3_600_000).toISOString() }))
    const closed = await admin.create({ contact_id: contactId, assignee_id: agentId })
    await admin.ok(admin.op(closed.id, 'close'))
    const queued = await admin.create({ contact_id: contactId })
    const escalated = await admin.create({ contact_id: contactId })
    // Two hours on: the snoozed one wakes in this run, and the auto-close of the same run must leave it open.
    await tick(2 * 3_600_000)
    await admin.ok(admin.op(closed.id, 'reopen'))
    await admin.ok(admin.op(queued.id, 'assign', { assignee_id: agentId }))
    await admin.ok(admin.op(escalated.id, 'escalate', { level: 1, to: { agent_id: agentId }, reason: 'needs a person' }))
    await tick(60_000)
    for (const row of [snoozed, closed, queued, escalated]) expect((await admin.get(row.id)).status).toBe('active')
    await tick(30 * 60_000)
    for (const row of [snoozed, closed, queued, escalated])
      expect(await admin.get(row.id)).toMatchObject({ status: 'closed', close_reason: 'auto_inactive' })
  })
})
