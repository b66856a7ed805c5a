// The hottest statements keep their index lookups whatever the planner's statistics say. Statistics taken
// while tables were tiny (PRAGMA optimize = 0x10002 when a young database is opened, by the server or by
// a CLI command) once turned the audit log's no-overwrite trigger and the dispatcher's lookups by id
// into scans of whole tables: every audited change and every claim then grew slower with the data.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { BY_ID, EVENT_BODY, marks } from '../../src/modules/webhooks/store/dispatch.ts'
import { makeTestApp, type TestApp } from '../helpers/app.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { seedOrganization } from '../helpers/seed.ts'

// The statistics planted below are SQLite's (sqlite_stat1): PostgreSQL's form of the promise is in
// query-plans-postgres.test.ts.
const onSqlite = TEST_ENGINE === 'sqlite'
let app: TestApp
// A connection of the test's own on the app's file: the plans depend on the statement, the schema and
// the statistics, which every connection to the file shares.
let sqlite: Database
const PLANTED: Array<[string, string, string]> = [
  ['audit_logs', 'audit_logs_org_created', '2 2 1 1'],
  ['audit_logs', 'audit_logs_chain_seq', '2 2 1'],
  ['audit_logs', 'sqlite_autoindex_audit_logs_1', '2 1'],
  ['events', 'events_org_created', '1 1 1 1'],
  ['events', 'sqlite_autoindex_events_1', '1 1'],
  // And a deliveries table as tiny as it gets: its lookups by lists of ids are portable SQL now, without
  // the INDEXED BY that once pinned them.
  ['webhook_deliveries', 'sqlite_autoindex_webhook_deliveries_1', '1 1'],
]

function plan(statement: string, ...params: Array<string | number>): string[] {
  // Prepared apart from the connection's cache and finalized: no statement is left open at close.
  const query = sqlite.prepare<{ detail: string }, Array<string | number>>(`EXPLAIN QUERY PLAN ${statement}`)
  try {
    return query.all(...params).map((row) => row.detail)
  } finally {
    query.finalize()
  }
}
// Any scan of a table (by any name or alias).
const scansOf = (details: string[]) =>
  details.filter((d) => d.startsWith('SCAN ') && !d.includes('VIRTUAL TABLE') && d !== 'SCAN CONSTANT ROW')

describe.skipIf(!onSqlite)('with statistics of tiny tables', () => {
  beforeAll(async () => {
    app = await makeTestApp()
    sqlite = new Database(join(app.dataDir, 'switchboard.db'))
    // A young database: a sign-in per role and two tickets (events and audit records), analysed as an early
    // PRAGMA optimize would.
    const acme = await seedOrganization(app, 'acme')
    for (const subject of ['First', 'Second']) {
      const created = await app.request('/api/v1/tickets', {
        method: 'POST',
        headers: { ...acme.users.admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ subject }),
      })
      expect(created.status).toBe(201)
    }
    sqlite.run('ANALYZE')
    // Then exactly the statistics a CLI command planted two requests into a fresh install's life (a sign-in
    // and a bootstrap record, one event), as observed when the webhook benchmark slowed down 2.5x.
    sqlite.run("DELETE FROM sqlite_stat1 WHERE tbl IN ('audit_logs', 'events', 'webhook_deliveries')")
    for (const row of PLANTED) sqlite.query('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)').run(...row)
    // Makes the connection load the statistics just written.
    sqlite.run('ANALYZE sqlite_schema')
  })
  afterAll(async () => {
    sqlite?.close()
    await app?.close()
  })
  test('the statistics are there (the test would prove nothing without them)', () => {
    const tables = sqlite
      .query<{ tbl: string }, []>('SELECT DISTINCT tbl FROM sqlite_stat1')
      .all()
      .map((r) => r.tbl)
    expect(tables).toEqual(expect.arrayContaining(['audit_logs', 'events']))
  })

  test('event body by id (claims): looked up by primary key, never a scan', () => {
    const details = plan(EVENT_BODY, 'evt_a')
    expect(details.length).toBeGreaterThan(0)
    expect(scansOf(details)).toEqual([])
  })

  // Lists of ids as the dispatcher sends them: padded to powers of two, up to 256.
  test.each([
    ['lease by id (claims)', BY_ID.lease, [0]],
    ['release by id', BY_ID.release, []],
    ['skip by id', BY_ID.skip, []],
  ] as const)('%s: looked up by primary key, never a scan', (_, statement, before) => {
    for (const count of [1, 2, 4, 8, 16, 32, 64, 256]) {
      const ids = Array.from({ length: count }, (_, i) => `id_${i}`)
      const details = plan(statement(marks(count)), ...before, ...ids)
      expect(details.length).toBeGreaterThan(0)
      expect(scansOf(details)).toEqual([])
    }
  })

  test("audit_logs' no-overwrite trigger: both of its lookups use an index", () => {
    const { sql } = sqlite
      .prepare<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'audit_logs_no_overwrite'")
      .get()!
    const condition = /WHEN ([\s\S]+)\sBEGIN/.exec(sql)![1]!.replace(/NEW\.`?(\w+)`?/g, "'x'")
    const details = plan(`SELECT 1 WHERE ${condition}`)
    expect(details.filter((d) => d.includes('audit_logs')).length).toBeGreaterThanOrEqual(2)
    expect(scansOf(details)).toEqual([])
  })
})
