// appendAudit on the engine under test (on PostgreSQL one statement computes the hash in SQL): records of
// awkward text (accents, emoji, quotes, backslashes, control characters) chain exactly as the documented
// hash says, in an organization's chain and in the installation chain, and verifyChains finds them intact.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { ChainedFields } from '../../../src/modules/audit/chain.ts'
import { appendAudit, verifyChains } from '../../../src/modules/audit/index.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { seedOrganization, type SeededOrg } from '../../helpers/seed.ts'

/** A record as stored: its chained fields, then the links. */
type Row = ChainedFields & { prev_hash: string; hash: string }

/** The documented hash, computed here independently of the module. */
function expectedHash(r: Row): string {
  const canonical = JSON.stringify([
    r.id,
    r.organization_id,
    Number(r.seq),
    Number(r.created_at),
    r.actor_type,
    r.actor_id,
    r.credential_id,
    r.event,
    r.outcome,
    r.reason,
    r.ip,
    r.user_agent,
    r.request_id,
    r.target_type,
    r.target_id,
    r.details,
  ])
  return createHash('sha256')
    .update(r.prev_hash + canonical, 'utf8')
    .digest('hex')
}

const AWKWARD = "Zoë “quoted” \\ back\\slash 'single' 😀 日本語 tab\there\nnewline \u0001"

let app: TestApp
let org: SeededOrg
beforeAll(async () => {
  app = await makeTestApp()
  org = await seedOrganization(app, 'acme')
})
afterAll(() => app.close())

const chainOf = (organizationId: string | null) =>
  organizationId === null
    ? app.context.db.raw.all<Row>('SELECT * FROM audit_logs WHERE organization_id IS NULL ORDER BY seq')
    : app.context.db.raw.all<Row>('SELECT * FROM audit_logs WHERE organization_id = ? ORDER BY seq', [organizationId])

describe('appendAudit', () => {
  test('appends to the chain with seq + 1, the previous hash, and the documented hash, whatever the text', async () => {
    for (const organizationId of [org.org.id, null]) {
      const before = await chainOf(organizationId)
      const now = app.clock.now()
      await app.context.db.write('test.audit', async (tx) => {
        // Two in one transaction: the second chains onto the first.
        for (const n of [1, 2])
          await appendAudit(tx, {
            organizationId,
            actor: { type: 'user', id: `usr_${AWKWARD}`, credentialId: n === 1 ? null : 'ses_1' },
            event: 'test.awkward',
            outcome: n === 1 ? 'success' : 'failure',
            reason: n === 1 ? undefined : AWKWARD,
            target: { type: 'ticket', id: `tkt_${n}` },
            details: { text: AWKWARD, nested: { list: [1, 2.5, null, true] } },
            request: { requestId: 'req_1', ip: '203.0.113.7', userAgent: AWKWARD },
            now: now + n,
          })
      })
      const after = await chainOf(organizationId)
      expect(after.length).toBe(before.length + 2)
      const added = after.slice(-2)
      let prev = before.at(-1)?.hash ?? '0'.repeat(64)
      for (const [i, row] of added.entries()) {
        expect(Number(row.seq)).toBe(before.length + i + 1)
        expect(row.prev_hash).toBe(prev)
        expect(row.hash).toBe(expectedHash(row))
        expect(JSON.parse(row.details)).toEqual({ text: AWKWARD, nested: { list: [1, 2.5, null, true] } })
        expect(row.user_agent).toBe(AWKWARD)
        prev = row.hash
      }
    }
    const reports = await verifyChains({ db: app.context.db })
    for (const report of reports) expect(report.broken).toBeUndefined()
    expect(reports.map((r) => r.organizationId)).toContain(null)
  })

  test('a rolled-back append leaves no trace: the next one takes the same seq', async () => {
    const before = await chainOf(org.org.id)
    const append = (tx: Parameters<Parameters<TestApp['context']['db']['write']>[1]>[0]) =>
      appendAudit(tx, { organizationId: org.org.id, actor: { type: 'system', id: 'cron' }, event: 'test.rollback', now: app.clock.now() })
    await expect(
      app.context.db.write('test.audit', async (tx) => {
        await append(tx)
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    await app.context.db.write('test.audit', append)
    const after = await chainOf(org.org.id)
    expect(after.length).toBe(before.length + 1)
    expect(after.at(-1)!.prev_hash).toBe(before.at(-1)!.hash)
    expect(after.at(-1)!.hash).toBe(expectedHash(after.at(-1)!))
  })
})
