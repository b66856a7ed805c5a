// The public one-time link: the JSON and HTML views, the first answer (survey.response.completed), a
// second one within 24 hours (survey.response.updated), refused after; an expired offer; a tampered or
// unknown token (404 like a missing one); the scale checked per type; a renewed link kills the old one.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { expectError, type Offered, respondent, type SurveyResponse, surveysApp, surveysClient } from './surveys-api.ts'

const clock = new FakeClock()
const { app, acme, globex } = await surveysApp({ clock })
const { users } = acme
const { send, ticket, offer, get } = surveysClient(app, users.admin)
const other = surveysClient(app, globex.users.admin)
const visitor = respondent(app)
const HOUR = 3_600_000

const eventsOf = (type: string, id: string) =>
  app.context.db.raw
    .all<{ body: string }>('SELECT body FROM events WHERE type = ? ORDER BY stream_seq', [type])
    .then((rows) =>
      rows.map((row) => JSON.parse(row.body) as { data: { response: SurveyResponse } }).filter((event) => event.data.response.id === id),
    )

async function csatOffer(questions?: string[]): Promise<Offered> {
  const subject = await ticket()
  return offer({ survey_type: 'csat', subject_type: 'ticket', subject_id: subject.id, ...(questions ? { questions } : {}) })
}

describe('the link', () => {
  test('is shown once, PUBLIC_URL/s/{43 base64url characters}; only its hash is kept', async () => {
    const { response, url } = await csatOffer()
    expect(url).toMatch(/^https:\/\/switchboard\.example\/s\/[A-Za-z0-9_-]{43}$/)
    expect(response.status).toBe('offered')
    expect(response.expires_at).toBe(new Date(clock.now() + 168 * HOUR).toISOString())
    const row = await app.context.db.raw.get<{ token_hash: string }>('SELECT token_hash FROM survey_responses WHERE id = ?', [response.id])
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(await get(response.id))).not.toContain(url.split('/s/')[1]!)
  })

  test('JSON view for a client that does not ask for HTML', async () => {
    const { url } = await csatOffer(['What could we do better?'])
    const response = await visitor.getJson(url)
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({
      survey_type: 'csat',
      scale: { min: 1, max: 5 },
      questions: ['What could we do better?'],
      status: 'offered',
      score: null,
      comment: null,
      editable_until: null,
    })
  })

  test('answered, changed within 24 h, refused after', async () => {
    const { response: offered, url } = await csatOffer()
    clock.advance(HOUR)
    const first = await visitor.postJson(url, { score: 4, comment: '  fine  ', reason_code: 'speed' })
    expect(first.status).toBe(200)
    const answeredAt = new Date(clock.now()).toISOString()
    expect(await json(first)).toMatchObject({ status: 'responded', score: 4, comment: 'fine' })
    const completed = await eventsOf('survey.response.completed', offered.id)
    expect(completed).toHaveLength(1)
    expect(completed[0]!.data.response).toEqual(await get(offered.id))
    expect(completed[0]!.data.response).toMatchObject({ status: 'responded', score: 4, reason_code: 'speed', responded_at: answeredAt })

    // Audited as the link acting (the respondent is nobody the service knows).
    const audit = await app.context.db.raw.get<{ actor_type: string; actor_id: string; target_id: string }>(
      "SELECT actor_type, actor_id, target_id FROM audit_logs WHERE event = 'survey.response.completed' AND target_id = ?",
      [offered.id],
    )
    expect(audit).toEqual({ actor_type: 'system', actor_id: 'survey_link', target_id: offered.id })

    clock.advance(23 * HOUR)
    const second = await visitor.postJson(url, { score: 2 })
    expect(second.status).toBe(200)
    const updated = await eventsOf('survey.response.updated', offered.id)
    expect(updated).toHaveLength(1)
    // Still responded, first answered at the same time; the comment left out is cleared.
    expect(updated[0]!.data.response).toMatchObject({ status: 'responded', score: 2, comment: null, responded_at: answeredAt })

    clock.advance(HOUR)
    const late = await expectError(await visitor.postJson(url, { score: 5 }), 409, 'INVALID_STATE_TRANSITION')
    expect(late.message).toContain('24 hours')
    expect(late.message).toStartWith('A responded survey cannot become responded again: ')
    expect((await get(offered.id)).score).toBe(2)
    expect(await eventsOf('survey.response.updated', offered.id)).toHaveLength(1)
  })

  test('an expired offer takes no answer (409), before and after the cron loop marks it', async () => {
    const { response: offered, url } = await csatOffer()
    clock.advance(168 * HOUR)
    expect(await json(await visitor.getJson(url))).toMatchObject({ status: 'expired' })
    const refused = await expectError(await visitor.postJson(url, { score: 5 }), 409, 'INVALID_STATE_TRANSITION')
    expect(refused.message).toContain('expired')
    expect(refused.message).toContain('responded')
    await app.context.scheduler.tick()
    clock.advance(app.config.engagements.intervalMs)
    await app.context.scheduler.tick()
    expect((await get(offered.id)).status).toBe('expired')
    await expectError(await visitor.postJson(url, { score: 5 }), 409, 'INVALID_STATE_TRANSITION')
    expect(await eventsOf('survey.response.completed', offered.id)).toHaveLength(0)
  })

  test('a tampered, unknown or malformed token is 404, like a missing one', async () => {
    const { url } = await csatOffer()
    const token = url.split('/s/')[1]!
    const tampered = `${url.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    for (const bad of [tampered, 'https://x/s/nope', `https://x/s/${'A'.repeat(43)}`]) {
      await expectError(await visitor.getJson(bad), 404, 'NOT_FOUND')
      await expectError(await visitor.postJson(bad, { score: 3 }), 404, 'NOT_FOUND')
    }
    // The real one still works.
    expect((await visitor.postJson(url, { score: 3 })).status).toBe(200)
  })

  test('the score is checked against the type of survey', async () => {
    const cases = [
      ['csat', 0, 6, [1, 5]],
      ['nps', -1, 11, [0, 10]],
      ['ces', 0, 8, [1, 7]],
    ] as const
    for (const [type, low, high, good] of cases) {
      const subject = await ticket()
      const { url } = await offer({ survey_type: type, subject_type: 'ticket', subject_id: subject.id })
      for (const bad of [low, high, 2.5, '3'])
        await expectError(await visitor.postJson(url, { score: bad }), 400, 'VALIDATION_FAILED', 'score')
      await expectError(await visitor.postJson(url, { score: good[0], comment: 'x'.repeat(2001) }), 400, 'VALIDATION_FAILED', 'comment')
      for (const score of good) expect((await visitor.postJson(url, { score })).status).toBe(200)
    }
  })

  test('a new link (POST /surveys/{id}/link) replaces the old one, only while offered', async () => {
    const { response: offered, url: old } = await csatOffer()
    const renewed = await send('POST', `/api/v1/surveys/${offered.id}/link`)
    expect(renewed.status).toBe(200)
    const { url } = await json<Offered>(renewed)
    expect(url).not.toBe(old)
    await expectError(await visitor.getJson(old), 404, 'NOT_FOUND')
    expect((await visitor.postJson(url, { score: 5 })).status).toBe(200)
    const refused = await expectError(await send('POST', `/api/v1/surveys/${offered.id}/link`), 409, 'INVALID_STATE_TRANSITION')
    expect(refused.message).toContain('responded')
    // Another organization's survey is missing.
    await expectError(await other.send('POST', `/api/v1/surveys/${offered.id}/link`), 404, 'NOT_FOUND')
  })
})
