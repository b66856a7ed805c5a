// The session lifecycle, pair by pair through the API: every allowed move answers 200 with the new
// status and its fields; every other is 409 INVALID_STATE_TRANSITION naming both states. Plus what each
// move sets and clears (snoozed_until, closed_at, close_reason, waiting_since) and the events.
import { describe, expect, test } from 'bun:test'
import { ALLOWED, client, type Engagement, engagementEvents, engagementsApp, expectError, PATHS, STATUSES } from './engagements-api.ts'

const { app, acme, globex } = await engagementsApp()
const { users } = acme
const admin = client(app, users.admin.auth)
const contactId = await admin.contact()
const agentId = users.agent.user.id
const until = () => new Date(app.clock.now() + 3_600_000).toISOString()

async function sessionIn(status: string): Promise<Engagement> {
  let row = await admin.create({ contact_id: contactId })
  let from = 'queued'
  for (const step of PATHS[status]!) {
    row = await admin.ok(admin.moveTo(row.id, from, step, agentId, until()))
    from = step
  }
  expect(row.status).toBe(status)
  return row
}

describe('the lifecycle table', () => {
  for (const from of STATUSES)
    for (const to of STATUSES) {
      if (to === from || to === 'queued') continue
      const allowed = ALLOWED[from]!.includes(to)
      test(`${from} -> ${to} is ${allowed ? 'allowed' : 'refused (409 naming both)'}`, async () => {
        const row = await sessionIn(from)
        const response = await admin.moveTo(row.id, from, to, agentId, until())
        if (allowed) expect((await admin.ok(response)).status).toBe(to)
        else {
          const error = await expectError(response, 409, 'INVALID_STATE_TRANSITION')
          expect(error.message).toContain(from)
          expect(error.message).toContain(to)
        }
      })
    }

  test('operations that do not fit the status are refused: reopen a queued or active one, unsnooze an active one', async () => {
    await expectError(await admin.op((await sessionIn('queued')).id, 'reopen'), 409, 'INVALID_STATE_TRANSITION')
    await expectError(await admin.op((await sessionIn('active')).id, 'reopen'), 409, 'INVALID_STATE_TRANSITION')
    await expectError(await admin.op((await sessionIn('active')).id, 'unsnooze'), 409, 'INVALID_STATE_TRANSITION')
    await expectError(await admin.op((await sessionIn('closed')).id, 'assign', { assignee_id: agentId }), 409, 'INVALID_STATE_TRANSITION')
  })

  test('a closed session without an assignee reopens to the queue', async () => {
    const row = await admin.create({ contact_id: contactId })
    expect((await admin.ok(admin.op(row.id, 'close', { reason: 'customer' }))).close_reason).toBe('customer')
    expect(await admin.ok(admin.op(row.id, 'reopen'))).toMatchObject({ status: 'queued', closed_at: null, close_reason: null })
  })
})

describe('what each move sets', () => {
  test('snooze sets snoozed_until (in the future only), leaving snoozed clears it', async () => {
    const row = await sessionIn('active')
    await expectError(
      await admin.op(row.id, 'snooze', { until: new Date(app.clock.now()).toISOString() }),
      400,
      'VALIDATION_FAILED',
      'until',
    )
    await expectError(await admin.op(row.id, 'snooze', { until: 'tomorrow' }), 400, 'VALIDATION_FAILED')
    const at = until()
    expect(await admin.ok(admin.op(row.id, 'snooze', { until: at }))).toMatchObject({ status: 'snoozed', snoozed_until: at })
    expect(await admin.ok(admin.op(row.id, 'unsnooze'))).toMatchObject({ status: 'active', snoozed_until: null })
  })

  test('close sets closed_at and close_reason agent, clears waiting_since, and emits engagement.closed; reopen clears them', async () => {
    const row = await sessionIn('active')
    await admin.message(row.id, 'in')
    expect((await admin.get(row.id)).waiting_since).not.toBeNull()
    const closed = await admin.ok(admin.op(row.id, 'close'))
    expect(closed).toMatchObject({
      status: 'closed',
      close_reason: 'agent',
      closed_at: new Date(app.clock.now()).toISOString(),
      waiting_since: null,
    })
    const events = await engagementEvents(app, row.id)
    expect(events.map((e) => e.type)).toEqual(['engagement.created', 'engagement.message.added', 'engagement.closed'])
    expect(events[2]!.data.engagement).toEqual(closed)
    expect(await admin.ok(admin.op(row.id, 'reopen'))).toMatchObject({ status: 'active', closed_at: null, close_reason: null })
  })

  test('create checks its references in the organization; PATCH changes the descriptive fields only', async () => {
    const other = await client(app, globex.users.admin.auth).contact()
    await expectError(
      await admin.send('POST', '/api/v1/engagements', undefined, { contact_id: other, channel: 'chat' }),
      400,
      'VALIDATION_FAILED',
      'contact_id',
    )
    await expectError(
      await admin.send('POST', '/api/v1/engagements', undefined, { contact_id: contactId, channel: 'fax' }),
      400,
      'VALIDATION_FAILED',
    )
    for (const field of ['ticket_id', 'call_id', 'assignee_id'])
      await expectError(
        await admin.send('POST', '/api/v1/engagements', undefined, {
          contact_id: contactId,
          channel: 'chat',
          [field]: globex.users.agent.user.id,
        }),
        400,
        'VALIDATION_FAILED',
        field,
      )
    const row = await admin.create({ contact_id: contactId, labels: [' VIP ', 'vip'], subject: 'Refund' })
    expect(row).toMatchObject({ status: 'queued', labels: ['vip'], subject: 'Refund', priority: 'normal', assignee_id: null })
    const changed = await admin.ok(
      admin.send('PATCH', `/api/v1/engagements/${row.id}`, undefined, { team: 'billing', priority: 'high', custom_fields: { order: 7 } }),
    )
    expect(changed).toMatchObject({ team: 'billing', priority: 'high', custom_fields: { order: 7 }, status: 'queued' })
    await expectError(await admin.send('PATCH', `/api/v1/engagements/${row.id}`, undefined, { status: 'closed' }), 400, 'VALIDATION_FAILED')
    await expectError(await client(app, globex.users.admin.auth).send('GET', `/api/v1/engagements/${row.id}`), 404, 'NOT_FOUND')
  })

  test('escalate sets the fields, hands the session to the agent, and emits engagement.escalated', async () => {
    const row = await sessionIn('queued')
    await expectError(await admin.op(row.id, 'escalate', { level: '2', to: { team: 'tier2' }, reason: 'x' }), 400, 'VALIDATION_FAILED')
    await expectError(await admin.op(row.id, 'escalate', { level: 2, to: {}, reason: 'x' }), 400, 'VALIDATION_FAILED', 'to')
    const toTeam = await admin.ok(admin.op(row.id, 'escalate', { level: 1, to: { team: 'tier2' }, reason: 'Refund limit' }))
    expect(toTeam).toMatchObject({
      status: 'queued',
      team: 'tier2',
      escalation_level: 1,
      escalated_to: { team: 'tier2' },
      escalation_reason: 'Refund limit',
    })
    const toAgent = await admin.ok(admin.op(row.id, 'escalate', { level: 2, to: { agent_id: users.supervisor.user.id }, reason: 'VIP' }))
    expect(toAgent).toMatchObject({ status: 'active', assignee_id: users.supervisor.user.id, escalation_level: 2 })
    const events = (await engagementEvents(app, row.id)).filter((e) => e.type === 'engagement.escalated')
    expect(events.map((e) => e.data.escalation)).toEqual([
      { level: 1, to: { team: 'tier2' }, reason: 'Refund limit' },
      { level: 2, to: { agent_id: users.supervisor.user.id }, reason: 'VIP' },
    ])
    await admin.ok(admin.op(row.id, 'close'))
    await expectError(await admin.op(row.id, 'escalate', { level: 3, to: { team: 'x' }, reason: 'y' }), 409, 'INVALID_STATE_TRANSITION')
  })

  test('create_ticket: a ticket for the contact, linked, created in the same transaction before the escalation', async () => {
    const row = await sessionIn('queued')
    const escalated = await admin.ok(
      admin.op(row.id, 'escalate', {
        level: 1,
        to: { agent_id: users.supervisor.user.id },
        reason: 'Refund above the limit',
        create_ticket: true,
      }),
    )
    expect(escalated.ticket_id).toMatch(/^tkt_/)
    const ticket = await admin.ok(admin.send('GET', `/api/v1/tickets/${escalated.ticket_id}`))
    expect(ticket).toMatchObject({
      contact_id: row.contact_id,
      assignee_id: users.supervisor.user.id,
      description: 'Refund above the limit',
      priority: row.priority,
    })
    await expectError(
      await admin.op(row.id, 'escalate', { level: 2, to: { team: 't' }, reason: 'r', create_ticket: true, ticket_id: escalated.ticket_id }),
      400,
      'VALIDATION_FAILED',
      'create_ticket',
    )
  })
})
