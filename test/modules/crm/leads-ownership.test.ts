// Who may write a lead (agents: only those they own or nobody owns, given only to themselves or
// nobody; every reader reads all), and the audit records of lead changes, as GET /audit-logs shows them.
import { describe, expect, test } from 'bun:test'
import { json } from '../../helpers/app.ts'
import { client, expectError, type Lead, leadsApp } from './leads-api.ts'

const { app, acme } = await leadsApp()
const { users } = acme
const agent = users.agent.auth
const agentId = users.agent.user.id
const supervisorId = users.supervisor.user.id
const { send, create, patch, get, leadIn } = client(app, users.admin.auth)
const OWNED_BY_ANOTHER = 'This lead is owned by another user: only its owner or a supervisor may change it'
const GIVE = 'An agent may make itself or nobody the owner of a lead, not another user'

describe('agents', () => {
  test('create leads unowned or owned by themselves; never owned by another user (403, nothing created)', async () => {
    expect((await create({}, agent)).owner_id).toBeNull()
    expect((await create({ owner_id: agentId }, agent)).owner_id).toBe(agentId)
    const before = await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM leads')
    const error = await expectError(
      await send('POST', '/api/v1/leads', agent, { name: 'X', owner_id: supervisorId }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expect(error.message).toBe(GIVE)
    expect(await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM leads')).toEqual(before)
  })

  test('change and delete the leads they own and the unowned ones', async () => {
    const own = await create({ owner_id: agentId })
    const unowned = await create()
    expect((await patch(own.id, { score: 40, status: 'contacted' }, agent)).status).toBe(200)
    expect((await patch(unowned.id, { score: 41 }, agent)).status).toBe(200)
    expect((await send('DELETE', `/api/v1/leads/${own.id}`, agent)).status).toBe(204)
    expect((await send('DELETE', `/api/v1/leads/${unowned.id}`, agent)).status).toBe(204)
  })

  test("read another user's lead, but neither change, delete nor convert it (403, unchanged)", async () => {
    const theirs = await leadIn('qualified', { owner_id: supervisorId })
    expect(await get(theirs.id, agent)).toEqual(theirs)
    const listed = await json<{ leads: Lead[] }>(await send('GET', `/api/v1/leads?owner_id=${supervisorId}&page_size=100`, agent))
    expect(listed.leads.map((l) => l.id)).toContain(theirs.id)
    for (const response of [
      await patch(theirs.id, { score: 1 }, agent),
      await patch(theirs.id, { owner_id: agentId }, agent),
      await send('DELETE', `/api/v1/leads/${theirs.id}`, agent),
      await send('POST', `/api/v1/leads/${theirs.id}/convert`, agent, { contact: { create: {} } }),
    ]) {
      const error = await expectError(response, 403, 'INSUFFICIENT_PERMISSIONS')
      expect(error.message).toBe(OWNED_BY_ANOTHER)
    }
    expect(await get(theirs.id)).toEqual(theirs)
  })

  test('claim an unowned lead and release their own; never hand one to another user', async () => {
    const lead = await create()
    expect((await json<Lead>(await patch(lead.id, { owner_id: agentId }, agent))).owner_id).toBe(agentId)
    const error = await expectError(await patch(lead.id, { owner_id: supervisorId }, agent), 403, 'INSUFFICIENT_PERMISSIONS')
    expect(error.message).toBe(GIVE)
    expect((await get(lead.id)).owner_id).toBe(agentId)
    expect((await json<Lead>(await patch(lead.id, { owner_id: null }, agent))).owner_id).toBeNull()
  })

  test('convert their own and unowned leads, but create no account (403 naming account:create)', async () => {
    const own = await leadIn('qualified', { owner_id: agentId, email: 'own@agent.example', company_name: 'Agent Co' })
    const refused = await send('POST', `/api/v1/leads/${own.id}/convert`, agent, { account: { create: {} }, contact: { create: {} } })
    const error = await expectError(refused, 403, 'INSUFFICIENT_PERMISSIONS')
    expect(error.message).toBe('This operation requires the account:create permission')
    expect((await get(own.id)).status).toBe('qualified')
    const converted = await send('POST', `/api/v1/leads/${own.id}/convert`, agent, { contact: { create: {} } })
    expect(converted.status).toBe(200)
    expect((await json<{ contact: { owner_id: string } }>(converted)).contact.owner_id).toBe(agentId)
    const unowned = await leadIn('qualified', { email: 'unowned@agent.example' })
    expect((await send('POST', `/api/v1/leads/${unowned.id}/convert`, agent, { contact: { create: {} } })).status).toBe(200)
  })
})

describe('agents converting into an existing contact', () => {
  test("link only a contact they own or nobody owns to the account; another's contact already in it needs no change", async () => {
    const accountResponse = await send('POST', '/api/v1/accounts', users.admin.auth, { name: 'Linked', domain: 'linked.example' })
    const account = await json<{ id: string }>(accountResponse)
    const contactOf = async (body: Record<string, unknown>) =>
      (await json<{ id: string }>(await send('POST', '/api/v1/contacts', users.admin.auth, { name: 'Someone', ...body }))).id
    const theirs = await contactOf({ email: 'theirs@linked.example', owner_id: supervisorId })
    const lead = await leadIn('qualified', { owner_id: agentId })
    const body = { account: { id: account.id }, contact: { id: theirs } }
    const error = await expectError(await send('POST', `/api/v1/leads/${lead.id}/convert`, agent, body), 403, 'INSUFFICIENT_PERMISSIONS')
    expect(error.message).toBe('This contact is owned by another user: only its owner or a supervisor may change it')
    expect(await get(lead.id)).toEqual(lead)
    const inAccount = await contactOf({ email: 'in@linked.example', owner_id: supervisorId, account_id: account.id })
    const response = await send('POST', `/api/v1/leads/${lead.id}/convert`, agent, {
      account: { id: account.id },
      contact: { id: inAccount },
    })
    expect(response.status).toBe(200)
    expect((await json<{ lead: Lead }>(response)).lead.converted_contact_id).toBe(inAccount)
  })
})

describe('supervisors and admins', () => {
  test("change anyone's lead and give it to anyone", async () => {
    const lead = await create({ owner_id: agentId }, agent)
    const moved = await json<Lead>(await patch(lead.id, { owner_id: supervisorId, score: 70 }, users.supervisor.auth))
    expect([moved.owner_id, moved.score]).toEqual([supervisorId, 70])
    expect((await json<Lead>(await patch(lead.id, { owner_id: agentId }, users.admin.auth))).owner_id).toBe(agentId)
    expect((await send('DELETE', `/api/v1/leads/${lead.id}`, users.supervisor.auth)).status).toBe(204)
  })
})

describe('audit records', () => {
  interface Audit {
    event: string
    actor: { type: string; id: string }
    target: { type: string; id: string }
    details: Record<string, unknown>
    request_id: string | null
  }
  const auditOf = async (leadId: string): Promise<Audit[]> => {
    const response = await send('GET', '/api/v1/audit-logs?page_size=100', users.admin.auth)
    expect(response.status).toBe(200)
    const { audit_logs } = await json<{ audit_logs: Audit[] }>(response)
    return audit_logs.filter((a) => a.target?.id === leadId).reverse()
  }

  test('created, updated (the changed fields and the status moved, never their values), deleted: each by its actor', async () => {
    const lead = await create({ email: 'secret@audit.example', phone: '+442079460958' }, agent)
    await patch(lead.id, { email: 'other@audit.example', score: 12 }, agent)
    await patch(lead.id, { status: 'contacted' }, users.supervisor.auth)
    await patch(lead.id, { score: 12 }, agent)
    expect((await send('DELETE', `/api/v1/leads/${lead.id}`, users.admin.auth)).status).toBe(204)
    const audits = await auditOf(lead.id)
    expect(audits.map((a) => [a.event, a.actor.id, a.details])).toEqual([
      ['lead.created', agentId, {}],
      ['lead.updated', agentId, { changed: ['email', 'score'] }],
      ['lead.updated', supervisorId, { changed: ['status'], status: { from: 'new', to: 'contacted' } }],
      ['lead.deleted', users.admin.user.id, {}],
    ])
    for (const audit of audits) expect(audit.target).toEqual({ type: 'lead', id: lead.id })
    expect(JSON.stringify(audits)).not.toContain('audit.example')
    expect(JSON.stringify(audits)).not.toContain('7946')
  })

  test('a refused change writes no record', async () => {
    const lead = await create({ owner_id: supervisorId })
    const before = await auditOf(lead.id)
    expect((await patch(lead.id, { score: 5 }, agent)).status).toBe(403)
    expect((await patch(lead.id, { status: 'qualified' })).status).toBe(409)
    expect(await auditOf(lead.id)).toEqual(before)
  })
})
