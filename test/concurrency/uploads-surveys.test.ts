// Uploads and surveys under WRITERS requests at once over two instances (PostgreSQL) or one (SQLite): an
// upload attached once, deletes against attaches, one first answer per survey link, links, settings.
import { describe, expect, test } from 'bun:test'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'

const SLOW_MS = 60_000
const ROUNDS = 4
const { instances, send, many } = await makeCluster({ RATE_LIMITS_ENABLED: 'false', PUBLIC_URL: 'https://switchboard.example' })
const db = instances[0]!.context.db
const statuses = (responses: Response[]) => responses.map((r) => r.status)
const count = (responses: Response[], status: number) => responses.filter((r) => r.status === status).length
const made = async <T = { id: string }>(path: string, body: unknown): Promise<T> => {
  const response = await send('POST', path, body)
  expect(response.status).toBe(201)
  return json<T>(response)
}
const upload = () => made('/api/v1/uploads?filename=note.txt', 'some text')
const uploadOf = async (id: string) =>
  json<{ status: string; attached_to: { id: string } | null }>(await send('GET', `/api/v1/uploads/${id}`))
const ticket = (body: Record<string, unknown> = {}) => send('POST', '/api/v1/tickets', { subject: 'Printer on fire', ...body })
let anonTurn = 0
/** The respondent: no credential, on the next instance in turn. */
const respond = (url: string, score: number) =>
  instances[anonTurn++ % instances.length]!.request(new URL(url).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ score }),
  })
const offering = (subjectId: string) => ({ survey_type: 'csat', subject_type: 'ticket', subject_id: subjectId })
const offer = (subjectId: string) => made<{ response: { id: string }; url: string }>('/api/v1/surveys', offering(subjectId))
const newTicket = async (body: Record<string, unknown> = {}) => {
  const response = await ticket(body)
  expect(response.status).toBe(201)
  return json<{ id: string }>(response)
}

describe(`uploads and surveys at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    'one upload named by many tickets at once: one ticket has it (201), the others 409',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const { id } = await upload()
        const tickets = await many(WRITERS, () => ticket({ upload_ids: [id] }))
        expect([count(tickets, 201), count(tickets, 409)]).toEqual([1, WRITERS - 1])
        const winner = await json<{ id: string }>(tickets.find((r) => r.status === 201)!)
        expect(await uploadOf(id)).toMatchObject({ status: 'attached', attached_to: { id: winner.id } })
      }
    },
    SLOW_MS,
  )

  test(
    'uploads deleted while tickets attach them: every delete is 204 (before or after the attach), each ticket 201 or 409',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const ids = await Promise.all(Array.from({ length: WRITERS / 2 }, async () => (await upload()).id))
        const answers = await many(WRITERS, (i) =>
          i % 2 ? send('DELETE', `/api/v1/uploads/${ids[i >> 1]}`) : ticket({ upload_ids: [ids[i >> 1]] }),
        )
        for (const [i, status] of statuses(answers).entries()) expect(i % 2 ? [204] : [201, 409]).toContain(status)
        for (const id of ids) expect((await uploadOf(id)).status).toBe('deleted')
      }
    },
    SLOW_MS,
  )

  test(
    "a ticket deleted while its uploads are deleted one by one: the ticket's delete is 204, each upload's 204 or 409",
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const ids = await Promise.all(Array.from({ length: WRITERS - 1 }, async () => (await upload()).id))
        const { id } = await newTicket({ upload_ids: ids.slice(0, 20) })
        const answers = await many(WRITERS, (i) => send('DELETE', i === 0 ? `/api/v1/tickets/${id}` : `/api/v1/uploads/${ids[i - 1]}`))
        expect(answers[0]!.status).toBe(204)
        for (const status of statuses(answers.slice(1))) expect([204, 409]).toContain(status)
        for (const upload of ids) expect((await uploadOf(upload)).status).toBe('deleted')
      }
    },
    SLOW_MS,
  )

  test(
    'one survey link answered by many at once: all 200, one first answer (completed), the others change it (updated)',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const { response, url } = await offer((await newTicket()).id)
        const answers = await many(WRITERS, (i) => respond(url, 1 + (i % 5)))
        expect(statuses(answers)).toEqual(Array(WRITERS).fill(200))
        const events = await db.raw.all<{ type: string }>("SELECT type FROM events WHERE type LIKE 'survey.response.%' AND body LIKE ?", [
          `%${response.id}%`,
        ])
        const types = events.map((e) => e.type)
        expect([types.filter((t) => t.endsWith('completed')).length, types.filter((t) => t.endsWith('updated')).length]).toEqual([
          1,
          WRITERS - 1,
        ])
      }
    },
    SLOW_MS,
  )

  test(
    'new links and answers with the old link at once: the answer and the last link never undo each other',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const offers = await Promise.all(Array.from({ length: WRITERS / 2 }, async () => offer((await newTicket()).id)))
        const answers = await many(WRITERS, (i) =>
          i % 2 ? send('POST', `/api/v1/surveys/${offers[i >> 1]!.response.id}/link`) : respond(offers[i >> 1]!.url, 5),
        )
        for (let s = 0; s < offers.length; s++) {
          const [answered, renewed] = statuses(answers.slice(2 * s, 2 * s + 2))
          const row = await json<{ status: string }>(await send('GET', `/api/v1/survey-responses/${offers[s]!.response.id}`))
          if (answered === 200) expect([renewed, row.status]).toEqual([409, 'responded'])
          else {
            expect([answered, renewed, row.status]).toEqual([404, 200, 'offered'])
            expect((await respond((await json<{ url: string }>(answers[2 * s + 1]!)).url, 4)).status).toBe(200)
          }
        }
      }
    },
    SLOW_MS,
  )

  test(
    'offers of one subject at once: one survey (201), the others 409',
    async () => {
      const { id } = await newTicket()
      const offers = await many(WRITERS, () => send('POST', '/api/v1/surveys', offering(id)))
      expect([count(offers, 201), count(offers, 409)]).toEqual([1, WRITERS - 1])
    },
    SLOW_MS,
  )

  test(
    'settings: PATCHes of different channels at once are all kept',
    async () => {
      const channels = ['chat', 'email', 'sms', 'voice', 'social', 'api']
      const patch = (i: number) =>
        i % 7 === 6 ? { on_ticket_solved: ['csat'] } : { on_engagement_closed: { [channels[i % 7]!]: [['csat', 'nps', 'ces'][i % 3]!] } }
      for (let round = 0; round < ROUNDS; round++) {
        const cleared = { on_ticket_solved: [], on_engagement_closed: Object.fromEntries(channels.map((c) => [c, []])) }
        expect((await send('PATCH', '/api/v1/surveys/settings', cleared)).status).toBe(200)
        expect(statuses(await many(WRITERS, (i) => send('PATCH', '/api/v1/surveys/settings', patch(i))))).toEqual(Array(WRITERS).fill(200))
        const settings = await json<{ on_ticket_solved: string[]; on_engagement_closed: Record<string, string[]> }>(
          await send('GET', '/api/v1/surveys/settings'),
        )
        expect([settings.on_ticket_solved, Object.keys(settings.on_engagement_closed).sort()]).toEqual([['csat'], [...channels].sort()])
      }
    },
    SLOW_MS,
  )

  test(
    'offers capturing a contact while it is deleted: the delete is 204, each offer 201, none names the deleted contact',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const contact = await made('/api/v1/contacts', { name: `Doomed ${round}` })
        const tickets = await Promise.all(Array.from({ length: WRITERS - 1 }, () => newTicket({ contact_id: contact.id })))
        const answers = await many(WRITERS, (i) =>
          i === 2
            ? send('DELETE', `/api/v1/contacts/${contact.id}`)
            : send('POST', '/api/v1/surveys', offering(tickets[i > 2 ? i - 1 : i]!.id)),
        )
        expect(statuses(answers)).toEqual(Array(WRITERS).fill(201).with(2, 204))
        const naming = await db.raw.get<{ n: number }>('SELECT count(*) AS n FROM survey_responses WHERE contact_id = ?', [contact.id])
        expect(Number(naming!.n)).toBe(0)
      }
    },
    SLOW_MS,
  )
})
