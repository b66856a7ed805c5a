// PostgreSQL's form of query-plans.test.ts: the hottest lookups by id, and the audit log's no-overwrite
// trigger, read their tables through an index once the tables are big and analysed. (PostgreSQL keeps
// its statistics fresh by itself, autovacuum's ANALYZE: no statistics of tiny tables linger, and on tiny
// tables a whole scan is the right plan.)
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { BY_ID, EVENT_BODY, marks } from '../../src/modules/webhooks/store/dispatch.ts'
import { makeTestApp, type TestApp } from '../helpers/app.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { indexReadsOf, planNodes, seqScansOf } from '../helpers/query-plan.ts'
import { seedOrganization } from '../helpers/seed.ts'

/** Rows put in the big tables: the claims' lists of up to 256 ids are read by index from a hundred thousand deliveries on. */
const ROWS = 10_000
const DELIVERIES = 100_000
let app: TestApp

describe.skipIf(TEST_ENGINE !== 'postgres')('with big tables, analysed', () => {
  beforeAll(async () => {
    app = await makeTestApp()
    const org = (await seedOrganization(app, 'acme')).org.id
    const raw = app.context.db.raw
    await raw.run(
      "INSERT INTO webhooks (id, organization_id, url, events, secret_sealed, enabled, consecutive_failures, created_at, updated_at) VALUES ('wh_bulk', ?, 'https://example.com/hook', '[]', 'x', true, 0, 0, 0)",
      [org],
    )
    await raw.run(
      "INSERT INTO events (id, organization_id, type, body, created_at) SELECT 'evt_' || i, ?, 'ticket.created', '{}', i FROM generate_series(1, ?) AS i",
      [org, ROWS],
    )
    await raw.run(
      "INSERT INTO webhook_deliveries (id, organization_id, webhook_id, event_id, event_type, attempt, trigger, status, next_attempt_at, created_at) SELECT 'whd_' || i, ?, 'wh_bulk', 'evt_' || (1 + i % ?), 'ticket.created', 1, 'event', 'pending', i, i FROM generate_series(1, ?) AS i",
      [org, ROWS, DELIVERIES],
    )
    // Appended through the append-only trigger, as the app appends (each row one new seq of its organization).
    await raw.run(
      "INSERT INTO audit_logs (id, organization_id, seq, created_at, actor_type, event, outcome, details, prev_hash, hash) SELECT 'aud_bulk_' || i, 'org_bulk_' || (i % 50), 1 + i / 50, i, 'system', 'bulk', 'success', '{}', '', '' FROM generate_series(1, ?) AS i",
      [ROWS],
    )
    // What autovacuum would do by itself; the app's own refresh of the planner's statistics.
    await app.context.db.admin.optimize()
  }, 60_000)
  afterAll(() => app?.close())

  test('the statistics are there (the test would prove nothing without them)', async () => {
    const rows = await app.context.db.raw.all<{ relname: string; n: number }>(
      "SELECT relname, reltuples AS n FROM pg_class WHERE relname IN ('events', 'webhook_deliveries', 'audit_logs')",
    )
    for (const { relname, n } of rows) expect({ relname, big: Number(n) >= ROWS }).toEqual({ relname, big: true })
    expect(rows).toHaveLength(3)
  })

  test('event body by id (claims): looked up by primary key, never a scan', async () => {
    const nodes = await planNodes(app.context.db, EVENT_BODY, ['evt_5'])
    expect(indexReadsOf(nodes, 'events').length).toBeGreaterThan(0)
    expect(seqScansOf(nodes, 'events')).toEqual([])
  })

  // Lists of ids as the dispatcher sends them: padded to powers of two, up to 256.
  test.each([
    ['lease by id (claims)', BY_ID.lease, [0]],
    ['release by id', BY_ID.release, []],
    ['skip by id', BY_ID.skip, []],
  ] as const)('%s: looked up by primary key, never a scan', async (_, statement, before) => {
    for (const count of [1, 2, 4, 8, 16, 32, 64, 256]) {
      const ids = Array.from({ length: count }, (_, i) => `whd_${i + 1}`)
      const nodes = await planNodes(app.context.db, statement(marks(count)), [...before, ...ids])
      expect({ count, indexed: indexReadsOf(nodes, 'webhook_deliveries').length > 0 }).toEqual({ count, indexed: true })
      expect(seqScansOf(nodes, 'webhook_deliveries')).toEqual([])
    }
  })

  test("audit_logs' no-overwrite trigger: both of its lookups use an index", async () => {
    const { source } = (await app.context.db.raw.get<{ source: string }>(
      "SELECT prosrc AS source FROM pg_proc WHERE proname = 'audit_logs_append_only'",
    ))!
    // The trigger's condition as written, NEW's fields made constants ('1' fits text and bigint alike).
    const condition = /IF (EXISTS[\s\S]+?) THEN/.exec(source)![1]!.replace(/NEW\.(\w+)/g, "'1'")
    expect(condition.match(/EXISTS/g)).toHaveLength(2)
    const nodes = await planNodes(app.context.db, `SELECT 1 WHERE ${condition}`)
    expect(indexReadsOf(nodes, 'audit_logs').length).toBeGreaterThanOrEqual(2)
    expect(seqScansOf(nodes, 'audit_logs')).toEqual([])
  })
})
