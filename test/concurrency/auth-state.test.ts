// The user behind a token, kept in memory by each instance (src/db/marked-cache.ts), under concurrent
// readers on two instances while an admin changes the user on one of them: the instance that made the
// change answers with it from its next request, the other once PostgreSQL's notification arrives
// (migration 0025's triggers, src/db/postgres-change-mark.ts); no instance keeps serving the old state.
// Without the triggers the other instance answers the old role and the old status for ever.
import { describe, expect, test } from 'bun:test'
import { type Role, roleGrants } from '../../src/modules/access/index.ts'
import { json, makeCluster, WRITERS } from '../helpers/cluster.ts'
import { signIn } from '../helpers/seed.ts'
import { eventually } from '../helpers/wait.ts'

const SLOW_MS = 60_000
const cluster = await makeCluster()
const { instances, org } = cluster
const subject = org.users.agent
const admin = org.users.admin

const me = (instance: number, auth: Record<string, string>) =>
  instances[instance % instances.length]!.request('/api/v1/me', { headers: auth })
const change = (instance: number, body: unknown) =>
  instances[instance % instances.length]!.request(`/api/v1/users/${subject.user.id}`, {
    method: 'PATCH',
    headers: { ...admin.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
/** What `role` grants, as everywhere() shows it. */
const seenAs = (role: Role) => `${role}: ${roleGrants(role).join(' ')}`
/** What every instance answers now, `WRITERS` requests spread over them. */
const everywhere = (auth: Record<string, string>) =>
  Promise.all(
    Array.from({ length: WRITERS }, async (_, i) => {
      const answer = await me(i, auth)
      if (answer.status !== 200) return answer.status
      // The permissions are the ones authentication derived from the role it read: what memory holds.
      const { role, permissions } = await json<{ role: string; permissions: string[] }>(answer)
      return `${role}: ${permissions.join(' ')}`
    }),
  )

describe('the user behind a token on every instance', () => {
  test(
    `a role changed on one instance amid ${WRITERS} readers on both: the next request there has it, every instance soon after`,
    async () => {
      const { auth } = await signIn(instances[0]!, subject.user)
      await everywhere(auth)
      await eventually('both instances to trust their memory', async () =>
        instances.every((instance) => instance.context.db.changeMark?.() !== undefined) ? true : undefined,
      )
      for (const [round, role] of (['supervisor', 'viewer', 'agent', 'supervisor'] as const).entries()) {
        const reading = everywhere(auth)
        expect((await change(round, { role })).status).toBe(200)
        expect(await json<{ role: string; permissions: string[] }>(await me(round, auth))).toMatchObject({
          role,
          permissions: [...roleGrants(role)],
        })
        await reading
        await eventually(`every instance to answer ${role}`, async () =>
          (await everywhere(auth)).every((seen) => seen === seenAs(role)) ? true : undefined,
        )
      }
    },
    SLOW_MS,
  )

  test(
    `a user disabled on one instance amid ${WRITERS} readers on both is refused by every instance`,
    async () => {
      for (let round = 0; round < 3; round++) {
        const { auth } = await signIn(instances[0]!, subject.user)
        expect(await everywhere(auth)).not.toContain(401)
        const reading = everywhere(auth)
        expect((await change(round, { status: 'disabled' })).status).toBe(200)
        expect((await me(round, auth)).status).toBe(401)
        await reading
        await eventually('every instance to refuse', async () =>
          (await everywhere(auth)).every((seen) => seen === 401) ? true : undefined,
        )
        expect((await change(round + 1, { status: 'active' })).status).toBe(200)
      }
    },
    SLOW_MS,
  )

  test(
    `a personal access token revoked on one instance amid ${WRITERS} readers on both is refused by every instance`,
    async () => {
      for (let round = 0; round < 3; round++) {
        const expires_at = new Date(instances[0]!.clock.now() + 7 * 86_400_000).toISOString()
        const created = await instances[round % instances.length]!.request('/api/v1/api-keys', {
          method: 'POST',
          headers: { ...admin.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `key ${round}`, expires_at }),
        })
        expect(created.status).toBe(201)
        const key = await json<{ id: string; token: string }>(created)
        const auth = { authorization: `Bearer ${key.token}` }
        expect(await everywhere(auth)).not.toContain(401)
        const reading = everywhere(auth)
        const revoked = await instances[round % instances.length]!.request(`/api/v1/api-keys/${key.id}`, {
          method: 'DELETE',
          headers: admin.auth,
        })
        expect(revoked.status).toBe(204)
        expect((await me(round, auth)).status).toBe(401)
        await reading
        await eventually('every instance to refuse', async () =>
          (await everywhere(auth)).every((seen) => seen === 401) ? true : undefined,
        )
      }
    },
    SLOW_MS,
  )
})
