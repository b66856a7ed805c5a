// The user as it is now, kept in memory between commits (src/modules/auth/user-state-cache.ts): what a
// request sees is never older than the last commit, whether this process made it (the API, amid
// concurrent reads) or another process wrote the same SQLite file (as a command-line tool does).
import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { type Role, roleGrants } from '../../../src/modules/access/index.ts'
import { currentUserState } from '../../../src/modules/auth/user-state-cache.ts'
import { json, makeTestApp } from '../../helpers/app.ts'
import { TEST_ENGINE } from '../../helpers/engine.ts'
import { seedOrganization, signIn } from '../../helpers/seed.ts'

const app = await makeTestApp()
afterAll(() => app.close())
const { users } = await seedOrganization(app)
const admin = users.super_admin
const subject = users.agent
// Disabling a user ends their sessions: a test that disables signs in again after.
let auth = subject.auth
const me = async () => app.request('/api/v1/me', { headers: auth })
// Straight to the app, without the helper's wait for the next event-loop turn: the change and the
// request after it run in the same turn, where only the writes' own move of the mark can tell.
const meNow = () => app.app.handle(new Request('http://localhost/api/v1/me', { headers: auth }))
/** What the request saw of the user: the permissions come from the role authentication read. */
const expectRole = async (answer: Response, role: Role) => {
  expect(answer.status).toBe(200)
  const body = await json<{ role: string; permissions: string[] }>(answer)
  expect(body.role).toBe(role)
  expect(body.permissions).toEqual([...roleGrants(role)])
}
const patch = (body: unknown) =>
  app.app.handle(
    new Request(`http://localhost/api/v1/users/${subject.user.id}`, {
      method: 'PATCH',
      headers: { ...admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )

describe('changes through the API', () => {
  test('each role change is seen by the next request, with reads of the old role running meanwhile', async () => {
    const roles = ['supervisor', 'agent', 'viewer', 'admin', 'agent'] as const
    for (let round = 0; round < 20; round++) {
      const role = roles[round % roles.length]!
      // Reads that start before the change and finish around its commit must not leave the old role behind.
      const reads = Array.from({ length: 10 }, () => me())
      const changed = patch({ role })
      const more = Array.from({ length: 10 }, () => me())
      expect((await changed).status).toBe(200)
      await expectRole(await meNow(), role)
      await Promise.all([...reads, ...more])
      await expectRole(await me(), role)
    }
  })

  test('a disabled user is refused from the next request on', async () => {
    for (let round = 0; round < 10; round++) {
      auth = (await signIn(app, subject.user)).auth
      expect((await me()).status).toBe(200)
      const reads = Array.from({ length: 10 }, () => me())
      expect((await patch({ status: 'disabled' })).status).toBe(200)
      expect((await meNow()).status).toBe(401)
      await Promise.all(reads)
      expect((await me()).status).toBe(401)
      expect((await patch({ status: 'active' })).status).toBe(200)
    }
  })
})

describe('a read while a transaction writes', () => {
  test('what was read before the commit is not kept as the state after it', async () => {
    const { db } = app.context
    const read = async () => (await currentUserState(db, subject.user.id, subject.user.organization_id))?.role
    await db.raw.run('UPDATE users SET role = ? WHERE id = ?', ['agent', subject.user.id])
    expect(await read()).toBe('agent')
    for (const role of ['viewer', 'supervisor', 'agent'] as const) {
      await db.write('test.role', async (tx) => {
        await tx.raw.run('UPDATE users SET role = ? WHERE id = ?', [role, subject.user.id])
        // The read connection does not see this transaction yet: the old role, which must not outlive it.
        expect(await read()).not.toBe(role)
      })
      expect(await read()).toBe(role)
    }
  })
})

describe.skipIf(TEST_ENGINE !== 'sqlite')('changes by another process on the same SQLite file', () => {
  test('a commit of another connection is seen from the next request on', async () => {
    const other = new Database(join(app.dataDir, 'switchboard.db'))
    try {
      other.run('PRAGMA busy_timeout = 5000')
      const set = other.query('UPDATE users SET role = ?, status = ? WHERE id = ?')
      auth = (await signIn(app, subject.user)).auth
      expect((await me()).status).toBe(200)
      for (let round = 0; round < 10; round++) {
        set.run('viewer', 'disabled', subject.user.id)
        expect((await me()).status).toBe(401)
        const role = round % 2 ? 'supervisor' : 'admin'
        set.run(role, 'active', subject.user.id)
        await expectRole(await me(), role)
      }
    } finally {
      other.close()
    }
  })
})
