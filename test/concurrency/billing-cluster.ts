// What the billing concurrency tests share: a cluster (two instances on one PostgreSQL, one app on
// SQLite) with an operator token and the organization's owner, requests as each sends them, one-off
// invoices made through the operator's routes, the billing cron tasks run as an instance runs them, and
// the rows a test counts.
import { expect } from 'bun:test'
import type { SettingName } from '../../src/config.ts'
import { contextFor } from '../../src/context.ts'
import { billingTasks } from '../../src/modules/billing/index.ts'
import { createOperatorToken } from '../../src/modules/operators/index.ts'
import type { Invoice } from '../modules/billing/invoices/invoices-api.ts'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'

export { json, TEST_ENGINE, WRITERS }
export type { Invoice }
export type { Payment } from '../modules/billing/payments/payments-api.ts'
export type { Subscription } from '../modules/billing/subscriptions/subscriptions-api.ts'

export const SLOW_MS = 60_000

/** Every response is one of `allowed` (no 500, no 503): the statuses, for the test's own counts. */
export function statusesIn(responses: Response[], allowed: number[]): number[] {
  const statuses = responses.map((r) => r.status)
  expect(statuses.filter((s) => !allowed.includes(s))).toEqual([])
  return statuses
}

/** How many of `values` are `value`. */
export const count = <T>(values: T[], value: T) => values.filter((v) => v === value).length

export async function billingCluster(settings: Partial<Record<SettingName, string>> = {}) {
  const cluster = await makeCluster(settings)
  const [first] = cluster.instances
  const { token } = await createOperatorToken(contextFor(first!.context, { kind: 'system', id: 'cli' }), { name: 'concurrency' })
  const operatorAuth = { authorization: `Bearer ${token}` }
  const ownerAuth = cluster.org.users.super_admin.auth
  const orgId = cluster.org.org.id
  /** The operator's request, to the next instance in turn. */
  const operator = (method: string, path: string, body?: unknown) => cluster.send(method, path, body, operatorAuth)
  /** The organization's Super Admin's request (billing:manage), to the next instance in turn. */
  const owner = (method: string, path: string, body?: unknown) => cluster.send(method, path, body, ownerAuth)
  async function ok<T>(response: Response, status = 200): Promise<T> {
    if (response.status !== status) expect({ status: response.status, body: await response.text() }).toEqual({ status, body: '' })
    return json<T>(response)
  }
  const draft = async (unitAmounts: number[], extra: Record<string, unknown> = {}) =>
    ok<Invoice>(
      await operator('POST', `/api/v1/operator/organizations/${orgId}/invoices`, {
        currency: 'usd',
        lines: unitAmounts.map((unit_amount) => ({ description: 'Services', quantity: 1, unit_amount })),
        ...extra,
      }),
      201,
    )
  return {
    ...cluster,
    db: first!.context.db,
    orgId,
    operator,
    owner,
    ok,
    draft,
    /** A draft of one line of `amount`, finalized. */
    open: async (amount: number, extra: Record<string, unknown> = {}) =>
      ok<Invoice>(await operator('POST', `/api/v1/operator/invoices/${(await draft([amount], extra)).id}/finalize`)),
    invoice: async (id: string) => ok<Invoice>(await operator('GET', `/api/v1/operator/invoices/${id}`)),
    creditBalance: async () => (await ok<{ credit_balance: number }>(await owner('GET', '/api/v1/billing/settings'))).credit_balance,
    /** `runs` runs of the billing cron task `name` at `now`, at once, spread over the instances (each as its scheduler runs it). */
    cron: (name: string, now: number, runs = WRITERS) =>
      Promise.all(
        Array.from({ length: runs }, (_, i) => {
          const instance = cluster.instances[i % cluster.instances.length]!
          const task = billingTasks(instance.context).find((t) => t.name === name)!
          return task.run({ now, log: instance.context.log, signal: new AbortController().signal })
        }),
      ),
    /** The types of the organization's events (webhook events) of `prefix`, in the order written. */
    eventTypes: async (prefix: string) =>
      (
        await first!.context.db.raw.all<{ type: string }>('SELECT type FROM events WHERE organization_id = ? AND type LIKE ? ORDER BY id', [
          orgId,
          `${prefix}%`,
        ])
      ).map((row) => row.type),
  }
}

export type BillingCluster = Awaited<ReturnType<typeof billingCluster>>
