// PostgreSQL's change mark (src/db/postgres-change-mark.ts, migration 0025): memory of authentication's
// reads is used once the instance hears its own notifications, is dropped when another connection changes
// a user, an organization, a plan, an API key or an MFA factor, and is not trusted while the listening
// connection is lost; what was committed meanwhile is seen once it is back.
import { afterAll, describe, expect, test } from 'bun:test'
import { currentUserState } from '../../src/modules/auth/user-state-cache.ts'
import { json, makeTestApp } from '../helpers/app.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { seedOrganization, signIn } from '../helpers/seed.ts'
import { eventually } from '../helpers/wait.ts'

const ON_POSTGRES = TEST_ENGINE === 'postgres'
const app = ON_POSTGRES ? await makeTestApp() : (undefined as never)
afterAll(() => app?.close())
const seeded = ON_POSTGRES ? await seedOrganization(app) : (undefined as never)
const subject = seeded?.users.agent
/** Another process's connection to the same database (a command-line tool, another instance, psql). */
const other = ON_POSTGRES ? new Bun.SQL(app.config.databaseUrl as string, { max: 1 }) : (undefined as never)
afterAll(() => other?.close())
const role = async () => (await currentUserState(app.context.db, subject.user.id, subject.user.organization_id))?.role
const mark = () => app.context.db.changeMark?.()
const trusted = () => eventually('the mark to be trusted', async () => mark())

describe.skipIf(!ON_POSTGRES)('the PostgreSQL change mark', () => {
  test('is given once the instance hears its own notifications', async () => {
    await role()
    expect(typeof (await trusted())).toBe('number')
  })

  test('memory is used while nothing notifies (a write with triggers off goes unseen), and dropped when something does', async () => {
    await other`UPDATE users SET role = 'agent' WHERE id = ${subject.user.id}`
    await trusted()
    expect(await eventually('the agent role', async () => ((await role()) === 'agent' ? true : undefined))).toBe(true)
    // Triggers off in this session only: the server sends no notification, so memory keeps the old role.
    await other.begin(async (tx) => {
      await tx`SET LOCAL session_replication_role = replica`
      await tx`UPDATE users SET role = 'viewer' WHERE id = ${subject.user.id}`
    })
    await Bun.sleep(300)
    expect(await role()).toBe('agent')
    // Any notifying change (here the organization's) makes the next read see the row as it is.
    await other`UPDATE organizations SET updated_at = updated_at + 1 WHERE id = ${subject.user.organization_id}`
    expect(await eventually('the viewer role', async () => ((await role()) === 'viewer' ? true : undefined))).toBe(true)
  })

  test("another connection's change to a user, an organization, a plan, an API key or an MFA factor moves the mark", async () => {
    const statements = [
      () => other`UPDATE users SET name = name || '.' WHERE id = ${subject.user.id}`,
      () => other`UPDATE organizations SET allowed_ips = allowed_ips WHERE id = ${subject.user.organization_id} AND false`,
      () => other`UPDATE plans SET rate_limit_per_minute = rate_limit_per_minute WHERE id = 'professional'`,
      () => other`DELETE FROM api_keys WHERE id = 'none'`,
      () => other`DELETE FROM mfa_factors WHERE user_id = 'none'`,
    ]
    for (const [i, statement] of statements.entries()) {
      const before = await trusted()
      await statement()
      // The organization's statement changes no row: a row trigger is silent, as it should be.
      if (i === 1) continue
      await eventually(`statement ${i} to move the mark`, async () => (mark() !== before ? true : undefined))
    }
  })

  test('a disabled user is refused by this instance once the change of another process arrives', async () => {
    const { auth } = await signIn(app, subject.user)
    const me = () => app.request('/api/v1/me', { headers: auth })
    expect((await me()).status).toBe(200)
    expect((await me()).status).toBe(200)
    await other`UPDATE users SET status = 'disabled' WHERE id = ${subject.user.id}`
    await eventually('a 401', async () => ((await me()).status === 401 ? true : undefined))
    await other`UPDATE users SET status = 'active' WHERE id = ${subject.user.id}`
  })

  test("an API key's last use notifies nothing; its revocation does", async () => {
    const owner = seeded.users.admin
    const { auth } = owner
    const created = await app.request('/api/v1/api-keys', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'mark', expires_at: new Date(app.clock.now() + 7 * 86_400_000).toISOString() }),
    })
    expect(created.status).toBe(201)
    const key = await json<{ id: string; token: string }>(created)
    const asKey = () => app.request('/api/v1/me', { headers: { authorization: `Bearer ${key.token}` } })
    expect((await asKey()).status).toBe(200)
    const heard: string[] = []
    const listening = await other.listen('switchboard_auth_state', (payload) => {
      if (!payload.startsWith('beat ')) heard.push(payload)
    })
    try {
      await other`UPDATE api_keys SET last_used_at = ${Date.now()}, last_used_ip = '192.0.2.1' WHERE id = ${key.id}`
      await other`UPDATE users SET updated_at = updated_at WHERE id = ${owner.user.id}`
      await other`UPDATE api_keys SET revoked_at = ${Date.now()} WHERE id = ${key.id}`
      await eventually('the revocation heard', async () => (heard.length > 0 ? true : undefined))
      expect(heard).toEqual(['api_keys'])
      // The app's own connection hears it too, a moment later or sooner.
      await eventually('a 401', async () => ((await asKey()).status === 401 ? true : undefined))
    } finally {
      await listening.unlisten()
    }
  })

  test('a change committed while the listening connection is lost is seen once it is back', async () => {
    await other`UPDATE users SET role = 'agent' WHERE id = ${subject.user.id}`
    await trusted()
    expect(await eventually('the agent role', async () => ((await role()) === 'agent' ? true : undefined))).toBe(true)
    for (let round = 0; round < 3; round++) {
      const next = round % 2 ? 'agent' : 'supervisor'
      // Ends every connection of the instance, its LISTEN connection among them (as a restart of the
      // server or a network cut would), then changes the role while it is away.
      const ended = await other`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`
      expect(ended.length).toBeGreaterThan(0)
      await other`UPDATE users SET role = ${next} WHERE id = ${subject.user.id}`
      // A pooled connection ended under a read fails it once (57P01); the pool then opens another.
      const seen = async () => ((await role().catch(() => undefined)) === next ? true : undefined)
      expect(await eventually(`the ${next} role`, seen)).toBe(true)
      // Trusted again: what memory held from before the cut is not used any more.
      await trusted()
      expect(await role()).toBe(next)
    }
  })
})
