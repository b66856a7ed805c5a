// Imports at size: 10,000 rows with 100 bad ones (exactly those refused, the rest created with their
// events); a failure of the database halfway through leaves nothing; files over IMPORT_MAX_ROWS or
// IMPORT_MAX_BYTES are 413 and import nothing. Each figure is printed.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp } from '../../helpers/app.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { expectError } from './contacts-api.ts'

const app = await makeTestApp({ IMPORT_MAX_ROWS: '12000', IMPORT_MAX_BYTES: String(2 * 1024 * 1024) })
afterAll(() => app.close())
const acme = await seedOrganization(app, 'acme')
const auth = acme.users.supervisor.auth

const count = async (sql: string) => Number((await app.context.db.raw.get<{ n: number }>(sql, [acme.org.id]))?.n)
const contacts = () => count('SELECT count(*) AS n FROM contacts WHERE organization_id = ?')
const created = () => count("SELECT count(*) AS n FROM events WHERE organization_id = ? AND type = 'crm.contact.created'")

const AREA_CODES = [415, 212, 646, 718, 917]

/** `rows` data rows; every `badEvery`-th one (from row 2) has an invalid phone; phones from the `areas`-th area code on. */
function file(
  rows: number,
  prefix: string,
  options: { badEvery?: number; boomAt?: number; areas?: number; pad?: boolean } = {},
): { csv: string; bad: number[] } {
  const lines = ['name,email,phone,tags,custom_fields']
  const bad: number[] = []
  for (let i = 0; i < rows; i++) {
    const row = i + 2
    const isBad = options.badEvery !== undefined && i % options.badEvery === 0
    if (isBad) bad.push(row)
    const name = i === options.boomAt ? 'Boom' : `${prefix} ${i}${options.pad ? ' '.padEnd(150, 'x') : ''}`
    // Valid North American numbers: 555 exchanges of a few area codes, 10,000 each.
    const phone = isBad
      ? 'call me'
      : `+1${AREA_CODES[Math.floor(i / 10_000) + (options.areas ?? 0)]}555${String(i % 10_000).padStart(4, '0')}`
    lines.push(`${name},${prefix.toLowerCase()}${i}@example.com,${phone},bulk ${prefix.toLowerCase()},"{""n"":${i}}"`)
  }
  return { csv: lines.join('\r\n'), bad }
}

const upload = (csv: string) =>
  app.request('/api/v1/contacts/import', { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: csv })

describe('10,000 rows, 100 of them bad', () => {
  test('the 100 are refused naming phone, the 9,900 others are contacts with one crm.contact.created each', async () => {
    const { csv, bad } = file(10_000, 'Bulk', { badEvery: 100 })
    const before = { contacts: await contacts(), created: await created() }
    const started = performance.now()
    const response = await upload(csv)
    const seconds = (performance.now() - started) / 1000
    const report = await json<{ accepted_count: number; refused_count: number; refused: { row: number; errors: { field: string }[] }[] }>(
      response,
    )
    console.log(`import of 10,000 rows (${(csv.length / 1024).toFixed(0)} KiB) on ${app.context.db.engine}: ${seconds.toFixed(1)} s`)
    expect(response.status).toBe(200)
    expect(report.accepted_count).toBe(9_900)
    expect(report.refused_count).toBe(100)
    expect(report.refused.map((r) => r.row)).toEqual(bad)
    expect(new Set(report.refused.flatMap((r) => r.errors.map((e) => e.field)))).toEqual(new Set(['phone']))
    expect(await contacts()).toBe(before.contacts + 9_900)
    expect(await created()).toBe(before.created + 9_900)
    const search = await json<{ contacts: { name: string; phone: string }[] }>(
      await app.request('/api/v1/contacts?q=bulk45@example.com', { headers: auth }),
    )
    expect(search.contacts).toEqual([expect.objectContaining({ name: 'Bulk 45', phone: '+14155550045' })])
  }, 120_000)
})

describe('nothing half-imported', () => {
  test('the database failing on row 1,501 of 3,000: 500 with the error shape, and not one contact or event of the file', async () => {
    // A trigger makes the insert of "Boom" fail as a full disk or a lost connection would: not a rule of ours.
    if (app.context.db.engine === 'sqlite')
      await app.context.db.write('test trigger', (tx) =>
        tx.raw.run("CREATE TRIGGER boom BEFORE INSERT ON contacts WHEN NEW.name = 'Boom' BEGIN SELECT RAISE(ABORT, 'boom'); END"),
      )
    else
      await app.context.db.write('test trigger', async (tx) => {
        await tx.raw.run(
          "CREATE FUNCTION boom() RETURNS trigger AS $$ BEGIN IF NEW.name = 'Boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
        )
        await tx.raw.run('CREATE TRIGGER boom BEFORE INSERT ON contacts FOR EACH ROW EXECUTE FUNCTION boom()')
      })
    const before = { contacts: await contacts(), created: await created() }
    const response = await upload(file(3_000, 'Half', { boomAt: 1_500, areas: 1 }).csv)
    const body = await json<{ code: string; request_id: string; message: string }>(response)
    expect(response.status).toBe(500)
    expect(body).toEqual({ code: 'INTERNAL', message: expect.any(String), request_id: expect.any(String) })
    expect(body.message).not.toContain('boom')
    expect({ contacts: await contacts(), created: await created() }).toEqual(before)
    // The import is whole again once the database takes the rows.
    await app.context.db.write('test trigger', (tx) =>
      tx.raw.run(app.context.db.engine === 'sqlite' ? 'DROP TRIGGER boom' : 'DROP TRIGGER boom ON contacts'),
    )
    const retried = await json<{ accepted_count: number }>(await upload(file(3_000, 'Half', { boomAt: 1_500, areas: 1 }).csv))
    expect(retried.accepted_count).toBe(3_000)
  }, 120_000)
})

describe('limits', () => {
  test('more rows than IMPORT_MAX_ROWS: 413 naming the limit, nothing imported', async () => {
    const before = await contacts()
    const error = await expectError(await upload(file(12_001, 'Over').csv), 413, 'PAYLOAD_TOO_LARGE')
    expect(error.message).toContain('12000')
    expect(await contacts()).toBe(before)
  }, 60_000)

  test('more bytes than IMPORT_MAX_BYTES: 413, declared or streamed, nothing imported', async () => {
    const before = await contacts()
    const { csv } = file(11_000, 'Big', { pad: true })
    expect(csv.length).toBeGreaterThan(2 * 1024 * 1024)
    expect((await expectError(await upload(csv), 413, 'PAYLOAD_TOO_LARGE')).message).toContain('2097152 bytes')
    const bytes = new TextEncoder().encode(csv)
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024))
        controller.close()
      },
    })
    const response = await app.request('/api/v1/contacts/import', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/csv' },
      body: chunked,
    })
    expect((await expectError(response, 413, 'PAYLOAD_TOO_LARGE')).message).toContain('2097152 bytes')
    expect(await contacts()).toBe(before)
  }, 60_000)
})
