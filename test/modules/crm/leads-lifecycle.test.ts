// The lead lifecycle through the API, table-driven: every allowed and every refused PATCH of the status,
// conversion only from qualified and only by convert, a converted lead read-only; agents and ownership;
// the audit records of lead changes.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { client, expectError, type Lead, leadsApp, PATCHABLE, STATUSES } from './leads-api.ts'

const { app, acme } = await leadsApp()
const { users } = acme
const { send, create, patch, get, leadIn } = client(app, users.admin.auth)
const convert = (id: string, body: unknown = { contact: { create: {} } }, auth = users.admin.auth) =>
  send('POST', `/api/v1/leads/${id}/convert`, auth, body)

let counter = 0
/** "A new lead", "An unqualified lead": how every lifecycle names a state. */
const aLead = (status: string) => `${/^[aeiou]/.test(status) ? 'An' : 'A'} ${status} lead`
/** A lead in `status`; converted through the convert operation, with an e-mail no other lead shares. */
const inStatus = async (status: string, body: Record<string, unknown> = {}, auth = users.admin.auth): Promise<Lead> => {
  const unique = { email: `lead${++counter}@lifecycle.example`, ...body }
  if (status !== 'converted') return leadIn(status, unique, auth)
  const lead = await leadIn('qualified', unique, auth)
  const response = await convert(lead.id, undefined, auth)
  expect(response.status).toBe(200)
  return (await json<{ lead: Lead }>(response)).lead
}

describe('status changes by PATCH', () => {
  const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const))
  test.each(pairs)('%s -> %s', async (from, to) => {
    const lead = await inStatus(from)
    const response = await patch(lead.id, { status: to })
    if (from === 'converted') {
      const error = await expectError(response, 409, 'INVALID_STATE_TRANSITION')
      // Both states are named, as for every refused move (the same one: no move, a change).
      const refused = to === 'converted' ? 'change' : `become ${to}`
      expect(error.message).toBe(`A converted lead cannot ${refused}: it is final and read-only, the record of its conversion`)
    } else if (PATCHABLE[from]!.includes(to) || to === from) {
      expect(response.status).toBe(200)
      expect((await json<Lead>(response)).status).toBe(to)
    } else {
      const error = await expectError(response, 409, 'INVALID_STATE_TRANSITION')
      // Both states are named.
      expect(error.message).toContain(aLead(from))
      expect(error.message).toContain(to)
    }
    if (response.status !== 200) expect(await get(lead.id)).toEqual(lead)
  })

  test('converted is reached only by the convert operation, and only from qualified', async () => {
    for (const from of ['new', 'contacted', 'unqualified']) {
      const lead = await inStatus(from)
      const error = await expectError(await convert(lead.id), 409, 'INVALID_STATE_TRANSITION')
      expect(error.message).toBe(`${aLead(from)} cannot become converted; it can become ${PATCHABLE[from]!.join(', ')}`)
      expect(await get(lead.id)).toEqual(lead)
    }
    const qualified = await inStatus('qualified')
    const error = await expectError(await patch(qualified.id, { status: 'converted' }), 409, 'INVALID_STATE_TRANSITION')
    expect(error.message).toBe('A qualified lead becomes converted only through POST /api/v1/leads/{id}/convert')
    expect((await convert(qualified.id)).status).toBe(200)
  })

  test('a lead may be created in any status but converted', async () => {
    for (const status of ['new', 'contacted', 'qualified', 'unqualified']) expect((await create({ status })).status).toBe(status)
    await expectError(
      await send('POST', '/api/v1/leads', users.admin.auth, { name: 'X', status: 'converted' }),
      400,
      'VALIDATION_FAILED',
      'status',
    )
  })
})

describe('a converted lead is read-only', () => {
  test('every PATCH and the DELETE are 409 naming both states; it can still be read and listed', async () => {
    const lead = await inStatus('converted', { owner_id: users.agent.user.id })
    const changes: Record<string, unknown>[] = [
      { name: 'Changed' },
      { email: 'changed@example.com' },
      { email: null },
      { phone: '+442079460958' },
      { company_name: 'Changed' },
      { source: 'changed' },
      { score: 99 },
      { owner_id: null },
      { status: 'converted' },
      { status: 'contacted' },
    ]
    const why = 'it is final and read-only, the record of its conversion'
    for (const change of changes) {
      const error = await expectError(await patch(lead.id, change), 409, 'INVALID_STATE_TRANSITION')
      const refused = change.status === 'contacted' ? 'become contacted' : 'change'
      expect(error.message).toBe(`A converted lead cannot ${refused}: ${why}`)
    }
    const error = await expectError(await send('DELETE', `/api/v1/leads/${lead.id}`), 409, 'INVALID_STATE_TRANSITION')
    expect(error.message).toBe(`A converted lead cannot become deleted: ${why}`)
    expect(await get(lead.id)).toEqual(lead)
    const listed = await json<{ leads: Lead[] }>(await send('GET', '/api/v1/leads?status=converted&page_size=100'))
    expect(listed.leads).toContainEqual(lead)
  })
})
