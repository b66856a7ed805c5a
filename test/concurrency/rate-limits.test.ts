// An organization's plan and rates changed at once over two instances (`org set-plan`, `org set-limits`,
// a subscription's change): each change's audit record says what it replaced, so the records chain
// (each one's before is the after of the one before it), and a subscription moving the organization to
// the plan it already has records nothing, however many do it at once. Two instances on one PostgreSQL,
// one app on SQLite.
import { describe, expect, test } from 'bun:test'
import { contextFor } from '../../src/context.ts'
import { changePlan, changePlanInTx, changeRates } from '../../src/modules/rate-limits/index.ts'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'

const c = await makeCluster()
const organizationId = c.org.org.id
/** The operator's context (a CLI command) on instance `i`, in turn. */
const cli = (i: number) => contextFor(c.instances[i % c.instances.length]!.context, { kind: 'system', id: 'cli' })

type Effective = { plan: string; per_minute: number; per_day: number }
async function records(event: string) {
  const list = await json<{ audit_logs: Array<{ seq: number; details: { before: Effective; after: Effective } }> }>(
    await c.send('GET', `/api/v1/audit-logs?event=${event}&page_size=100`),
  )
  return list.audit_logs.sort((a, b) => a.seq - b.seq).map((r) => r.details)
}

describe(`plan and rates changed at once (${TEST_ENGINE}, ${c.instances.length} instance(s))`, () => {
  test('set-plan at once: each audit record starts from the plan the one before it left', async () => {
    const plans = ['starter', 'enterprise', 'free', 'professional']
    await c.many(WRITERS, (i) => changePlan(cli(i), { organizationId, plan: plans[i % plans.length]! }).then(() => new Response()))
    const chain = await records('organization.plan_changed')
    expect(chain).toHaveLength(WRITERS)
    expect(chain[0]!.before.plan).toBe('professional')
    for (let k = 1; k < chain.length; k++) expect(chain[k]!.before).toEqual(chain[k - 1]!.after)
  })

  test('set-limits at once: each audit record starts from the rates the one before it left', async () => {
    await c.many(WRITERS, (i) => changeRates(cli(i), { organizationId, perMinute: 100 + i }).then(() => new Response()))
    const chain = await records('organization.rate_limits_changed')
    expect(chain).toHaveLength(WRITERS)
    for (let k = 1; k < chain.length; k++) expect(chain[k]!.before).toEqual(chain[k - 1]!.after)
  })

  test('subscriptions moving the organization to one plan at once: it changes once, one record; the others find it done', async () => {
    for (const plan of ['starter', 'professional', 'enterprise']) {
      await changePlan(cli(0), { organizationId, plan: 'free' })
      const before = (await records('organization.plan_changed')).length
      await c.many(WRITERS, (i) => {
        const ctx = cli(i)
        const now = ctx.clock.now()
        return ctx.db
          .write('test.subscription', (tx) => changePlanInTx(tx, ctx, { organizationId, plan, now, reason: 'subscription' }))
          .then(() => new Response())
      })
      const chain = await records('organization.plan_changed')
      expect(chain.length - before).toBe(1)
      expect(chain.at(-1)!.after.plan).toBe(plan)
    }
  })
})
