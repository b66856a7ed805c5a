// A contact deleted or merged while other requests create records naming it (issue 27): a read-modify-
// write across instances. SQLite's one writer serializes them; on PostgreSQL the delete or merge locks
// the contact FOR UPDATE first and a record's creation reads it FOR KEY SHARE (src/modules/crm/key-share.ts),
// so the delete's check of references and its DELETE see every record made before it and none made
// after; the foreign key stays the last guard (409). On PostgreSQL the requests alternate between two
// instances of one cluster; on SQLite one process serves.
import { afterAll, describe, expect, test } from 'bun:test'
import { json, makeTestApp, type TestApp } from './helpers/app.ts'
import { clusterSettings, TEST_ENGINE } from './helpers/engine.ts'
import { seedOrganization } from './helpers/seed.ts'

const SLOW_MS = 60_000
const instances: TestApp[] = []
afterAll(async () => Promise.all(instances.map((app) => app.close())))
if (TEST_ENGINE === 'postgres') {
  // One after the other: the first start migrates, the second finds it done.
  const shared = await clusterSettings()
  instances.push(await makeTestApp(shared), await makeTestApp(shared))
} else instances.push(await makeTestApp())
const { auth } = (await seedOrganization(instances[0]!, 'acme')).users.admin
const db = instances[0]!.context.db

let turn = 0
/** A request to the next instance in turn. */
function send(method: string, path: string, body?: unknown): Promise<Response> {
  const app = instances[turn++ % instances.length]!
  return app.request(path, {
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}
const newContact = async () => (await json<{ id: string }>(await send('POST', '/api/v1/contacts', { name: 'Grace' }))).id
const call = (contactId: string) =>
  send('POST', '/api/v1/calls', { direction: 'inbound', from: '+14155550100', to: '+14155550199', contact_id: contactId })
const session = (contactId: string) => send('POST', '/api/v1/engagements', { contact_id: contactId, channel: 'chat' })
const naming = async (table: 'calls' | 'engagements', contactId: string) =>
  Number((await db.raw.get<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE contact_id = ?`, [contactId]))!.n)

/**
 * Ten creations at once and `op` among them: sent after the fifth, once the first `settled` of those
 * have been answered (0: at once), so that some are written before it and some after.
 */
async function race(create: () => Promise<Response>, op: () => Promise<Response>, settled: number) {
  const before = Array.from({ length: 5 }, () => create())
  await Promise.all(before.slice(0, settled))
  const opResponse = op()
  const after = Array.from({ length: 5 }, () => create())
  const created = await Promise.all([...before, ...after])
  return { created: created.map((r) => r.status), op: (await opResponse).status }
}

describe(`records created while their contact is deleted or merged (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    'calls: each is made (then let go of the contact) or refused 400; the delete is 204; no call names the deleted contact',
    async () => {
      for (const settled of [0, 1, 3]) {
        const contactId = await newContact()
        const { created, op } = await race(
          () => call(contactId),
          () => send('DELETE', `/api/v1/contacts/${contactId}`),
          settled,
        )
        expect(op).toBe(204)
        for (const status of created) expect([201, 400]).toContain(status)
        expect(await naming('calls', contactId)).toBe(0)
      }
    },
    SLOW_MS,
  )

  test(
    'sessions: the delete is 204 only when none was made before it (409 otherwise, the contact kept); none names a deleted contact',
    async () => {
      for (const settled of [0, 1, 3]) {
        const contactId = await newContact()
        const { created, op } = await race(
          () => session(contactId),
          () => send('DELETE', `/api/v1/contacts/${contactId}`),
          settled,
        )
        for (const status of created) expect([201, 400]).toContain(status)
        const made = created.filter((status) => status === 201).length
        if (op === 204) expect([made, await naming('engagements', contactId)]).toEqual([0, 0])
        else
          expect([op, (await send('GET', `/api/v1/contacts/${contactId}`)).status, await naming('engagements', contactId)]).toEqual([
            409,
            200,
            made,
          ])
      }
    },
    SLOW_MS,
  )

  test(
    'a merge: the sessions made before it move to the survivor, those after are refused 400; none names the merged contact',
    async () => {
      const [survivorId, otherId] = [await newContact(), await newContact()]
      const { created, op } = await race(
        () => session(otherId),
        () => send('POST', `/api/v1/contacts/${survivorId}/merge`, { other_id: otherId }),
        1,
      )
      expect(op).toBe(200)
      for (const status of created) expect([201, 400]).toContain(status)
      expect(await naming('engagements', otherId)).toBe(0)
      expect(await naming('engagements', survivorId)).toBe(created.filter((status) => status === 201).length)
    },
    SLOW_MS,
  )
})
