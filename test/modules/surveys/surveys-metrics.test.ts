// The list of survey responses (filters, keyset pages) and the metrics, against figures computed by
// hand: days counted in a non-UTC time zone (America/New_York, UTC-5 in January), both edges of the
// window, and the day boundaries across a change of time.
import { describe, expect, test } from 'bun:test'
import { startOfDay } from '../../../src/modules/surveys/metrics.ts'
import { json } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { expectError, respondent, type SurveyResponse, surveysApp, surveysClient } from './surveys-api.ts'

const clock = new FakeClock()
const { app, acme } = await surveysApp({ clock })
const { send, ticket, offer } = surveysClient(app, acme.users.admin)
const visitor = respondent(app)
const agentId = acme.users.agent.user.id

/** An offer made at `at` (the clock only moves forward), answered at once with `score` unless null. */
async function survey(at: string, type: string, score: number | null, agent = false): Promise<SurveyResponse> {
  clock.advance(Date.parse(at) - clock.now())
  const subject = await ticket(agent ? { assignee_id: agentId } : {})
  const { response, url } = await offer({ survey_type: type, subject_type: 'ticket', subject_id: subject.id })
  if (score === null) return response
  const answered = await visitor.postJson(url, { score })
  expect(answered.status).toBe(200)
  return { ...response, status: 'responded', score }
}

// In time order. New York's 10 and 11 January are 2026-01-10T05:00Z to 2026-01-12T05:00Z.
const all: SurveyResponse[] = []
const plan: [string, string, number | null, boolean?][] = [
  ['2026-01-10T04:59:59.999Z', 'csat', 1], // New York's 9 January: outside
  ['2026-01-10T05:00:00.000Z', 'csat', 5, true],
  ['2026-01-10T08:00:00.000Z', 'nps', 10],
  ['2026-01-10T09:00:00.000Z', 'csat', 4, true],
  ['2026-01-10T10:00:00.000Z', 'nps', 9, true],
  ['2026-01-10T11:00:00.000Z', 'ces', 7],
  ['2026-01-10T12:00:00.000Z', 'nps', 9],
  ['2026-01-10T13:00:00.000Z', 'csat', 3],
  ['2026-01-11T01:00:00.000Z', 'nps', 8],
  ['2026-01-11T02:00:00.000Z', 'ces', 6, true],
  ['2026-01-11T03:00:00.000Z', 'nps', 6],
  ['2026-01-11T04:00:00.000Z', 'csat', 1, true],
  ['2026-01-11T05:00:00.000Z', 'nps', 0],
  ['2026-01-11T06:00:00.000Z', 'ces', 3],
  ['2026-01-11T07:00:00.000Z', 'nps', null],
  ['2026-01-12T04:59:59.999Z', 'csat', null], // New York's 11 January, 23:59: inside
  ['2026-01-12T05:00:00.000Z', 'nps', 0], // New York's 12 January: outside
]
for (const [at, type, score, agent] of plan) all.push(await survey(at, type, score, agent))

const metrics = async (query: string) => {
  const response = await send('GET', `/api/v1/survey-responses/metrics?${query}`)
  expect(response.status).toBe(200)
  return json(response)
}

describe('metrics', () => {
  test("New York's 10 and 11 January, by hand", async () => {
    // csat: 5, 4, 3, 1 answered + 1 unanswered -> rate 4/5 = 80.0, satisfied 2/4 = 50.0
    // nps: 10, 9, 9, 8, 6, 0 answered + 1 unanswered -> rate 6/7 = 85.7, (3 - 2) / 6 = 16.7
    // ces: 7, 6, 3 -> rate 100.0, average 16/3 = 5.3
    expect(await metrics('from=2026-01-10&to=2026-01-11&time_zone=America/New_York')).toEqual({
      from: '2026-01-10T05:00:00.000Z',
      to: '2026-01-12T05:00:00.000Z',
      time_zone: 'America/New_York',
      csat: { offered: 5, responded: 4, response_rate: 80, percent_satisfied: 50 },
      nps: { offered: 7, responded: 6, response_rate: 85.7, nps: 16.7 },
      ces: { offered: 3, responded: 3, response_rate: 100, average: 5.3 },
    })
  })

  test('the same dates in UTC count other offers; filters apply', async () => {
    // UTC 12 January: the unanswered csat at 04:59 and the nps 0 at 05:00.
    expect(await metrics('from=2026-01-12&to=2026-01-12')).toEqual({
      from: '2026-01-12T00:00:00.000Z',
      to: '2026-01-13T00:00:00.000Z',
      time_zone: 'UTC',
      csat: { offered: 1, responded: 0, response_rate: 0, percent_satisfied: null },
      nps: { offered: 1, responded: 1, response_rate: 100, nps: -100 },
      ces: { offered: 0, responded: 0, response_rate: null, average: null },
    })
    // The agent's: csat 5, 4, 1 (satisfied 66.7), nps 9 (100.0), ces 6.
    expect(await metrics(`agent_id=${agentId}&time_zone=Asia/Kolkata`)).toMatchObject({
      from: null,
      to: null,
      csat: { offered: 3, responded: 3, response_rate: 100, percent_satisfied: 66.7 },
      nps: { offered: 1, responded: 1, nps: 100 },
      ces: { offered: 1, average: 6 },
    })
    // Scores 0-6 of nps only: 6 and 0 and 0 -> all detractors.
    expect(await metrics('survey_type=nps&score_max=6')).toMatchObject({ nps: { responded: 3, nps: -100 }, csat: { offered: 0 } })
  })

  test('bad time zones, dates and ranges are 400', async () => {
    await expectError(await send('GET', '/api/v1/survey-responses/metrics?time_zone=Mars/Olympus'), 400, 'VALIDATION_FAILED', 'time_zone')
    await expectError(await send('GET', '/api/v1/survey-responses/metrics?from=2026-02-30'), 400, 'VALIDATION_FAILED', 'from')
    await expectError(await send('GET', '/api/v1/survey-responses/metrics?to=2026-1-5'), 400, 'VALIDATION_FAILED', 'to')
    await expectError(await send('GET', '/api/v1/survey-responses/metrics?from=2026-01-12&to=2026-01-10'), 400, 'VALIDATION_FAILED', 'to')
    await expectError(await send('GET', '/api/v1/survey-responses/metrics?score_min=5&score_max=2'), 400, 'VALIDATION_FAILED', 'score_min')
  })

  test('a day starts at its local midnight across changes of time', () => {
    // New York moves to UTC-4 on 8 March 2026 at 02:00; that day has 23 hours.
    expect(new Date(startOfDay('from', '2026-03-08', 'America/New_York')).toISOString()).toBe('2026-03-08T05:00:00.000Z')
    expect(new Date(startOfDay('from', '2026-03-09', 'America/New_York')).toISOString()).toBe('2026-03-09T04:00:00.000Z')
    expect(new Date(startOfDay('from', '2026-10-25', 'Europe/Paris')).toISOString()).toBe('2026-10-24T22:00:00.000Z')
    expect(new Date(startOfDay('from', '2026-10-26', 'Europe/Paris')).toISOString()).toBe('2026-10-25T23:00:00.000Z')
    expect(new Date(startOfDay('from', '2026-01-01', 'Asia/Kathmandu')).toISOString()).toBe('2025-12-31T18:15:00.000Z')
  })
})

describe('the list', () => {
  const ids = async (query: string) => {
    const response = await send('GET', `/api/v1/survey-responses?page_size=100&${query}`)
    expect(response.status).toBe(200)
    return (await json<{ survey_responses: SurveyResponse[] }>(response)).survey_responses.map((r) => r.id)
  }
  const expected = (keep: (r: SurveyResponse) => boolean) =>
    all
      .filter(keep)
      .map((r) => r.id)
      .reverse()

  test('newest offer first, filtered', async () => {
    expect(await ids('')).toEqual(expected(() => true))
    expect(await ids('survey_type=ces')).toEqual(expected((r) => r.survey_type === 'ces'))
    expect(await ids('status=offered')).toEqual(expected((r) => r.status === 'offered'))
    expect(await ids(`agent_id=${agentId}`)).toEqual(expected((r) => r.agent_id === agentId))
    expect(await ids('score_min=4&score_max=9')).toEqual(expected((r) => r.score !== null && r.score >= 4 && r.score <= 9))
    expect(await ids('responded_after=2026-01-11T00:00:00Z&responded_before=2026-01-12T00:00:00Z')).toEqual(
      expected((r) => r.status === 'responded' && r.offered_at >= '2026-01-11' && r.offered_at < '2026-01-12'),
    )
    expect(await ids('offered_before=2026-01-10T05:00:00Z&sort=offered_at:asc')).toEqual([all[0]!.id])
    await expectError(await send('GET', '/api/v1/survey-responses?responded_after=yesterday'), 400, 'VALIDATION_FAILED', 'responded_after')
  })

  test('keyset pages', async () => {
    const seen: string[] = []
    let token = ''
    do {
      const response = await send('GET', `/api/v1/survey-responses?page_size=4&sort=offered_at:asc${token ? `&page_token=${token}` : ''}`)
      const page = await json<{ survey_responses: SurveyResponse[]; next_page_token: string }>(response)
      seen.push(...page.survey_responses.map((r) => r.id))
      token = page.next_page_token
    } while (token)
    expect(seen).toEqual(all.map((r) => r.id))
  })
})
