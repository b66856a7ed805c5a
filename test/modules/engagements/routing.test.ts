// Routing: a session is queued until assigned; "auto" picks among the organization's agents who are
// logged in, in an available activity, under capacity and with the required skill, the lowest load
// first; active and wrap-up sessions count in the agent's load (the capacity rule makes it busy at
// capacity). Fairness: 1,000 sessions over 5 agents with capacities, none above its capacity, each
// session going to the least loaded agent.
import { describe, expect, test } from 'bun:test'
import { contextFor } from '../../../src/context.ts'
import { insertUser } from '../../../src/modules/users/index.ts'
import { json } from '../../helpers/app.ts'
import { signIn, type SeededUser } from '../../helpers/seed.ts'
import { client, engagementsApp, expectError } from './engagements-api.ts'

const { app, acme, globex } = await engagementsApp()
const admin = client(app, acme.users.admin.auth)
const contactId = await admin.contact()

/** `n` more users of role agent in `org`, signed in, logged in as agents, with these capacities and skills. */
async function agents(orgId: string, specs: { capacity: number | null; skills?: string[] }[], prefix: string): Promise<SeededUser[]> {
  const ctx = contextFor(app.context, { kind: 'system', id: 'cli' })
  const rows = await ctx.db.write('test.agents', async (tx) => {
    const made = []
    for (const [i] of specs.entries())
      made.push(
        await insertUser(
          tx,
          ctx,
          { organizationId: orgId, email: `${prefix}${i}@acme.test`, name: `${prefix} ${i}`, role: 'agent', passwordHash: 'x' },
          app.clock.now(),
        ),
      )
    return made
  })
  const users: SeededUser[] = []
  for (const [i, row] of rows.entries()) {
    const user = await signIn(app, row)
    expect((await admin.send('POST', '/api/v1/agents/me/login', user.auth, {})).status).toBe(200)
    const profile = { max_concurrent: specs[i]!.capacity, skills: specs[i]!.skills ?? [] }
    expect((await admin.send('PATCH', `/api/v1/agents/${row.id}`, undefined, profile)).status).toBe(200)
    users.push(user)
  }
  return users
}

const loads = async (ids: string[]) => {
  const rows = await app.context.db.raw.all<{ id: string; current_load: number; status: string }>(
    `SELECT id, current_load, status FROM agents WHERE id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  )
  const byId = new Map(rows.map((r) => [r.id, Number(r.current_load)]))
  return ids.map((id) => byId.get(id)!)
}

describe('assignment', () => {
  test('with nobody available, auto leaves a new session queued and POST /assign auto is 409', async () => {
    const row = await admin.create({ contact_id: contactId, assign: 'auto' })
    expect(row).toMatchObject({ status: 'queued', assignee_id: null })
    await expectError(await admin.op(row.id, 'assign', { assignee_id: 'auto' }), 409, 'CONFLICT')
    await expectError(
      await admin.op(row.id, 'assign', { assignee_id: globex.users.agent.user.id }),
      400,
      'VALIDATION_FAILED',
      'assignee_id',
    )
  })

  test('auto takes the required skill; sessions count in the load until closed; at capacity the agent is busy', async () => {
    const [plain, skilled] = await agents(acme.org.id, [{ capacity: 5 }, { capacity: 1, skills: ['French'] }], 'skill')
    const row = await admin.create({ contact_id: contactId, assign: 'auto', required_skill: 'french' })
    expect(row).toMatchObject({ status: 'active', assignee_id: skilled!.user.id })
    const agentOf = (user: SeededUser) =>
      admin.ok<{ status: string; current_load: number }>(admin.send('GET', `/api/v1/agents/${user.user.id}`))
    expect(await agentOf(skilled!)).toMatchObject({ status: 'busy', current_load: 1 })
    // The skilled agent is full: nobody else has the skill.
    expect((await admin.create({ contact_id: contactId, assign: 'auto', required_skill: 'french' })).status).toBe('queued')
    expect((await admin.create({ contact_id: contactId, assign: 'auto' })).assignee_id).toBe(plain!.user.id)
    await admin.ok(admin.op(row.id, 'wrap-up'))
    expect((await agentOf(skilled!)).current_load).toBe(1)
    await admin.ok(admin.op(row.id, 'close'))
    expect(await agentOf(skilled!)).toMatchObject({ status: 'available', current_load: 0 })
    // Logged out: no longer picked.
    expect((await admin.send('POST', '/api/v1/agents/me/logout', skilled!.auth, {})).status).toBe(200)
    expect((await admin.create({ contact_id: contactId, assign: 'auto', required_skill: 'french' })).status).toBe('queued')
    for (const user of [plain!]) expect((await admin.send('POST', '/api/v1/agents/me/logout', user.auth, {})).status).toBe(200)
  })
})

describe('fairness', () => {
  test('1,000 sessions over 5 agents: each to the least loaded, none above capacity, the 1,001st queued', async () => {
    const capacities = [100, 150, 200, 250, 300]
    const users = await agents(
      acme.org.id,
      capacities.map((capacity) => ({ capacity, skills: ['fair'] })),
      'fair',
    )
    const ids = users.map((u) => u.user.id)
    const checkpoints: Record<number, number[]> = {
      500: [100, 100, 100, 100, 100],
      700: [100, 150, 150, 150, 150],
      850: [100, 150, 200, 200, 200],
      950: [100, 150, 200, 250, 250],
      1000: [100, 150, 200, 250, 300],
    }
    for (let n = 1; n <= 1000; n++) {
      const response = await admin.send('POST', '/api/v1/engagements', undefined, {
        contact_id: contactId,
        channel: 'chat',
        assign: 'auto',
        required_skill: 'fair',
      })
      const body = await json<{ status: string; assignee_id: string }>(response)
      if (response.status !== 201 || body.status !== 'active') expect({ n, status: response.status, body }).toBeNull()
      if (checkpoints[n]) expect({ n, loads: await loads(ids) }).toEqual({ n, loads: checkpoints[n]! })
    }
    const counted = await app.context.db.raw.all<{ assignee_id: string; n: number }>(
      "SELECT assignee_id, count(*) AS n FROM engagements WHERE required_skill = 'fair' AND status = 'active' GROUP BY assignee_id",
    )
    expect(ids.map((id) => Number(counted.find((c) => c.assignee_id === id)?.n))).toEqual(capacities)
    const extra = await admin.create({ contact_id: contactId, assign: 'auto', required_skill: 'fair' })
    expect(extra).toMatchObject({ status: 'queued', assignee_id: null })
    const statuses = await app.context.db.raw.all<{ status: string }>(
      `SELECT status FROM agents WHERE id IN (${ids.map(() => '?').join(', ')})`,
      ids,
    )
    expect(statuses.map((s) => s.status)).toEqual(['busy', 'busy', 'busy', 'busy', 'busy'])
  }, 300_000)
})
