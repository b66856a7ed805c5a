// One Idempotency-Key sent by 16 identical requests at once over two instances: the operation runs
// exactly once, and every other request gets its stored answer (a replay) or 409 IDEMPOTENCY_KEY_IN_USE —
// for a fresh key, for a key whose claim was abandoned (taken over by one request only), and for a key
// past its 24 hours (which works anew, once). Two instances on one PostgreSQL, one app on SQLite.
import { describe, expect, test } from 'bun:test'
import { ABANDONED_AFTER_MS, KEY_TTL_MS, requestHash } from '../../src/modules/idempotency/index.ts'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'

const c = await makeCluster()
const db = c.instances[0]!.context.db
const admin = c.org.users.admin

const bodyOf = (name: string) => JSON.stringify({ name })
const create = (key: string, name: string) => c.send('POST', '/api/v1/contacts', { name }, { ...admin.auth, 'idempotency-key': key })
const contactsNamed = async (name: string) =>
  Number((await db.raw.get<{ n: number }>('SELECT count(*) AS n FROM contacts WHERE name = ?', [name]))!.n)

/** WRITERS requests with `key` at once: one ran (201, no replay header), the others replayed it or were 409 IN_USE. */
async function once(key: string, name: string) {
  const responses = await c.many(WRITERS, () => create(key, name))
  const ran = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null)
  expect(ran).toHaveLength(1)
  const first = await ran[0]!.clone().text()
  for (const response of responses) {
    if (response === ran[0]) continue
    if (response.status === 409) expect((await json<{ code: string }>(response)).code).toBe('IDEMPOTENCY_KEY_IN_USE')
    else expect([response.status, response.headers.get('idempotent-replayed'), await response.text()]).toEqual([201, 'true', first])
  }
  expect(await contactsNamed(name)).toBe(1)
}

/** Writes the key's row as an earlier request left it. */
async function storedKey(key: string, name: string, row: { status: 'in_progress' | 'done'; createdAt: number }) {
  const hash = requestHash(c.instances[0]!.context.masterKey, { method: 'POST', pathWithQuery: '/api/v1/contacts', body: bodyOf(name) })
  const answer = row.status === 'done' ? [201, '{"content-type":"application/json"}', '{"id":"con_old"}'] : [null, null, null]
  await db.write('test.key', (tx) =>
    tx.raw.run(
      `INSERT INTO idempotency_keys (scope, idempotency_key, organization_id, request_hash, status, response_status, response_headers, response_body, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [admin.user.id, key, c.org.org.id, hash, row.status, ...answer, row.createdAt, row.createdAt + KEY_TTL_MS],
    ),
  )
}

describe(`one Idempotency-Key, many requests at once (${TEST_ENGINE}, ${c.instances.length} instance(s))`, () => {
  test('a fresh key: the request runs once; the others replay its answer or are 409 IN_USE', async () => {
    for (let round = 0; round < 4; round++) await once(crypto.randomUUID(), `Fresh ${round}`)
  })

  test('a claim abandoned by a request that died: exactly one request takes it over and runs', async () => {
    for (let round = 0; round < 4; round++) {
      const key = crypto.randomUUID()
      const name = `Abandoned ${round}`
      await storedKey(key, name, { status: 'in_progress', createdAt: c.instances[0]!.clock.now() - ABANDONED_AFTER_MS - 1000 })
      await once(key, name)
    }
  })

  test('a key past its 24 hours works anew: the request runs once more, not once per request', async () => {
    for (let round = 0; round < 4; round++) {
      const key = crypto.randomUUID()
      const name = `Expired ${round}`
      await storedKey(key, name, { status: 'done', createdAt: c.instances[0]!.clock.now() - KEY_TTL_MS - 1000 })
      await once(key, name)
    }
  })

  test('one key with different bodies at once: one runs; the others are 409 REUSED or IN_USE, or replay the same request', async () => {
    for (let round = 0; round < 4; round++) {
      const key = crypto.randomUUID()
      const names = Array.from({ length: WRITERS }, (_, i) => `Body ${round}.${i % 4}`)
      const responses = await c.many(WRITERS, (i) => create(key, names[i]!))
      const ran = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null)
      expect(ran).toHaveLength(1)
      for (const response of responses)
        if (response.status === 409)
          expect(['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE']).toContain((await json<{ code: string }>(response)).code)
        else expect(response.status).toBe(201)
      const made = await Promise.all([0, 1, 2, 3].map((i) => contactsNamed(`Body ${round}.${i}`)))
      expect(made.reduce((a, b) => a + b, 0)).toBe(1)
    }
  })
})
