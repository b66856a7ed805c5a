// The audit hash chain: every hash recomputed independently from the API's records, the append-only triggers, and verifyChains on real databases (SQLite files, or PostgreSQL databases) tampered with directly.
import { createHash } from 'node:crypto'
import { afterAll, describe, expect, test } from 'bun:test'
import type { Database } from '../../../src/db/database.ts'
import { openPostgres } from '../../../src/db/postgres.ts'
import { openSqlite } from '../../../src/db/sqlite.ts'
import { verifyChains } from '../../../src/modules/audit/index.ts'
import { join } from 'node:path'
import { json, makeTestApp, tempDirs, type TestApp } from '../../helpers/app.ts'
import { postgresServer, TEST_ENGINE } from '../../helpers/engine.ts'
import { PASSWORD, seedOrganization, type SeededOrg } from '../../helpers/seed.ts'

interface ApiRecord {
  id: string
  seq: number
  created_at: string
  organization_id: string | null
  actor: { type: string; id: string | null }
  credential_id: string | null
  event: string
  outcome: string
  reason: string | null
  ip: string | null
  user_agent: string | null
  request_id: string | null
  target: { type: string; id: string | null } | null
  details: Record<string, unknown>
  prev_hash: string
  hash: string
}

const ZEROS = '0'.repeat(64)

/**
 * Our own reading of the documented chain: hash = SHA-256(prev_hash || canonical), the canonical record being
 * the JSON array of id, organization_id, seq, created_at (ms), actor type, actor id, credential id, event,
 * outcome, reason, ip, user agent, request id, target type, target id and the details as JSON text.
 */
function expectedHash(r: ApiRecord): string {
  const canonical = JSON.stringify([
    r.id,
    r.organization_id,
    r.seq,
    Date.parse(r.created_at),
    r.actor.type,
    r.actor.id,
    r.credential_id,
    r.event,
    r.outcome,
    r.reason,
    r.ip,
    r.user_agent,
    r.request_id,
    r.target?.type ?? null,
    r.target?.id ?? null,
    JSON.stringify(r.details),
  ])
  return createHash('sha256')
    .update(r.prev_hash + canonical, 'utf8')
    .digest('hex')
}

/** Some of everything: logins (good and bad), refreshes, a reuse, a logout, user changes, settings, unicode. */
async function activity(app: TestApp, org: SeededOrg) {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Chain "test" \\ café', ...headers },
      body: JSON.stringify(body),
    })
  const ok = await json<{ access_token: string; refresh_token: string }>(
    await post('/api/v1/auth/login', { email: org.users.agent.user.email, password: PASSWORD }),
  )
  await post('/api/v1/auth/login', { email: org.users.agent.user.email, password: 'wrong' })
  await post('/api/v1/auth/login', { email: `nobody-${org.org.id}@example.com`, password: 'wrong' })
  const next = await json<{ refresh_token: string }>(await post('/api/v1/auth/refresh', { refresh_token: ok.refresh_token }))
  await post('/api/v1/auth/refresh', { refresh_token: ok.refresh_token })
  void next
  const created = await post(
    '/api/v1/users',
    { email: `chain-${org.org.id.slice(-6).toLowerCase()}@example.com`, name: 'Zoë «quoted» \\ back', password: PASSWORD, role: 'agent' },
    org.users.admin.auth,
  )
  const id = (await json<{ id: string }>(created)).id
  await app.request(`/api/v1/users/${id}`, {
    method: 'PATCH',
    headers: { ...org.users.admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ role: 'viewer' }),
  })
  await app.request('/api/v1/organization/security', {
    method: 'PATCH',
    headers: { ...org.users.super_admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ max_concurrent_sessions: 10 }),
  })
  await app.request('/api/v1/auth/logout', { method: 'POST', headers: org.users.viewer.auth })
}

describe('the chain as the API shows it', () => {
  test('every hash recomputes; each prev_hash is the previous hash; the first is 64 zeros; seq has no gaps', async () => {
    const app = await makeTestApp()
    try {
      const orgs = [await seedOrganization(app, 'acme'), await seedOrganization(app, 'globex')]
      for (const org of orgs) {
        await activity(app, org)
        app.clock.advance(1234)
      }
      for (const org of orgs) {
        const records: ApiRecord[] = []
        let token = ''
        do {
          const body = await json<{ audit_logs: ApiRecord[]; next_page_token: string }>(
            await app.request(`/api/v1/audit-logs?page_size=7${token ? `&page_token=${token}` : ''}`, {
              headers: org.users.super_admin.auth,
            }),
          )
          records.push(...body.audit_logs)
          token = body.next_page_token
        } while (token !== '')
        const chain = records.reverse()
        expect(chain.map((r) => r.event).sort()).toEqual(
          [
            ...Array(6).fill('user.created'),
            'login.success',
            'login.failure',
            'token.refresh',
            'token.refresh_reuse_detected',
            'user.updated',
            'security.updated',
            'logout',
          ].sort(),
        )
        expect(chain.map((r) => r.seq)).toEqual(Array.from({ length: chain.length }, (_, i) => i + 1))
        expect(chain[0]!.prev_hash).toBe(ZEROS)
        for (let i = 0; i < chain.length; i++) {
          const r = chain[i]!
          expect(r.organization_id).toBe(org.org.id)
          if (i > 0) expect(r.prev_hash).toBe(chain[i - 1]!.hash)
          expect(r.hash).toBe(expectedHash(r))
        }
        // The records with unicode and quotes were among those recomputed.
        expect(chain.some((r) => r.user_agent === 'Chain "test" \\ café')).toBe(true)
      }
    } finally {
      await app.close()
    }
  })
})

describe('append-only', () => {
  test('an upsert or INSERT OR REPLACE cannot overwrite a record', async () => {
    const app = await makeTestApp()
    try {
      await seedOrganization(app, 'acme')
      const db = app.context.db
      const all = () => db.raw.all<Record<string, unknown>>('SELECT * FROM audit_logs ORDER BY seq')
      const before = await all()
      const first = before[0]!
      // An upsert turns into an UPDATE: the trigger refuses it.
      await expect(
        db.raw.run(`INSERT INTO audit_logs SELECT * FROM audit_logs WHERE id = ? ON CONFLICT(id) DO UPDATE SET details = '{}'`, [
          first.id as string,
        ]),
      ).rejects.toThrow('append-only')
      // REPLACE deletes the conflicting row and inserts another: that is a delete, and must be refused as one.
      let replaced = false
      try {
        await db.raw.run(
          'INSERT OR REPLACE INTO audit_logs (id, organization_id, seq, created_at, actor_type, event, outcome, details, prev_hash, hash) VALUES (?, ?, 1, 0, ?, ?, ?, ?, ?, ?)',
          [first.id as string, first.organization_id as string, 'system', 'forged', 'success', '{}', ZEROS, ZEROS],
        )
        replaced = true
      } catch {
        // refused: as it should be
      }
      expect(await all()).toEqual(before)
      expect(replaced).toBe(false)
    } finally {
      await app.close()
    }
  })

  test('UPDATE and DELETE of audit_logs throw and change nothing; appending still works', async () => {
    const app = await makeTestApp()
    try {
      const org = await seedOrganization(app, 'acme')
      const db = app.context.db
      const all = () => db.raw.all('SELECT * FROM audit_logs ORDER BY seq')
      const before = await all()
      expect(before.length).toBe(5)
      const attempts = [
        "UPDATE audit_logs SET details = '{}' WHERE seq = 2",
        "UPDATE audit_logs SET event = 'nothing.happened'",
        'UPDATE audit_logs SET hash = prev_hash WHERE seq = 5',
        'DELETE FROM audit_logs WHERE seq = 3',
        'DELETE FROM audit_logs',
        `UPDATE audit_logs SET organization_id = NULL WHERE organization_id = '${org.org.id}'`,
      ]
      for (const statement of attempts) await expect(db.raw.run(statement)).rejects.toThrow('append-only')
      // Not even inside a transaction that someone then commits.
      await expect(db.write('tamper', (tx) => tx.raw.run('DELETE FROM audit_logs WHERE seq = 1'))).rejects.toThrow('append-only')
      expect(await all()).toEqual(before)
      const login = await app.request('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: org.users.agent.user.email, password: PASSWORD }),
      })
      expect(login.status).toBe(200)
      expect(await db.raw.get('SELECT count(*) AS n FROM audit_logs')).toEqual({ n: 6 })
    } finally {
      await app.close()
    }
  })
})

// verifyChains works on one database with three chains (two organizations and the installation), copied for each case.
const source = await makeTestApp()
const acme = await seedOrganization(source, 'acme')
const globex = await seedOrganization(source, 'globex')
await activity(source, acme)
await activity(source, globex)
const copies = tempDirs('switchboard-chain-')
let copied = 0
// PostgreSQL copies a database whole as the template of a new one, which needs the source closed: its
// name is all that is kept.
const sourceDatabase = TEST_ENGINE === 'postgres' ? new URL(source.config.databaseUrl!).pathname.slice(1) : undefined
if (sourceDatabase !== undefined) await source.close()
/** A copy of the source database of its own: a file on SQLite, a database on PostgreSQL. */
async function copyOfSource(): Promise<Database> {
  if (sourceDatabase !== undefined) {
    const server = await postgresServer()
    const name = `chain_copy_${++copied}`
    await server.admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${sourceDatabase}`)
    return openPostgres(server.url(name))
  }
  const path = join(copies(), `copy-${++copied}.db`)
  await source.context.db.admin.backupTo(path)
  return openSqlite(path)
}
afterAll(() => (sourceDatabase === undefined ? source.close() : undefined))

/** DROP TRIGGER as each engine spells it (PostgreSQL names the table). */
const dropTrigger = (name: string) => (TEST_ENGINE === 'postgres' ? `DROP TRIGGER ${name} ON audit_logs` : `DROP TRIGGER ${name}`)

describe('verifyChains', () => {
  type Row = { id: string; seq: number; organization_id: string | null; hash: string; prev_hash: string }

  /** A private copy of the database, its triggers dropped as someone holding the file could. */
  async function tamperable() {
    const db = await copyOfSource()
    await db.raw.run(dropTrigger('audit_logs_no_update'))
    await db.raw.run(dropTrigger('audit_logs_no_delete'))
    const chain = (org: string) =>
      db.raw.all<Row>('SELECT id, seq, organization_id, hash, prev_hash FROM audit_logs WHERE organization_id = ? ORDER BY seq', [org])
    return { db, chain }
  }

  /** The reports, also read in pages of 1, 2, 3 and 5 records: a page boundary anywhere finds the same. */
  async function reportsOf(db: Database) {
    const reports = await verifyChains({ db })
    for (const pageSize of [1, 2, 3, 5]) expect(await verifyChains({ db }, { pageSize })).toEqual(reports)
    return reports
  }

  async function reportOf(db: Database, org: string | null) {
    const report = (await reportsOf(db)).find((r) => r.organizationId === org)
    expect(report).toBeDefined()
    return report!
  }

  test('intact: three chains, every record counted, none broken', async () => {
    const { db, chain } = await tamperable()
    const reports = await reportsOf(db)
    expect(reports.map((r) => r.organizationId).sort((a, b) => String(a).localeCompare(String(b)))).toEqual(
      [acme.org.id, globex.org.id, null].sort((a, b) => String(a).localeCompare(String(b))),
    )
    for (const r of reports) expect(r.broken).toBeUndefined()
    expect((await reportOf(db, acme.org.id)).records).toBe((await chain(acme.org.id)).length)
    expect((await reportOf(db, null)).records).toBe(2)
    const total = (await db.raw.get<{ n: number }>('SELECT count(*) AS n FROM audit_logs'))!.n
    expect(reports.reduce((n, r) => n + r.records, 0)).toBe(total)
    await db.close()
  })

  test('an empty database: no chains', async () => {
    const db = await copyOfSource()
    await db.raw.run(dropTrigger('audit_logs_no_delete'))
    await db.raw.run('DELETE FROM audit_logs')
    expect(await reportsOf(db)).toEqual([])
    await db.close()
  })

  // Each assignment changes the value whatever it was (NULL included).
  const FIELDS: [string, string][] = [
    ['details', `details = '{"tampered":true}'`],
    ['event', "event = event || '.x'"],
    ['outcome', "outcome = CASE outcome WHEN 'success' THEN 'failure' ELSE 'success' END"],
    ['reason', "reason = coalesce(reason, '') || 'x'"],
    ['reason (NULL to empty)', "reason = CASE WHEN reason IS NULL THEN '' ELSE NULL END"],
    ['actor_id', "actor_id = coalesce(actor_id, '') || 'x'"],
    ['actor_type', "actor_type = actor_type || 'x'"],
    ['credential_id', "credential_id = coalesce(credential_id, '') || 'x'"],
    ['created_at', 'created_at = created_at + 1'],
    ['ip', "ip = coalesce(ip, '') || 'x'"],
    ['user_agent', "user_agent = coalesce(user_agent, '') || 'x'"],
    ['request_id', "request_id = coalesce(request_id, '') || 'x'"],
    ['target_type', "target_type = coalesce(target_type, '') || 'x'"],
    ['target_id', "target_id = coalesce(target_id, '') || 'x'"],
    ['id', "id = id || 'x'"],
    ['hash', "hash = '" + 'f'.repeat(64) + "'"],
  ]

  test.each(FIELDS)('an edited %s is found at that record; other chains stay intact', async (_field, assignment) => {
    const { db, chain } = await tamperable()
    const victim = (await chain(acme.org.id))[4]!
    await db.raw.run(`UPDATE audit_logs SET ${assignment} WHERE hash = ?`, [victim.hash])
    expect((await reportOf(db, acme.org.id)).broken).toEqual({
      seq: victim.seq,
      id: expect.any(String),
      problem: expect.stringMatching(/changed/),
    })
    expect((await reportOf(db, globex.org.id)).broken).toBeUndefined()
    expect((await reportOf(db, null)).broken).toBeUndefined()
    await db.close()
  })

  test('the report names the record by seq and id', async () => {
    const { db, chain } = await tamperable()
    const victim = (await chain(globex.org.id))[2]!
    await db.raw.run(`UPDATE audit_logs SET details = '{}' WHERE id = ?`, [victim.id])
    expect(await reportOf(db, globex.org.id)).toEqual({
      organizationId: globex.org.id,
      records: (await chain(globex.org.id)).length,
      broken: { seq: victim.seq, id: victim.id, problem: expect.any(String) },
    })
    await db.close()
  })

  test('an edit in the installation chain is reported there', async () => {
    const { db } = await tamperable()
    await db.raw.run(`UPDATE audit_logs SET details = '{"email":"someone@else.test"}' WHERE organization_id IS NULL AND seq = 1`)
    expect((await reportOf(db, null)).broken).toMatchObject({ seq: 1 })
    expect((await reportOf(db, acme.org.id)).broken).toBeUndefined()
    await db.close()
  })

  test('an edited record whose hash was recomputed breaks the next link', async () => {
    const { db, chain } = await tamperable()
    const rows = await chain(acme.org.id)
    const victim = rows[3]!
    await db.raw.run(`UPDATE audit_logs SET details = '{"role":"viewer"}' WHERE id = ?`, [victim.id])
    // Recompute its hash as a careful forger would (with the library's own hash, as the forger has the code).
    const edited = (await db.raw.get<Record<string, unknown>>('SELECT * FROM audit_logs WHERE id = ?', [victim.id]))!
    const canonical = JSON.stringify(
      [
        'id',
        'organization_id',
        'seq',
        'created_at',
        'actor_type',
        'actor_id',
        'credential_id',
        'event',
        'outcome',
        'reason',
        'ip',
        'user_agent',
        'request_id',
        'target_type',
        'target_id',
        'details',
      ].map((k) => edited[k]),
    )
    const forged = createHash('sha256')
      .update(victim.prev_hash + canonical)
      .digest('hex')
    await db.raw.run('UPDATE audit_logs SET hash = ? WHERE id = ?', [forged, victim.id])
    expect((await reportOf(db, acme.org.id)).broken).toEqual({
      seq: rows[4]!.seq,
      id: rows[4]!.id,
      problem: expect.stringMatching(/prev_hash/),
    })
    await db.close()
  })

  test('a deleted middle record: the gap is reported at the record after it', async () => {
    const { db, chain } = await tamperable()
    const rows = await chain(acme.org.id)
    await db.raw.run('DELETE FROM audit_logs WHERE id = ?', [rows[5]!.id])
    const report = await reportOf(db, acme.org.id)
    expect(report.records).toBe(rows.length - 1)
    expect(report.broken).toEqual({ seq: rows[6]!.seq, id: rows[6]!.id, problem: expect.stringMatching(/missing/) })
    await db.close()
  })

  test('a deleted first record is reported too', async () => {
    const { db, chain } = await tamperable()
    const rows = await chain(globex.org.id)
    await db.raw.run('DELETE FROM audit_logs WHERE id = ?', [rows[0]!.id])
    expect((await reportOf(db, globex.org.id)).broken).toMatchObject({ seq: 2, id: rows[1]!.id })
    await db.close()
  })

  test('a deleted middle record with the seqs renumbered: the prev_hash link breaks', async () => {
    const { db, chain } = await tamperable()
    const rows = await chain(acme.org.id)
    await db.raw.run('DELETE FROM audit_logs WHERE id = ?', [rows[5]!.id])
    // Close the gap, last first so the unique index holds.
    for (const r of rows.slice(6).sort((a, b) => a.seq - b.seq))
      await db.raw.run('UPDATE audit_logs SET seq = seq - 1 WHERE id = ?', [r.id])
    const broken = (await reportOf(db, acme.org.id)).broken
    expect(broken?.seq).toBe(rows[5]!.seq)
    expect(broken?.id).toBe(rows[6]!.id)
    await db.close()
  })

  test('a prev_hash pointing elsewhere (records reordered)', async () => {
    const { db, chain } = await tamperable()
    const rows = await chain(acme.org.id)
    await db.raw.run('UPDATE audit_logs SET prev_hash = ? WHERE id = ?', [rows[1]!.hash, rows[6]!.id])
    expect((await reportOf(db, acme.org.id)).broken).toEqual({
      seq: rows[6]!.seq,
      id: rows[6]!.id,
      problem: expect.stringMatching(/prev_hash/),
    })
    await db.close()
  })

  test('two records swapped in order (their seqs exchanged)', async () => {
    const { db, chain } = await tamperable()
    const rows = await chain(acme.org.id)
    await db.raw.run('UPDATE audit_logs SET seq = -1 WHERE id = ?', [rows[3]!.id])
    await db.raw.run('UPDATE audit_logs SET seq = ? WHERE id = ?', [rows[3]!.seq, rows[4]!.id])
    await db.raw.run('UPDATE audit_logs SET seq = ? WHERE id = ?', [rows[4]!.seq, rows[3]!.id])
    expect((await reportOf(db, acme.org.id)).broken).toMatchObject({ seq: rows[3]!.seq, id: rows[4]!.id })
    await db.close()
  })

  test('a record moved to another organization breaks both chains', async () => {
    const { db, chain } = await tamperable()
    const rows = await chain(acme.org.id)
    const moved = rows[rows.length - 1]!
    await db.raw.run('UPDATE audit_logs SET organization_id = ?, seq = 999 WHERE id = ?', [globex.org.id, moved.id])
    // Acme lost its last record (undetectable on its own), globex gained one that does not belong.
    expect((await reportOf(db, globex.org.id)).broken).toMatchObject({ seq: 999, id: moved.id })
    await db.close()
  })

  test('a forged record appended with the right prev_hash but a made-up hash', async () => {
    const { db, chain } = await tamperable()
    const rows = await chain(acme.org.id)
    const last = rows[rows.length - 1]!
    await db.raw.run(
      "INSERT INTO audit_logs (id, organization_id, seq, created_at, actor_type, actor_id, event, outcome, details, prev_hash, hash) VALUES ('aud_forged', ?, ?, 0, 'user', 'usr_x', 'login.success', 'success', '{}', ?, ?)",
      [acme.org.id, last.seq + 1, last.hash, 'a'.repeat(64)],
    )
    expect((await reportOf(db, acme.org.id)).broken).toMatchObject({ seq: last.seq + 1, id: 'aud_forged' })
    await db.close()
  })

  test('only the first broken link of a chain is reported, and every record is still counted', async () => {
    const { db, chain } = await tamperable()
    const rows = await chain(acme.org.id)
    await db.raw.run(`UPDATE audit_logs SET details = '{}' WHERE id IN (?, ?)`, [rows[2]!.id, rows[8]!.id])
    const report = await reportOf(db, acme.org.id)
    expect(report.broken).toMatchObject({ seq: rows[2]!.seq })
    expect(report.records).toBe(rows.length)
    await db.close()
  })
})
