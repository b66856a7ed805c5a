// Surveys reach only subjects the caller sees (issue 27): an agent neither offers a survey about a
// colleague's ticket, session or call nor renews the link of one (404, as for a missing one), while its
// own subjects and every subject for an admin work as before.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { type ErrorBody, expectError, type Offered, respondent, surveysApp, surveysClient } from './surveys-api.ts'

const { app, acme } = await surveysApp()
const { admin, agent, supervisor } = acme.users
const asAdmin = surveysClient(app, admin)
const asAgent = surveysClient(app, agent)
const visitor = respondent(app)

type SubjectType = 'ticket' | 'engagement' | 'call'
const ROUTE: Record<SubjectType, string> = { ticket: 'tickets', engagement: 'engagements', call: 'calls' }
const MISSING: Record<SubjectType, string> = { ticket: 'tkt_missing', engagement: 'eng_missing', call: 'cal_missing' }

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const response = await asAdmin.send('POST', path, undefined, body)
  expect(response.status).toBe(201)
  return (await json<{ id: string }>(response)).id
}

const contactId = await created('/api/v1/contacts', { name: 'Grace Customer' })

/** A ticket, an engagement session and a call, made by the admin, each worked by `userId`. */
async function subjectsOf(userId: string): Promise<Record<SubjectType, string>> {
  return {
    ticket: await created('/api/v1/tickets', { subject: 'Printer on fire', channel: 'email', contact_id: contactId, assignee_id: userId }),
    engagement: await created('/api/v1/engagements', { contact_id: contactId, channel: 'chat', assignee_id: userId }),
    call: await created('/api/v1/calls', { direction: 'inbound', from: '+14155550111', to: '+14155550199', agent_id: userId }),
  }
}

// The agent's colleague here is the supervisor: what matters is that someone else works the subject.
const colleagues = await subjectsOf(supervisor.user.id)
const own = await subjectsOf(agent.user.id)
const TYPES = Object.keys(colleagues) as SubjectType[]

/** An error as a client compares it: everything but the request's own id. */
const withoutRequestId = async (response: Response) => ({ ...(await json<ErrorBody>(response)), request_id: undefined })
const offerAs = (client: typeof asAgent, type: SubjectType, id: string) =>
  client.send('POST', '/api/v1/surveys', undefined, { survey_type: 'csat', subject_type: type, subject_id: id })
const surveysOf = async (subjectId: string) =>
  (await json<{ survey_responses: unknown[] }>(await asAdmin.send('GET', `/api/v1/survey-responses?subject_id=${subjectId}`)))
    .survey_responses

describe('offering (POST /api/v1/surveys)', () => {
  test("an agent offering a survey about a colleague's ticket, session or call gets 404, exactly as for a missing one", async () => {
    for (const type of TYPES) {
      const id = colleagues[type]
      // The subject's own module hides it from the agent...
      await expectError(await asAgent.send('GET', `/api/v1/${ROUTE[type]}/${id}`), 404, 'NOT_FOUND')
      // ...and so does offering a survey about it: no contact, assignee or channel read back, nothing offered.
      const refused = await offerAs(asAgent, type, id)
      expect(refused.status, type).toBe(404)
      const missing = await expectError(await offerAs(asAgent, type, MISSING[type]), 404, 'NOT_FOUND')
      expect(await withoutRequestId(refused), type).toEqual({ ...missing, request_id: undefined })
      expect(await surveysOf(id), type).toEqual([])
    }
  })

  test("the agent offers surveys about its own subjects; an admin about anyone's", async () => {
    for (const type of TYPES) {
      const mine = await offerAs(asAgent, type, own[type])
      expect(mine.status, type).toBe(201)
      expect((await json<Offered>(mine)).response).toMatchObject({ subject_id: own[type], agent_id: agent.user.id })
      const theirs = await offerAs(asAdmin, type, colleagues[type])
      expect(theirs.status, type).toBe(201)
      expect((await json<Offered>(theirs)).response).toMatchObject({ subject_id: colleagues[type], agent_id: supervisor.user.id })
    }
  })
})

describe('a new link (POST /api/v1/surveys/{id}/link)', () => {
  test("an agent renewing the link of a survey about a colleague's subject gets 404 as for a missing survey; the customer's link still works", async () => {
    const missing = await expectError(await asAgent.send('POST', '/api/v1/surveys/srv_missing/link'), 404, 'NOT_FOUND')
    for (const type of TYPES) {
      const subject = await created(`/api/v1/${ROUTE[type]}`, {
        ...(type === 'ticket' && { subject: 'Late delivery', assignee_id: supervisor.user.id }),
        ...(type === 'engagement' && { contact_id: contactId, channel: 'email', assignee_id: supervisor.user.id }),
        ...(type === 'call' && { direction: 'outbound', from: '+14155550199', to: '+14155550111', agent_id: supervisor.user.id }),
      })
      const { response, url } = await asAdmin.offer({ survey_type: 'nps', subject_type: type, subject_id: subject })
      const refused = await asAgent.send('POST', `/api/v1/surveys/${response.id}/link`)
      expect(refused.status, type).toBe(404)
      expect(await withoutRequestId(refused), type).toEqual({ ...missing, request_id: undefined })
      // The customer's link was not replaced: it still opens and takes the answer.
      expect((await visitor.getJson(url)).status, type).toBe(200)
      expect((await visitor.postJson(url, { score: 9 })).status, type).toBe(200)
    }
  })

  test("the agent renews the links of surveys about its own subjects; an admin of anyone's", async () => {
    for (const [client, subjects] of [
      [asAgent, own],
      [asAdmin, colleagues],
    ] as const)
      for (const type of TYPES) {
        const { response } = await asAdmin.offer({ survey_type: 'ces', subject_type: type, subject_id: subjects[type] })
        const renewed = await client.send('POST', `/api/v1/surveys/${response.id}/link`)
        expect(renewed.status, type).toBe(200)
        expect((await visitor.getJson((await json<Offered>(renewed)).url)).status, type).toBe(200)
      }
  })
})
