// Instances starting at once on an empty database: one applies each migration and the others find it
// done (none fails to start), exactly one signing key and one page-token secret are made and used by all,
// and of many first-start runs at once exactly one creates the organization "Default" and its Super Admin
// (even with instances told different ADMIN_EMAILs). Then signing keys rotated on every instance at the
// same instant leave one current key, the same on every instance and in the JWKS. On PostgreSQL four
// instances start together, three times; on SQLite one app on an empty file.
import { afterAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { bootstrap } from '../../src/bootstrap.ts'
import { migrationsFor } from '../../src/db/migrations/index.ts'
import type { Keyring } from '../../src/modules/keys/index.ts'
import type { UserRow } from '../../src/modules/users/index.ts'
import { json, makeTestApp, type TestApp } from '../helpers/app.ts'
import { WRITERS } from '../helpers/cluster.ts'
import { clusterSettings, TEST_ENGINE } from '../helpers/engine.ts'
import { signIn } from '../helpers/seed.ts'

const SLOW_MS = 180_000
const INSTANCES = TEST_ENGINE === 'postgres' ? 4 : 1
const open: TestApp[] = []
afterAll(async () => Promise.all(open.splice(0).map((app) => app.close())))

/** INSTANCES apps started at the same moment on one empty database, instance i told ADMIN_EMAIL admin<i>@first.test. */
async function startAtOnce(): Promise<TestApp[]> {
  const shared = TEST_ENGINE === 'postgres' ? await clusterSettings() : { MASTER_KEY: randomBytes(32).toString('hex') }
  const apps = await Promise.all(
    Array.from({ length: INSTANCES }, (_, i) => makeTestApp({ ...shared, ADMIN_EMAIL: `admin${i}@first.test` })),
  )
  open.push(...apps)
  return apps
}

const count = async (app: TestApp, sql: string) => Number((await app.context.db.raw.get<{ n: number }>(sql))!.n)

describe(`first start of several instances at once (${TEST_ENGINE}, ${INSTANCES} instance(s))`, () => {
  let apps: TestApp[] = []

  test(
    'each migration applied once, one signing key, one page-token secret, all shared',
    async () => {
      for (let round = 0; round < 3; round++) {
        await Promise.all(open.splice(0).map((app) => app.close()))
        apps = await startAtOnce()
        const a = apps[0]!
        const tags = await a.context.db.raw.all<{ tag: string }>('SELECT tag FROM schema_migrations ORDER BY tag')
        expect(tags.map((t) => t.tag)).toEqual(migrationsFor(a.context.db.engine).map((m) => m.tag))
        expect(await count(a, 'SELECT count(*) AS n FROM signing_keys')).toBe(1)
        const kids = await Promise.all(apps.map(async (app) => (await app.context.keys.signer(app.clock.now())).kid))
        expect(new Set(kids).size).toBe(1)
        expect(await count(a, "SELECT count(*) AS n FROM system_kv WHERE key = 'page_token_key'")).toBe(1)
        // A page token made by any instance is good on every other: they all sign with the one secret.
        const binding = { organizationId: 'org_any', query: 'any' }
        for (const from of apps) {
          const token = from.context.pageTokens.encode(binding, { after: [round, 'x'] })
          for (const to of apps) expect(to.context.pageTokens.decode(token, binding)).toEqual({ after: [round, 'x'] })
        }
      }
    },
    SLOW_MS,
  )

  test(
    'first-start runs at once on every instance: one creates "Default" and its Super Admin, the others nothing',
    async () => {
      const results = await Promise.all(Array.from({ length: WRITERS }, (_, i) => bootstrap(apps[i % apps.length]!.context)))
      const created = results.filter((r) => r !== undefined)
      expect(created).toHaveLength(1)
      const a = apps[0]!
      expect(await count(a, 'SELECT count(*) AS n FROM organizations')).toBe(1)
      expect(await count(a, 'SELECT count(*) AS n FROM users')).toBe(1)
      // A page token made by any instance is good on every other: they sign with one secret.
      const user = (await a.context.db.raw.get<UserRow>('SELECT * FROM users'))!
      const { auth } = await signIn(a, user)
      for (let i = 0; i < 3; i++) {
        const made = await a.request('/api/v1/contacts', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Contact ${i}` }),
        })
        expect(made.status).toBe(201)
      }
      for (const from of apps) {
        const page = await json<{ next_page_token: string }>(await from.request('/api/v1/contacts?page_size=1', { headers: auth }))
        for (const to of apps)
          expect((await to.request(`/api/v1/contacts?page_size=1&page_token=${page.next_page_token}`, { headers: auth })).status).toBe(200)
      }
    },
    SLOW_MS,
  )

  test(
    'keys rotated at the same instant on every instance: each published, then one current key, the same everywhere and in the JWKS',
    async () => {
      const first = (await apps[0]!.context.keys.signer(apps[0]!.clock.now())).kid
      const rotated = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) => (apps[i % apps.length]!.context.keys as Keyring).rotate(60)),
      )
      const jwks = async (app: TestApp) => (await json<{ keys: Array<{ kid: string }> }>(await app.request('/.well-known/jwks.json'))).keys
      const published = (await jwks(apps[0]!)).map((k) => k.kid)
      expect(published).toEqual(expect.arrayContaining(rotated.map((r) => r.kid)))
      for (const app of apps) app.clock.advance(60_000)
      const signers = await Promise.all(apps.map(async (app) => (await app.context.keys.signer(app.clock.now())).kid))
      expect(new Set(signers).size).toBe(1)
      expect(rotated.map((r) => r.kid)).toContain(signers[0]!)
      // The JWKS: the first key (its sign-in's token is still live) and the one current key, which signs.
      for (const app of apps) expect((await jwks(app)).map((k) => k.kid)).toEqual([first, signers[0]!])
    },
    SLOW_MS,
  )
})
