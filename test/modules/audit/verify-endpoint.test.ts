// GET /api/v1/audit-logs/verify: audit:read only; an organization's own chain checked, intact or broken at
// the first changed or missing record, the other organizations' chains neither reported nor counted.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { TEST_ENGINE } from '../../helpers/engine.ts'
import { seedOrganization } from '../../helpers/seed.ts'

interface Verification {
  intact: boolean
  records: number
  broken: { seq: number; id: string; problem: string } | null
}

const app = await makeTestApp()
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const globex = await seedOrganization(app, 'globex')
const db = app.context.db

async function verify(auth: Record<string, string>) {
  const response = await app.request('/api/v1/audit-logs/verify', { headers: auth })
  return { status: response.status, body: await json<Verification & { code?: string }>(response) }
}
const chain = (org: string) =>
  db.raw.all<{ id: string; seq: number }>('SELECT id, seq FROM audit_logs WHERE organization_id = ? ORDER BY seq', [org])

describe('GET /api/v1/audit-logs/verify', () => {
  test.each([
    ['super_admin', 200],
    ['admin', 200],
    ['supervisor', 403],
    ['agent', 403],
    ['viewer', 403],
  ] as const)('%s: %d', async (role, status) => {
    const { status: got, body } = await verify(acme.users[role].auth)
    expect(got).toBe(status)
    if (status === 403) expect(body.code).toBe('INSUFFICIENT_PERMISSIONS')
  })

  test("intact: every record of the caller's chain counted, no other organization's", async () => {
    const { status, body } = await verify(acme.users.admin.auth)
    expect(status).toBe(200)
    expect(body).toEqual({ intact: true, records: (await chain(acme.org.id)).length, broken: null })
    expect(body.records).toBeGreaterThan(0)
  })

  test('a changed record is named, then a missing one; only its organization sees it broken', async () => {
    // As someone holding the database could: the append-only triggers dropped first.
    for (const trigger of ['audit_logs_no_update', 'audit_logs_no_delete'])
      await db.raw.run(TEST_ENGINE === 'postgres' ? `DROP TRIGGER ${trigger} ON audit_logs` : `DROP TRIGGER ${trigger}`)
    const rows = await chain(globex.org.id)
    const victim = rows[2]!
    await db.raw.run(`UPDATE audit_logs SET details = '{"tampered":true}' WHERE id = ?`, [victim.id])
    expect((await verify(globex.users.super_admin.auth)).body).toEqual({
      intact: false,
      records: rows.length,
      broken: { seq: victim.seq, id: victim.id, problem: expect.stringMatching(/changed/) },
    })
    expect((await verify(acme.users.super_admin.auth)).body).toMatchObject({ intact: true, broken: null })

    const acmeRows = await chain(acme.org.id)
    await db.raw.run('DELETE FROM audit_logs WHERE id = ?', [acmeRows[1]!.id])
    expect((await verify(acme.users.admin.auth)).body).toEqual({
      intact: false,
      records: acmeRows.length - 1,
      broken: { seq: acmeRows[2]!.seq, id: acmeRows[2]!.id, problem: expect.stringMatching(/missing/) },
    })
  })
})
