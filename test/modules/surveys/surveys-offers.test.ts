// Offering surveys: by hand (the subject must be the organization's; one survey per subject and type),
// the settings of automatic offers, the offers made when a ticket is solved and when a session closes
// (in the event's transaction, capturing its contact, agent, team and channel), and the permissions.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { expectError, type Offered, respondent, type SurveyResponse, surveysApp, surveysClient } from './surveys-api.ts'

const clock = new FakeClock()
const { app, acme, globex } = await surveysApp({ clock })
const admin = surveysClient(app, acme.users.admin)
const other = surveysClient(app, globex.users.admin)
const { send, ticket, solve, offer, get } = admin

const offersOf = (subjectId: string) =>
  app.context.db.raw.all<{ id: string; survey_type: string }>(
    'SELECT id, survey_type FROM survey_responses WHERE subject_id = ? ORDER BY survey_type',
    [subjectId],
  )

async function contact(): Promise<string> {
  const response = await send('POST', '/api/v1/contacts', undefined, { name: 'Grace Customer' })
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

describe('by hand', () => {
  test('captures the subject and refuses a second survey of a type (409), allows another type', async () => {
    const contactId = await contact()
    const subject = await ticket({ contact_id: contactId, assignee_id: acme.users.agent.user.id })
    const { response } = await offer({ survey_type: 'csat', subject_type: 'ticket', subject_id: subject.id, questions: ['  Why?  '] })
    expect(response).toMatchObject({
      survey_type: 'csat',
      subject_type: 'ticket',
      subject_id: subject.id,
      contact_id: contactId,
      agent_id: acme.users.agent.user.id,
      team: null,
      channel: 'email',
      status: 'offered',
      score: null,
      questions: ['Why?'],
      answers: [],
      offered_at: new Date(clock.now()).toISOString(),
      responded_at: null,
      editable_until: null,
    })
    expect(response.id).toMatch(/^srv_/)
    const again = await expectError(
      await send('POST', '/api/v1/surveys', undefined, { survey_type: 'csat', subject_type: 'ticket', subject_id: subject.id }),
      409,
      'CONFLICT',
      'subject_id',
    )
    expect(again.message).toContain(response.id)
    await offer({ survey_type: 'nps', subject_type: 'ticket', subject_id: subject.id })
  })

  test("a call's survey captures its agent, its queue as the team, and the voice channel", async () => {
    const created = await send('POST', '/api/v1/calls', undefined, {
      direction: 'inbound',
      from: '+14155550111',
      to: '+14155550199',
      queue: 'billing',
      agent_id: acme.users.admin.user.id,
    })
    expect(created.status).toBe(201)
    const call = await json<{ id: string }>(created)
    const { response } = await offer({ survey_type: 'ces', subject_type: 'call', subject_id: call.id })
    expect(response).toMatchObject({ subject_type: 'call', agent_id: acme.users.admin.user.id, team: 'billing', channel: 'voice' })
  })

  test("a subject that is missing or another organization's is 404; bad bodies are 400", async () => {
    const theirs = await other.ticket()
    for (const subject of [theirs.id, 'tkt_nope'])
      await expectError(
        await send('POST', '/api/v1/surveys', undefined, { survey_type: 'csat', subject_type: 'ticket', subject_id: subject }),
        404,
        'NOT_FOUND',
      )
    const mine = await ticket()
    for (const [body, field] of [
      [{ survey_type: 'stars', subject_type: 'ticket', subject_id: mine.id }, 'survey_type'],
      [{ survey_type: 'csat', subject_type: 'order', subject_id: mine.id }, 'subject_type'],
      [{ survey_type: 'csat', subject_type: 'ticket' }, 'subject_id'],
      [{ survey_type: 'csat', subject_type: 'ticket', subject_id: mine.id, questions: ['  '] }, 'questions.0'],
    ] as const)
      await expectError(await send('POST', '/api/v1/surveys', undefined, body), 400, 'VALIDATION_FAILED', field)
  })

  test("another organization's responses are missing", async () => {
    const { response } = await offer({ survey_type: 'ces', subject_type: 'ticket', subject_id: (await ticket()).id })
    await expectError(await other.send('GET', `/api/v1/survey-responses/${response.id}`), 404, 'NOT_FOUND')
    const listed = await json<{ survey_responses: SurveyResponse[] }>(await other.send('GET', '/api/v1/survey-responses?page_size=100'))
    expect(listed.survey_responses.map((r) => r.id)).not.toContain(response.id)
  })
})

describe('settings and automatic offers', () => {
  test('default: nothing is offered; a solved ticket then offers the types set, once', async () => {
    expect(await json(await send('GET', '/api/v1/surveys/settings'))).toEqual({
      on_ticket_solved: [],
      on_engagement_closed: {},
      updated_at: null,
    })
    const before = await ticket()
    await solve(before.id)
    expect(await offersOf(before.id)).toEqual([])

    const patched = await send('PATCH', '/api/v1/surveys/settings', undefined, { on_ticket_solved: ['csat', 'nps', 'csat'] })
    expect(await json(patched)).toEqual({
      on_ticket_solved: ['csat', 'nps'],
      on_engagement_closed: {},
      updated_at: new Date(clock.now()).toISOString(),
    })
    const contactId = await contact()
    const subject = await ticket({ contact_id: contactId, assignee_id: acme.users.agent.user.id, channel: 'chat' })
    await solve(subject.id)
    const offers = await offersOf(subject.id)
    expect(offers.map((o) => o.survey_type)).toEqual(['csat', 'nps'])
    expect(await get(offers[0]!.id)).toMatchObject({
      subject_type: 'ticket',
      contact_id: contactId,
      agent_id: acme.users.agent.user.id,
      channel: 'chat',
      status: 'offered',
      expires_at: new Date(clock.now() + app.config.surveyExpiryMs).toISOString(),
    })
    // Reopened and solved again: no second offer of a type.
    expect((await send('PATCH', `/api/v1/tickets/${subject.id}`, undefined, { status: 'open' })).status).toBe(200)
    await solve(subject.id)
    expect(await offersOf(subject.id)).toEqual(offers)
    // Its link comes from POST /surveys/{id}/link, and works.
    const { url } = await json<Offered>(await send('POST', `/api/v1/surveys/${offers[0]!.id}/link`))
    expect((await respondent(app).postJson(url, { score: 5 })).status).toBe(200)
    // Another organization's settings are its own.
    expect(await json(await other.send('GET', '/api/v1/surveys/settings'))).toMatchObject({ on_ticket_solved: [] })
  })

  test('a closed session offers the types of its channel', async () => {
    const patched = await send('PATCH', '/api/v1/surveys/settings', undefined, { on_engagement_closed: { chat: ['csat'], email: ['nps'] } })
    expect(await json(patched)).toMatchObject({
      on_ticket_solved: ['csat', 'nps'],
      on_engagement_closed: { chat: ['csat'], email: ['nps'] },
    })
    const contactId = await contact()
    const offered: Record<string, string[]> = {}
    for (const channel of ['chat', 'email', 'sms']) {
      const created = await send('POST', '/api/v1/engagements', undefined, {
        contact_id: contactId,
        channel,
        assignee_id: acme.users.admin.user.id,
        team: 'support',
      })
      expect(created.status).toBe(201)
      const { id } = await json<{ id: string }>(created)
      expect((await send('POST', `/api/v1/engagements/${id}/close`, undefined, {})).status).toBe(200)
      offered[channel] = (await offersOf(id)).map((o) => o.survey_type)
      if (channel === 'chat')
        expect(await get((await offersOf(id))[0]!.id)).toMatchObject({
          subject_type: 'engagement',
          subject_id: id,
          contact_id: contactId,
          agent_id: acme.users.admin.user.id,
          team: 'support',
          channel: 'chat',
        })
    }
    expect(offered).toEqual({ chat: ['csat'], email: ['nps'], sms: [] })
    // An empty list turns a channel off; the others stay.
    const off = await send('PATCH', '/api/v1/surveys/settings', undefined, { on_engagement_closed: { chat: [] } })
    expect(await json(off)).toMatchObject({ on_engagement_closed: { email: ['nps'] } })
    await expectError(
      await send('PATCH', '/api/v1/surveys/settings', undefined, { on_engagement_closed: { fax: ['csat'] } }),
      400,
      'VALIDATION_FAILED',
    )
    await expectError(await send('PATCH', '/api/v1/surveys/settings', undefined, { on_ticket_solved: ['stars'] }), 400, 'VALIDATION_FAILED')
    await expectError(await send('PATCH', '/api/v1/surveys/settings', undefined, {}), 400, 'VALIDATION_FAILED')
  })
})

describe('permissions', () => {
  test('agents offer and read; only admins and supervisors change settings; viewers only read', async () => {
    const subject = await ticket()
    const as = (role: keyof typeof acme.users) => surveysClient(app, acme.users[role])
    const offerAs = (role: keyof typeof acme.users, type: string) =>
      as(role).send('POST', '/api/v1/surveys', undefined, { survey_type: type, subject_type: 'ticket', subject_id: subject.id })
    expect((await offerAs('agent', 'csat')).status).toBe(201)
    expect((await offerAs('supervisor', 'nps')).status).toBe(201)
    await expectError(await offerAs('viewer', 'ces'), 403, 'INSUFFICIENT_PERMISSIONS')
    for (const role of ['agent', 'viewer', 'supervisor'] as const) {
      expect((await as(role).send('GET', '/api/v1/survey-responses')).status).toBe(200)
      expect((await as(role).send('GET', '/api/v1/survey-responses/metrics')).status).toBe(200)
      expect((await as(role).send('GET', '/api/v1/surveys/settings')).status).toBe(200)
    }
    for (const role of ['agent', 'viewer'] as const)
      await expectError(
        await as(role).send('PATCH', '/api/v1/surveys/settings', undefined, { on_ticket_solved: [] }),
        403,
        'INSUFFICIENT_PERMISSIONS',
      )
    expect(
      (await as('supervisor').send('PATCH', '/api/v1/surveys/settings', undefined, { on_ticket_solved: ['csat', 'nps'] })).status,
    ).toBe(200)
    const { response } = await offer({ survey_type: 'ces', subject_type: 'ticket', subject_id: subject.id })
    await expectError(await as('viewer').send('POST', `/api/v1/surveys/${response.id}/link`), 403, 'INSUFFICIENT_PERMISSIONS')
    // No credential: the API is 401; the public link needs none.
    await expectError(await app.request('/api/v1/survey-responses'), 401, 'UNAUTHENTICATED')
  })
})
