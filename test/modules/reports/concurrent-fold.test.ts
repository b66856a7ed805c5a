// Folds running at once (several instances' cron tasks, a rebuild beside them) count every event once:
// each holds the organization's fold lock (`reports.fold:<org>`) for its batch, so no two read the same
// progress, state or histogram totals and both add to them. Without the lock, on PostgreSQL, events are
// folded twice and the figures come out larger than a fold alone gives.
import { afterAll, expect, test } from 'bun:test'
import { foldBatch } from '../../../src/modules/reports/fold-task.ts'
import { rebuildReports } from '../../../src/modules/reports/index.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { FakeClock } from '../../helpers/clock.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp({}, { clock: new FakeClock(Date.UTC(2026, 2, 2, 8, 0)) })
afterAll(() => app.close())
const seed = await seedOrganization(app, 'concurrent-fold')
const TICKETS = 24

async function call(method: string, path: string, body?: unknown) {
  const admin = await signIn(app, seed.users.admin.user)
  return app.request(path, {
    method,
    headers: { ...admin.auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

const summary = async () => {
  const query = 'metrics=tickets.created,tickets.first_response_time&compare=none&from=2026-03-01&to=2026-03-04&tz=UTC'
  return (await json<{ metrics: { metric: string; value: unknown }[] }>(await call('GET', `/api/v1/reports/summary?${query}`))).metrics
}

test('six folds of small batches at once count each ticket and first response once', async () => {
  for (let k = 0; k < TICKETS; k++) {
    const { id } = await json<{ id: string }>(await call('POST', '/api/v1/tickets', { subject: `T${k}` }))
    app.clock.advance((k + 1) * 60_000)
    expect((await call('POST', `/api/v1/tickets/${id}/comments`, { body: 'On it', public: true })).status).toBe(201)
  }
  // Before any fold, the report folds the log itself: the figures every fold must end with.
  const expected = await summary()
  expect(expected[0]!.value).toBe(TICKETS)
  for (let round = 0; round < 100; round++) {
    const read = await Promise.all(Array.from({ length: 6 }, () => foldBatch(app.context, seed.org.id, 5)))
    if (read.every((n) => n === 0)) break
  }
  expect(await summary()).toEqual(expected)
  // And the same once the whole log is folded again from the start, beside two more folds.
  await Promise.all([
    rebuildReports(app.context, seed.org.id),
    foldBatch(app.context, seed.org.id, 5),
    foldBatch(app.context, seed.org.id, 5),
  ])
  for (let n = 1; n > 0; ) n = await foldBatch(app.context, seed.org.id, 5)
  expect(await summary()).toEqual(expected)
})
