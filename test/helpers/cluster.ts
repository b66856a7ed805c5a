// Two instances of one cluster for the concurrency suite (test/concurrency/): on PostgreSQL two apps on
// one database, one Redis and one bucket, each with its own connection pool, as two processes would be;
// on SQLite one app (its one writer makes every invariant trivially serial, and the suite stays green).
// `send` alternates between the instances, so concurrent requests really race on the database.
import { afterAll } from 'bun:test'
import type { SettingName } from '../../src/config.ts'
import { json, makeTestApp, type TestApp } from './app.ts'
import { clusterSettings, TEST_ENGINE } from './engine.ts'
import { type SeededOrg, seedOrganization } from './seed.ts'

/** At least this many writers at once in every concurrency test. */
export const WRITERS = 16

export interface Cluster {
  instances: TestApp[]
  org: SeededOrg
  /** A request to the next instance in turn, as the organization's admin unless `auth` is given. */
  send(method: string, path: string, body?: unknown, auth?: Record<string, string>): Promise<Response>
  /** `count` copies of `request` at once, spread over the instances; their responses in order. */
  many(count: number, request: (i: number) => Promise<Response>): Promise<Response[]>
}

export async function makeCluster(settings: Partial<Record<SettingName, string>> = {}): Promise<Cluster> {
  const instances: TestApp[] = []
  afterAll(async () => Promise.all(instances.map((app) => app.close())))
  if (TEST_ENGINE === 'postgres') {
    const shared = { ...(await clusterSettings()), ...settings }
    // One after the other: the first start migrates, the second finds it done.
    instances.push(await makeTestApp(shared), await makeTestApp(shared))
  } else instances.push(await makeTestApp(settings))
  const org = await seedOrganization(instances[0]!, 'acme')
  let turn = 0
  const send = (method: string, path: string, body?: unknown, auth: Record<string, string> = org.users.admin.auth) =>
    instances[turn++ % instances.length]!.request(path, {
      method,
      headers: { ...auth, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const many = (count: number, request: (i: number) => Promise<Response>) =>
    Promise.all(Array.from({ length: count }, (_, i) => request(i)))
  return { instances, org, send, many }
}

export { json, TEST_ENGINE }
