// The PostgreSQL schema is the SQLite schema: a throwaway cluster migrated by migrationsFor('postgres')
// (the baseline, then the portable migrations) against a SQLite database migrated by MIGRATIONS — the
// same tables, columns (order, nullability, defaults, types mapped), keys, foreign keys and indexes
// (portable migrations spell text COLLATE "C", which the runner drops on SQLite);
// the audit log append-only on both; the 0/1 flags written and read the same way on both.
// The database is created with an ICU 'en' default collation, as a server cluster often is: the text
// columns' own "C" collation must make ordering byte order, as on SQLite, regardless.
// Skipped, saying so, when PostgreSQL 15 is not installed (Debian package postgresql).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '../../src/db/database.ts'
import { migrate } from '../../src/db/migrate.ts'
import { MIGRATIONS, migrationsFor } from '../../src/db/migrations/index.ts'
import { openSqlite } from '../../src/db/sqlite.ts'
import { freePort, ROOT } from '../helpers/process.ts'

const PG_BIN = '/usr/lib/postgresql/15/bin'
const available = existsSync(join(PG_BIN, 'initdb'))
if (!available) console.log(`postgres-schema.test.ts skipped: ${PG_BIN}/initdb is missing (Debian package postgresql)`)

const BREAKPOINT = '--> statement-breakpoint'
const APPEND_ONLY = 'audit_logs is append-only'
/** The 0/1 flags of SQLite, boolean on PostgreSQL. */
const BOOLEAN_COLUMNS = [
  'organizations.mfa_required',
  'sessions.mfa_enrollment_only',
  'ticket_comments.public',
  'webhooks.enabled',
  'contacts.blocked',
  'agents.available',
  'agents.auto_offline',
  'agent_activities.available',
  'subscriptions.cancel_at_period_end',
  'report_deletions.folded',
]
/** Fractional numbers (the reports' values and sums: seconds with their milliseconds, means of scores). */
const DOUBLE_COLUMNS = ['report_facts.value', 'report_facts.business_value', 'report_totals.total', 'report_totals.business_total']
/** Made by migrate() itself, not by a migration. */
const RUNNER_TABLES = ['schema_migrations']

// --- a throwaway cluster (to move into a shared helper) ---------------------------------------------
const asRoot = process.getuid?.() === 0
const NOBODY = 65534

function runPg(argv: string[]): void {
  const command = asRoot ? ['runuser', '-u', 'nobody', '--', ...argv] : argv
  const result = Bun.spawnSync(command, { stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`${argv[0]} failed: ${result.stderr.toString().trim() || result.stdout.toString().trim()}`)
}

let dir = ''
let data = ''
let started = false
let pg: SQL
let lite: Database

beforeAll(async () => {
  lite = openSqlite(':memory:')
  await migrate(lite, MIGRATIONS, 'test')
  if (!available) return
  dir = mkdtempSync(join(tmpdir(), 'switchboard-pg-schema-'))
  if (asRoot) chownSync(dir, NOBODY, NOBODY)
  data = join(dir, 'data')
  const port = freePort()
  runPg([join(PG_BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8'])
  const options = `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off`
  runPg([join(PG_BIN, 'pg_ctl'), '-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
  started = true
  const admin = new SQL(`postgres://postgres@127.0.0.1:${port}/postgres`)
  await admin.unsafe("CREATE DATABASE switchboard TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en' LOCALE 'C.UTF-8'")
  await admin.close()
  pg = new SQL(`postgres://postgres@127.0.0.1:${port}/switchboard`)
  // What migrate() does on PostgreSQL, with plain Bun.SQL: each migration in its own transaction,
  // statement by statement.
  for (const migration of migrationsFor('postgres')) {
    await pg.begin(async (tx) => {
      for (const statement of migration.source.split(BREAKPOINT)) if (statement.trim() !== '') await tx.unsafe(statement)
    })
  }
}, 120_000)

afterAll(async () => {
  await lite?.close()
  await pg?.close()
  if (started) runPg([join(PG_BIN, 'pg_ctl'), '-D', data, '-m', 'fast', 'stop'])
  if (dir) rmSync(dir, { recursive: true, force: true })
}, 60_000)

// --- the two schemas, described alike ---------------------------------------------------------------
interface Column {
  name: string
  notNull: boolean
  /** The default as written, without PostgreSQL's `::type` cast. */
  default: string | null
  type: string
}
interface ForeignKey {
  columns: string[]
  table: string
  references: string[]
  onDelete: string
}
interface Index {
  table: string
  unique: boolean
  /** Column names; null for an expression. */
  columns: (string | null)[]
  partial: boolean
}

type Row = Record<string, unknown>
const lit = <R = Row>(text: string, params: (string | number)[] = []) => lite.raw.all<R>(text, params)
const normalizeDefault = (value: unknown) => (value == null ? null : String(value).replace(/::[a-z ]+$/, ''))

async function sqliteTables(): Promise<string[]> {
  const rows = await lit<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
  return rows.map((r) => r.name).filter((name) => !RUNNER_TABLES.includes(name))
}
async function pgTables(): Promise<string[]> {
  const rows = await pg.unsafe<{ name: string }[]>(
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = \'public\' ORDER BY tablename COLLATE "C"',
  )
  return rows.map((r) => r.name)
}

async function sqliteColumns(table: string): Promise<Column[]> {
  const rows = await lit<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
    'SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid',
    [table],
  )
  // A primary key column is NOT NULL on both (explicitly so in every SQLite table here).
  return rows.map((r) => ({ name: r.name, notNull: r.notnull === 1 || r.pk > 0, default: r.dflt_value, type: r.type.toLowerCase() }))
}
async function pgColumns(table: string): Promise<(Column & { collation: string | null })[]> {
  const rows = await pg.unsafe<
    { name: string; is_nullable: string; column_default: string | null; data_type: string; collation_name: string | null }[]
  >(
    "SELECT column_name AS name, is_nullable, column_default, data_type, collation_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
    [table],
  )
  return rows.map((r) => ({
    name: r.name,
    notNull: r.is_nullable === 'NO',
    default: normalizeDefault(r.column_default),
    type: r.data_type,
    collation: r.collation_name,
  }))
}

async function sqlitePrimaryKey(table: string): Promise<string[]> {
  const rows = await lit<{ name: string }>('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk', [table])
  return rows.map((r) => r.name)
}
async function pgPrimaryKey(table: string): Promise<string[]> {
  const rows = await pg.unsafe<{ name: string }[]>(
    `SELECT a.attname AS name FROM pg_constraint c, unnest(c.conkey) WITH ORDINALITY AS k(attnum, n), pg_attribute a
     WHERE c.contype = 'p' AND c.conrelid = $1::regclass AND a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n`,
    [table],
  )
  return rows.map((r) => r.name)
}

async function sqliteForeignKeys(table: string): Promise<ForeignKey[]> {
  const rows = await lit<{ id: number; table: string; from: string; to: string; on_delete: string }>(
    'SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq',
    [table],
  )
  const keys = new Map<number, ForeignKey>()
  for (const r of rows) {
    const key = keys.get(r.id) ?? { columns: [], table: r.table, references: [], onDelete: r.on_delete.toUpperCase() }
    key.columns.push(r.from)
    key.references.push(r.to)
    keys.set(r.id, key)
  }
  return sortKeys([...keys.values()])
}
const PG_ACTIONS: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' }
async function pgForeignKeys(table: string): Promise<ForeignKey[]> {
  const rows = await pg.unsafe<{ columns: string[]; table: string; references: string[]; on_delete: string }[]>(
    `SELECT c.confrelid::regclass::text AS table, c.confdeltype AS on_delete,
       (SELECT array_agg(a.attname ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
       (SELECT array_agg(a.attname ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS references
     FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = $1::regclass`,
    [table],
  )
  return sortKeys(rows.map((r) => ({ columns: r.columns, table: r.table, references: r.references, onDelete: PG_ACTIONS[r.on_delete]! })))
}
const sortKeys = (keys: ForeignKey[]) =>
  keys.sort((a, b) => a.columns.join().localeCompare(b.columns.join()) || a.table.localeCompare(b.table))

/** Indexes made by CREATE INDEX (not the ones behind a primary key), by name. */
async function sqliteIndexes(): Promise<Record<string, Index>> {
  const out: Record<string, Index> = {}
  for (const table of await sqliteTables()) {
    const list = await lit<{ name: string; unique: number; origin: string; partial: number }>(
      'SELECT name, "unique", origin, partial FROM pragma_index_list(?)',
      [table],
    )
    for (const index of list) {
      if (index.origin === 'pk') continue
      const columns = await lit<{ name: string | null }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [index.name])
      out[index.name] = { table, unique: index.unique === 1, columns: columns.map((c) => c.name), partial: index.partial === 1 }
    }
  }
  return out
}
async function pgIndexes(): Promise<Record<string, Index>> {
  const rows = await pg.unsafe<{ name: string; table: string; unique: boolean; partial: boolean; columns: (string | null)[] }[]>(
    `SELECT i.relname AS name, t.relname AS table, x.indisunique AS unique, x.indpred IS NOT NULL AS partial,
       (SELECT array_agg(a.attname ORDER BY k.n) FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
          LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum) AS columns
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace ns ON ns.oid = t.relnamespace
     WHERE ns.nspname = 'public' AND NOT x.indisprimary`,
  )
  const out: Record<string, Index> = {}
  for (const r of rows) out[r.name] = { table: r.table, unique: r.unique, columns: r.columns, partial: r.partial }
  return out
}

// --- the tests ------------------------------------------------------------------------------------------
describe('the migration lists', () => {
  test("SQLite's is MIGRATIONS; PostgreSQL's is the baseline, then the portable ones from 0011 on", () => {
    expect(migrationsFor('sqlite')).toBe(MIGRATIONS)
    const tags = migrationsFor('postgres').map((m) => m.tag)
    expect(tags[0]).toBe('0010_postgres_baseline')
    expect(tags.slice(1)).toEqual(MIGRATIONS.map((m) => m.tag).filter((tag) => tag >= '0011'))
    // The engines' histories never share a tag that means two different things.
    for (const m of migrationsFor('postgres')) {
      const same = MIGRATIONS.find((s) => s.tag === m.tag)
      if (same) expect(same.source).toBe(m.source)
    }
  })

  test('the baseline is its file byte for byte, and holds no ? (the raw-SQL helper would number it)', async () => {
    const baseline = migrationsFor('postgres')[0]!
    expect(baseline.source).toBe(await Bun.file(join(ROOT, 'src/db/migrations/postgres/0010_baseline.sql')).text())
    for (const m of migrationsFor('postgres')) expect(m.source).not.toContain('?')
  })
})

describe.skipIf(!available)('the PostgreSQL schema', () => {
  test('has the same tables', async () => {
    const tables = await sqliteTables()
    expect(tables.length).toBe(59)
    expect(await pgTables()).toEqual(tables)
  })

  test('per table: the same columns in the same order, nullability and defaults; text is text COLLATE "C", integers bigint, the flags boolean', async () => {
    const booleans: string[] = []
    for (const table of await sqliteTables()) {
      const embedded = await sqliteColumns(table)
      const server = await pgColumns(table)
      expect({ table, columns: server.map(({ name, notNull, default: d }) => ({ name, notNull, default: d })) }).toEqual({
        table,
        columns: embedded.map(({ name, notNull, default: d }) => ({ name, notNull, default: d })),
      })
      for (const [i, column] of embedded.entries()) {
        const twin = server[i]!
        const where = `${table}.${column.name}`
        if (column.type === 'text')
          expect({ where, type: twin.type, collation: twin.collation }).toEqual({ where, type: 'text', collation: 'C' })
        else if (BOOLEAN_COLUMNS.includes(where)) expect({ where, type: twin.type }).toEqual({ where, type: 'boolean' })
        else if (DOUBLE_COLUMNS.includes(where))
          expect({ where, sqlite: column.type, type: twin.type }).toEqual({ where, sqlite: 'double precision', type: 'double precision' })
        // integer as drizzle-kit wrote 0000-0010; bigint (the same INTEGER affinity) in portable migrations.
        else
          expect({ where, sqlite: column.type === 'bigint' ? 'integer' : column.type, type: twin.type }).toEqual({
            where,
            sqlite: 'integer',
            type: 'bigint',
          })
        if (twin.type === 'boolean') booleans.push(where)
      }
    }
    expect(booleans.sort()).toEqual([...BOOLEAN_COLUMNS].sort())
  })

  test('per table: the same primary key and foreign keys (same ON DELETE)', async () => {
    for (const table of await sqliteTables()) {
      expect({ table, pk: await pgPrimaryKey(table) }).toEqual({ table, pk: await sqlitePrimaryKey(table) })
      expect({ table, fks: await pgForeignKeys(table) }).toEqual({ table, fks: await sqliteForeignKeys(table) })
    }
  })

  test('the same indexes: names, tables, columns (the chain index on an expression), unique, partial', async () => {
    const embedded = await sqliteIndexes()
    expect(Object.keys(embedded).length).toBe(134)
    const server = await pgIndexes()
    expect(Object.keys(server).sort()).toEqual(Object.keys(embedded).sort())
    for (const name of Object.keys(embedded)) expect({ name, ...server[name] }).toEqual({ name, ...embedded[name]! })
    expect(embedded.audit_logs_chain_seq).toEqual({ table: 'audit_logs', unique: true, columns: [null, 'seq'], partial: false })
    const [chain] = await pg.unsafe<{ def: string }[]>("SELECT pg_get_indexdef('audit_logs_chain_seq'::regclass) AS def")
    expect(chain!.def).toContain("COALESCE(organization_id, ''::text)")
    const predicates = await pg.unsafe<{ name: string; predicate: string }[]>(
      'SELECT i.relname AS name, pg_get_expr(x.indpred, x.indrelid) AS predicate FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indpred IS NOT NULL ORDER BY 1',
    )
    expect([...predicates]).toEqual([
      { name: 'accounts_org_domain', predicate: '(domain IS NOT NULL)' },
      { name: 'agents_logged_in', predicate: '(session_id IS NOT NULL)' },
      { name: 'call_settings_twilio_account', predicate: '(twilio_account_sid IS NOT NULL)' },
      { name: 'calls_org_provider_call', predicate: '(provider_call_id IS NOT NULL)' },
      { name: 'contacts_org_email', predicate: '((email IS NOT NULL) AND (merged_into_id IS NULL))' },
      { name: 'contacts_org_external', predicate: '((external_id IS NOT NULL) AND (merged_into_id IS NULL))' },
      { name: 'contacts_org_phone', predicate: '((phone IS NOT NULL) AND (merged_into_id IS NULL))' },
      { name: 'engagements_snoozed', predicate: '(snoozed_until IS NOT NULL)' },
      { name: 'events_org_stream', predicate: '(stream_seq IS NOT NULL)' },
      { name: 'invoices_next_attempt', predicate: '(next_payment_attempt IS NOT NULL)' },
      { name: 'invoices_open_due', predicate: "((status = 'open'::text) AND (due_date IS NOT NULL))" },
      { name: 'invoices_org_number', predicate: '(number IS NOT NULL)' },
      { name: 'leads_converted_contact', predicate: '(converted_contact_id IS NOT NULL)' },
      { name: 'payments_one_processing_transfer', predicate: "((provider = 'manual'::text) AND (status = 'processing'::text))" },
      { name: 'payments_provider_id', predicate: '(provider_payment_id IS NOT NULL)' },
      { name: 'plan_prices_active_org', predicate: '((deactivated_at IS NULL) AND (organization_id IS NOT NULL))' },
      { name: 'plan_prices_active_public', predicate: '((deactivated_at IS NULL) AND (organization_id IS NULL))' },
      { name: 'recordings_retention', predicate: '(deleted_at IS NULL)' },
      { name: 'report_deletions_pending', predicate: '(folded = false)' },
      { name: 'sessions_client_user', predicate: '(client_id IS NOT NULL)' },
      { name: 'sessions_cookie', predicate: '(cookie_hash IS NOT NULL)' },
      { name: 'sessions_parent', predicate: '(parent_session_id IS NOT NULL)' },
      { name: 'subscriptions_org_current', predicate: '(ended_at IS NULL)' },
      { name: 'subscriptions_period_end', predicate: '(ended_at IS NULL)' },
      { name: 'survey_responses_expiring', predicate: "(status = 'offered'::text)" },
      { name: 'tickets_org_contact_created', predicate: '(contact_id IS NOT NULL)' },
      { name: 'uploads_unpurged', predicate: "((purged_at IS NULL) AND (status = ANY (ARRAY['expired'::text, 'deleted'::text])))" },
      { name: 'webhook_deliveries_due_first', predicate: "((status = 'pending'::text) AND (attempt = 1))" },
      { name: 'webhook_deliveries_due_retry', predicate: "((status = 'pending'::text) AND (attempt > 1))" },
    ])
  })

  test('text orders byte by byte, as on SQLite, in a database whose default collation does not', async () => {
    const names = ['a', 'B', '_z', 'b', 'é', 'Z']
    const values = names.map((n) => `('${n}')`).join(', ')
    const [byDefault] = await pg.unsafe<{ list: string }[]>(`SELECT string_agg(x, ',' ORDER BY x) AS list FROM (VALUES ${values}) v(x)`)
    const [server] = await pg.unsafe<{ list: string }[]>(
      `SELECT string_agg(name_key, ',' ORDER BY name_key) AS list FROM (SELECT x::text COLLATE "C" AS name_key FROM (VALUES ${values}) v(x)) s`,
    )
    // The same through the real column (a keyset seek compares it the same way), in a temporary copy.
    const connection = await pg.reserve()
    let column: { list: string } | undefined
    try {
      await connection.unsafe('CREATE TEMP TABLE keys AS SELECT name_key FROM users WHERE false')
      await connection.unsafe(`INSERT INTO keys SELECT x FROM (VALUES ${values}) v(x)`)
      ;[column] = await connection.unsafe<{ list: string }[]>("SELECT string_agg(name_key, ',' ORDER BY name_key) AS list FROM keys")
      await connection.unsafe('DROP TABLE keys')
    } finally {
      connection.release()
    }
    const [sqlite] = await lit<{ list: string }>(
      `SELECT group_concat(x, ',') AS list FROM (SELECT column1 AS x FROM (VALUES ${values}) ORDER BY x)`,
    )
    expect(byDefault!.list).not.toBe(sqlite!.list)
    expect(server!.list).toBe(sqlite!.list)
    expect(column!.list).toBe(sqlite!.list)
  })
})

describe.skipIf(!available)('audit_logs is append-only on both engines', () => {
  const record = (id: string, org: string | null, seq: number) =>
    `INSERT INTO audit_logs (id, organization_id, seq, created_at, actor_type, event, outcome, details, prev_hash, hash) VALUES ('${id}', ${org === null ? 'NULL' : `'${org}'`}, ${seq}, 1700000000000, 'system', 'test.event', 'success', '{}', 'p', 'h')`
  const engines = {
    sqlite: (text: string) => lite.raw.run(text),
    postgres: async (text: string) => (await pg.unsafe(text)).count as number,
  }
  const contents = {
    sqlite: () => lit('SELECT * FROM audit_logs ORDER BY id'),
    postgres: async () => [...(await pg.unsafe<Row[]>('SELECT * FROM audit_logs ORDER BY id'))],
  }

  for (const engine of ['sqlite', 'postgres'] as const) {
    test(`${engine}: UPDATE, DELETE and an insert reusing an id or a (chain, seq) fail and change nothing; appending works`, async () => {
      const run = engines[engine]
      await run(record('aud_1', null, 1))
      await run(record('aud_2', 'org_a', 1))
      const before = await contents[engine]()
      const refused = [
        "UPDATE audit_logs SET details = '{\"x\":1}' WHERE id = 'aud_1'",
        "UPDATE audit_logs SET organization_id = NULL WHERE organization_id = 'org_a'",
        "UPDATE audit_logs SET event = 'nothing.happened'",
        "DELETE FROM audit_logs WHERE id = 'aud_2'",
        'DELETE FROM audit_logs',
        record('aud_1', 'org_b', 7), // the id again
        record('aud_3', null, 1), // the installation chain's seq 1 again
        record('aud_4', 'org_a', 1), // org_a's seq 1 again
        `${record('aud_1', 'org_b', 7)} ON CONFLICT (id) DO UPDATE SET details = '{}'`,
        `${record('aud_5', 'org_a', 1)} ON CONFLICT DO NOTHING`,
      ]
      if (engine === 'postgres') refused.push('TRUNCATE audit_logs')
      for (const statement of refused) {
        let message = 'accepted'
        try {
          await run(statement)
        } catch (error) {
          message = (error as Error).message
        }
        expect({ statement, message }).toEqual({ statement, message: expect.stringContaining(APPEND_ONLY) })
      }
      expect(await contents[engine]()).toEqual(before)
      // An UPDATE or DELETE that matches no row refuses nothing, as on SQLite (row triggers).
      expect(await run("UPDATE audit_logs SET details = '{}' WHERE id = 'missing'")).toBe(0)
      // The next record of each chain, and a new chain, are accepted.
      await run(record('aud_6', null, 2))
      await run(record('aud_7', 'org_a', 2))
      await run(record('aud_8', 'org_b', 1))
      expect((await contents[engine]()).length).toBe(5)
    })
  }

  test('postgres: two transactions appending the same (chain, seq) at once: the unique index refuses the second', async () => {
    const first = await pg.reserve()
    const second = await pg.reserve()
    try {
      await first.unsafe('BEGIN')
      await second.unsafe('BEGIN')
      await first.unsafe(record('aud_race_1', 'org_race', 1))
      // Neither sees the other's uncommitted row in the trigger's check; the index waits for the first.
      const racing = second.unsafe(record('aud_race_2', 'org_race', 1)).then(
        () => 'accepted',
        (error: Error) => error.message,
      )
      await Bun.sleep(100)
      await first.unsafe('COMMIT')
      expect(await racing).toContain('audit_logs_chain_seq')
      await second.unsafe('ROLLBACK')
    } finally {
      first.release()
      second.release()
    }
    const [row] = await pg.unsafe<{ n: string }[]>("SELECT count(*) AS n FROM audit_logs WHERE organization_id = 'org_race'")
    expect(Number(row!.n)).toBe(1)
  })
})

describe.skipIf(!available)('the flags: every writer binds a JS boolean, every reader uses Boolean()', () => {
  test('organizations.mfa_required, webhooks.enabled, ticket_comments.public, sessions.mfa_enrollment_only round-trip on both', async () => {
    const now = Date.now()
    const inserts: [string, (string | number | boolean | null)[]][] = [
      [
        "INSERT INTO organizations (id, name, plan, settings, created_at, updated_at, mfa_required) VALUES (?, 'Acme', 'free', '{}', ?, ?, ?)",
        ['org_f', now, now, true],
      ],
      [
        "INSERT INTO users (id, organization_id, email, name, role, status, password_hash, created_at, updated_at) VALUES ('usr_f', 'org_f', 'f@x.test', 'F', 'admin', 'active', 'h', ?, ?)",
        [now, now],
      ],
      [
        "INSERT INTO sessions (id, organization_id, user_id, created_at, last_used_at, access_expires_at, mfa_enrollment_only) VALUES ('ses_f', 'org_f', 'usr_f', ?, ?, ?, ?)",
        [now, now, now, true],
      ],
      [
        "INSERT INTO tickets (id, organization_id, number, subject, description, status, priority, channel, tags, custom_fields, created_at, updated_at) VALUES ('tkt_f', 'org_f', 1, 's', 'd', 'new', 1, 'api', '[]', '{}', ?, ?)",
        [now, now],
      ],
      [
        "INSERT INTO ticket_comments (id, organization_id, ticket_id, author_id, body, public, created_at) VALUES ('cmt_f', 'org_f', 'tkt_f', 'usr_f', 'b', ?, ?)",
        [false, now],
      ],
      [
        "INSERT INTO webhooks (id, organization_id, url, events, secret_sealed, enabled, consecutive_failures, created_at, updated_at) VALUES ('whk_f', 'org_f', 'https://x.test', '[]', 's', ?, 0, ?, ?)",
        [true, now, now],
      ],
      // disableWebhookRow
      [
        'UPDATE webhooks SET enabled = ?, disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ?',
        [false, 'manual', now, now, 'whk_f'],
      ],
    ]
    const numbered = (text: string) => {
      let n = 0
      return text.replace(/\?/g, () => `$${++n}`)
    }
    for (const [text, params] of inserts) {
      await lite.raw.run(text, params)
      await pg.unsafe(numbered(text), params)
    }
    const read = `SELECT (SELECT mfa_required FROM organizations WHERE id = 'org_f') AS mfa_required,
      (SELECT mfa_enrollment_only FROM sessions WHERE id = 'ses_f') AS mfa_enrollment_only,
      (SELECT public FROM ticket_comments WHERE id = 'cmt_f') AS public,
      (SELECT enabled FROM webhooks WHERE id = 'whk_f') AS enabled,
      (SELECT NOT mfa_required FROM organizations WHERE id = 'org_f') AS mfa_ok,
      (SELECT created_at FROM organizations WHERE id = 'org_f') AS created_at`
    const flags = (row: Row) => ({
      mfa_required: Boolean(row.mfa_required),
      mfa_enrollment_only: Boolean(row.mfa_enrollment_only),
      public: Boolean(row.public),
      enabled: Boolean(row.enabled),
      mfa_ok: Boolean(row.mfa_ok),
      created_at: Number(row.created_at),
    })
    const expected = { mfa_required: true, mfa_enrollment_only: true, public: false, enabled: false, mfa_ok: false, created_at: now }
    expect(flags((await lit(read))[0]!)).toEqual(expected)
    expect(flags((await pg.unsafe<Row[]>(read))[0]!)).toEqual(expected)
    // The defaults: false on both.
    await lite.raw.run(
      "INSERT INTO organizations (id, name, plan, settings, created_at, updated_at) VALUES ('org_d', 'D', 'free', '{}', 0, 0)",
    )
    await pg.unsafe(
      "INSERT INTO organizations (id, name, plan, settings, created_at, updated_at) VALUES ('org_d', 'D', 'free', '{}', 0, 0)",
    )
    const readDefault = "SELECT mfa_required, allowed_ips, session_limit_policy FROM organizations WHERE id = 'org_d'"
    expect((await pg.unsafe<Row[]>(readDefault))[0]).toEqual({
      mfa_required: false,
      allowed_ips: '[]',
      session_limit_policy: 'evict_oldest',
    })
    expect((await lit(readDefault))[0]).toEqual({ mfa_required: 0, allowed_ips: '[]', session_limit_policy: 'evict_oldest' })
  })

  test('an integer column on PostgreSQL would refuse them: why the flags are boolean there', async () => {
    const connection = await pg.reserve()
    try {
      await connection.unsafe('CREATE TEMP TABLE flag_probe (flag integer)')
      await expect(connection.unsafe('INSERT INTO flag_probe (flag) VALUES ($1)', [true])).rejects.toThrow(
        'is of type integer but expression is of type boolean',
      )
      await expect(connection.unsafe('SELECT NOT flag FROM flag_probe')).rejects.toThrow('argument of NOT must be type boolean')
      await connection.unsafe('DROP TABLE flag_probe')
    } finally {
      connection.release()
    }
  })
})
