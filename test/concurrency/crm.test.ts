// The CRM's invariants under WRITERS requests at once over two instances (PostgreSQL) or one (SQLite):
// identifiers unique, no lost PATCH, merges and deletes against the writes they race, one conversion.
import { describe, expect, test } from 'bun:test'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'

const SLOW_MS = 60_000
const ROUNDS = 4
const { instances, send, many } = await makeCluster({ RATE_LIMITS_ENABLED: 'false' })
const db = instances[0]!.context.db
const statuses = (responses: Response[]) => responses.map((r) => r.status)
const count = (responses: Response[], status: number) => responses.filter((r) => r.status === status).length
const created = async (path: string, body: unknown) => {
  const response = await send('POST', path, body)
  expect(response.status).toBe(201)
  return json<{ id: string }>(response)
}
const contact = (body: Record<string, unknown> = {}) => created('/api/v1/contacts', { name: 'Grace', ...body })
const live = async (where: string, params: string[]) =>
  Number((await db.raw.get<{ n: number }>(`SELECT count(*) AS n FROM contacts WHERE ${where} AND merged_into_id IS NULL`, params))!.n)

describe(`CRM at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    'identifiers: creations with one e-mail (any case) or one phone (any spelling) make one contact, the others 409',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const email = `dup${round}@example.com`
        const byEmail = await many(WRITERS, (i) =>
          send('POST', '/api/v1/contacts', { name: `E${i}`, email: i % 2 ? email.toUpperCase() : email }),
        )
        const phone = `+1415555${String(1000 + round)}`
        const byPhone = await many(WRITERS, (i) =>
          send('POST', '/api/v1/contacts', { name: `P${i}`, phone: i % 2 ? phone : `+1 (415) 555-${1000 + round}` }),
        )
        for (const responses of [byEmail, byPhone]) expect([count(responses, 201), count(responses, 409)]).toEqual([1, WRITERS - 1])
        expect([await live('email = ?', [email]), await live('phone = ?', [phone])]).toEqual([1, 1])
      }
    },
    SLOW_MS,
  )

  test(
    "a ticket's new requester e-mail: tickets at once make one contact, every ticket names it",
    async () => {
      const email = 'requester@example.com'
      const tickets = await many(WRITERS, (i) => send('POST', '/api/v1/tickets', { subject: `T${i}`, requester: { name: 'Req', email } }))
      expect(statuses(tickets)).toEqual(Array(WRITERS).fill(201))
      const ids = new Set((await Promise.all(tickets.map((r) => json<{ contact_id: string }>(r)))).map((t) => t.contact_id))
      expect([ids.size, await live('email = ?', [email])]).toEqual([1, 1])
    },
    SLOW_MS,
  )

  test(
    'PATCHes of different fields of one contact at once: every one is kept (no lost update)',
    async () => {
      const changes = (i: number): Record<string, unknown> =>
        [
          { name: 'Renamed' },
          { email: 'patched@example.com' },
          { external_id: 'ext-1' },
          { contact_type: 'customer' },
          { blocked: true },
          { tags: ['vip'] },
          { custom_fields: { tier: 'gold' } },
          { consent: { sms: true } },
        ][i % 8]!
      for (let round = 0; round < ROUNDS; round++) {
        const { id } = await contact({ consent: { email: true } })
        expect(statuses(await many(WRITERS, (i) => send('PATCH', `/api/v1/contacts/${id}`, changes(i))))).toEqual(Array(WRITERS).fill(200))
        const after = await json<Record<string, unknown>>(await send('GET', `/api/v1/contacts/${id}`))
        for (let i = 0; i < 8; i++)
          expect(after).toMatchObject(Object.fromEntries(Object.entries(changes(i)).filter(([k]) => k !== 'consent')))
        expect(after.consent).toMatchObject({ email: { granted: true }, sms: { granted: true } })
        await send('PATCH', `/api/v1/contacts/${id}`, { email: null, external_id: null })
      }
    },
    SLOW_MS,
  )

  test(
    'merges both ways of pairs at once: one of each pair survives; PATCHes of the merged one never revive it',
    async () => {
      const pairs = await Promise.all(
        Array.from({ length: WRITERS / 2 }, async () => [(await contact()).id, (await contact()).id] as const),
      )
      const merges = await many(WRITERS, (i) => {
        const [a, b] = pairs[i >> 1]!
        return i % 2
          ? send('POST', `/api/v1/contacts/${a}/merge`, { other_id: b })
          : send('POST', `/api/v1/contacts/${b}/merge`, { other_id: a })
      })
      for (let p = 0; p < pairs.length; p++) {
        const [first, second] = statuses(merges.slice(2 * p, 2 * p + 2)).sort()
        expect(first === 200 && [400, 404].includes(second!)).toBe(true)
        expect(await live('id IN (?, ?)', [...pairs[p]!])).toBe(1)
      }
      const [survivor, other] = [(await contact()).id, (await contact({ email: 'merged@example.com' })).id]
      const raced = await many(WRITERS, (i) =>
        i === 1
          ? send('POST', `/api/v1/contacts/${survivor}/merge`, { other_id: other })
          : send('PATCH', `/api/v1/contacts/${other}`, { tags: [`t${i}`] }),
      )
      for (const status of statuses(raced)) expect([200, 404]).toContain(status)
      expect([raced[1]!.status, (await send('GET', `/api/v1/contacts/${other}`)).status]).toEqual([200, 404])
      expect(await live('email = ?', ['merged@example.com'])).toBe(1)
    },
    SLOW_MS,
  )

  test(
    'conversions of one lead at once make one contact and one account; every answer is that one (200)',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        // No e-mail or phone: no unique index would stop a second contact, only the lead's own lock does.
        const lead = await created('/api/v1/leads', { name: `Lead ${round}`, status: 'qualified' })
        // Every other round with a new account too (its domain's unique index alone would already serialize them).
        const account = round % 2 ? { create: { name: 'Initech', domain: `initech${round}.example` } } : null
        const answers = await many(WRITERS, () => send('POST', `/api/v1/leads/${lead.id}/convert`, { contact: { create: {} }, account }))
        expect(statuses(answers)).toEqual(Array(WRITERS).fill(200))
        const made = await Promise.all(answers.map((r) => json<{ contact: { id: string }; account: { id: string } | null }>(r)))
        expect([new Set(made.map((m) => m.contact.id)).size, new Set(made.map((m) => m.account?.id)).size]).toEqual([1, 1])
        expect(await live('name = ?', [`Lead ${round}`])).toBe(1)
      }
    },
    SLOW_MS,
  )

  test(
    'a lead converted and set unqualified at once: one story, never both',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const lead = await created('/api/v1/leads', { name: `Either ${round}`, status: 'qualified' })
        const answers = await many(WRITERS, (i) =>
          i % 2
            ? send('POST', `/api/v1/leads/${lead.id}/convert`, { contact: { create: {} } })
            : send('PATCH', `/api/v1/leads/${lead.id}`, { status: 'unqualified' }),
        )
        const [converts, patches] = [answers.filter((_, i) => i % 2), answers.filter((_, i) => !(i % 2))]
        const final = await json<{ status: string; converted_contact_id: string | null }>(await send('GET', `/api/v1/leads/${lead.id}`))
        const won = final.status === 'converted' ? [converts, patches] : [patches, converts]
        expect([statuses(won[0]!), statuses(won[1]!)]).toEqual([Array(WRITERS / 2).fill(200), Array(WRITERS / 2).fill(409)])
        expect(final.converted_contact_id !== null).toBe(final.status === 'converted')
        expect(await live('name = ?', [`Either ${round}`])).toBe(final.status === 'converted' ? 1 : 0)
      }
    },
    SLOW_MS,
  )
  test(
    'accounts: one domain makes one account; PATCHes of different fields are all kept',
    async () => {
      const same = await many(WRITERS, (i) =>
        send('POST', '/api/v1/accounts', { name: `A${i}`, domain: i % 2 ? 'https://www.Umbrella.example/' : 'umbrella.example' }),
      )
      expect([count(same, 201), count(same, 409)]).toEqual([1, WRITERS - 1])
      const changes = (i: number) =>
        [{ name: 'Renamed' }, { industry: 'Pharma' }, { size: '51-200' }, { tags: ['key'] }, { custom_fields: { tier: 1 } }][i % 5]!
      for (let round = 0; round < ROUNDS; round++) {
        const { id } = await created('/api/v1/accounts', { name: 'Acme' })
        expect(statuses(await many(WRITERS, (i) => send('PATCH', `/api/v1/accounts/${id}`, changes(i))))).toEqual(Array(WRITERS).fill(200))
        const after = await json<Record<string, unknown>>(await send('GET', `/api/v1/accounts/${id}`))
        for (let i = 0; i < 5; i++) expect(after).toMatchObject(changes(i))
      }
    },
    SLOW_MS,
  )

  test(
    'an account deleted (cascade=detach) while contacts are created in it: 204, each contact 201 or 400, none names it',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const { id } = await created('/api/v1/accounts', { name: `Doomed ${round}` })
        const answers = await many(WRITERS, (i) =>
          i === 3
            ? send('DELETE', `/api/v1/accounts/${id}?cascade=detach`)
            : send('POST', '/api/v1/contacts', { name: `In ${i}`, account_id: id }),
        )
        expect(answers[3]!.status).toBe(204)
        for (const [i, status] of statuses(answers).entries()) if (i !== 3) expect([201, 400]).toContain(status)
        expect(Number((await db.raw.get<{ n: number }>('SELECT count(*) AS n FROM contacts WHERE account_id = ?', [id]))!.n)).toBe(0)
      }
    },
    SLOW_MS,
  )
})
