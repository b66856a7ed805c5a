// The last guard of a delete (src/db/foreign-keys.ts) on the engine under test: a foreign key still naming
// the row is SQLITE_CONSTRAINT_FOREIGNKEY on SQLite and SQLSTATE 23503 on PostgreSQL, and either becomes
// 409 CONFLICT, never 500, even when no referrer let go of it first (an app whose referrers are empty).
import { afterAll, describe, expect, test } from 'bun:test'
import { createApp } from '../../src/app.ts'
import { deleteUnlessReferenced, isForeignKeyViolation } from '../../src/db/foreign-keys.ts'
import { AppError } from '../../src/errors.ts'
import { json, makeTestApp } from '../helpers/app.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { seedOrganization } from '../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { auth } = (await seedOrganization(app, 'acme')).users.admin
const post = async (path: string, body: unknown) =>
  json<{ id: string }>(
    await app.request(path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  )

/** A contact and a call naming it. */
async function contactWithCall(): Promise<string> {
  const contact = await post('/api/v1/contacts', { name: 'Grace' })
  await post('/api/v1/calls', { direction: 'inbound', from: '+14155550100', to: '+14155550199', contact_id: contact.id })
  return contact.id
}

describe(`a foreign key refusing a delete (${TEST_ENGINE})`, () => {
  test('is told apart from other errors, by the code each engine gives', async () => {
    const contactId = await contactWithCall()
    const error = await app.context.db
      .write('test.fk', (tx) => tx.raw.run('DELETE FROM contacts WHERE id = ?', [contactId]))
      .catch((e: unknown) => e)
    expect(error).toMatchObject(TEST_ENGINE === 'postgres' ? { errno: '23503' } : { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' })
    expect(isForeignKeyViolation(error)).toBe(true)
    expect(isForeignKeyViolation(new Error('UNIQUE constraint failed'))).toBe(false)
  })

  test('deleteUnlessReferenced makes it 409 CONFLICT naming the record, and the transaction rolls back', async () => {
    const contactId = await contactWithCall()
    const error = await app.context.db
      .write('test.fk', (tx) => deleteUnlessReferenced('contact', () => tx.raw.run('DELETE FROM contacts WHERE id = ?', [contactId])))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({ code: 'CONFLICT', message: 'The contact is still referred to by other records: it cannot be deleted' })
    expect(await app.context.db.raw.get('SELECT id FROM contacts WHERE id = ?', [contactId])).toEqual({ id: contactId })
  })

  test('through the API, with no referrer letting go first: 409, not 500', async () => {
    const unguarded = createApp({ ...app.context, referrers: { contact: [], ticket: [] } })
    const contactId = await contactWithCall()
    const response = await unguarded.handle(
      new Request(`http://localhost/api/v1/contacts/${contactId}`, { method: 'DELETE', headers: auth }),
    )
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'The contact is still referred to by other records: it cannot be deleted',
    })
  })
})
