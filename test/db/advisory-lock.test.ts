// PostgreSQL session advisory locks (src/db/advisory-lock.ts): one holder at a time; shared holders
// exclude an exclusive one; a holder whose connection was cut has lost the lock and knows it (the
// client reconnects by itself, and a new connection does not hold what the old one did).
import { afterAll, describe, expect, test } from 'bun:test'
import { AdvisoryLock, LOCKS } from '../../src/db/advisory-lock.ts'
import { clusterSettings, postgresServer } from '../helpers/engine.ts'
import { postgresAvailable } from '../helpers/services.ts'
import { eventually } from '../helpers/wait.ts'

describe.skipIf(!postgresAvailable)('advisory locks', async () => {
  const { DATABASE_URL: url } = postgresAvailable ? await clusterSettings() : { DATABASE_URL: '' }
  const held: AdvisoryLock[] = []
  const lock = (key: number, mode?: 'exclusive' | 'shared') => {
    const made = new AdvisoryLock(url, key, mode)
    held.push(made)
    return made
  }
  afterAll(() => Promise.all(held.map((l) => l.release())))

  test('one exclusive holder; it confirms its hold; another gets it once released', async () => {
    const [first, second] = [lock(LOCKS.cronLeader), lock(LOCKS.cronLeader)]
    expect(await first.take()).toBe(true)
    expect(await second.take()).toBe(false)
    expect(await first.take()).toBe(true)
    await first.release()
    expect(await second.take()).toBe(true)
    await second.release()
  })

  test('shared holders together, never beside an exclusive one', async () => {
    const [one, two, alone] = [lock(LOCKS.instances, 'shared'), lock(LOCKS.instances, 'shared'), lock(LOCKS.instances)]
    expect([await one.take(), await two.take(), await alone.take()]).toEqual([true, true, false])
    await Promise.all([one.release(), two.release()])
    expect(await alone.take()).toBe(true)
    expect(await lock(LOCKS.instances, 'shared').take()).toBe(false)
    await alone.release()
  })

  test('a holder whose connection is cut has lost the lock; the other takes it', async () => {
    const [leader, follower] = [lock(LOCKS.cronLeader), lock(LOCKS.cronLeader)]
    expect(await leader.take()).toBe(true)
    const { admin } = await postgresServer()
    const database = new URL(url).pathname.slice(1)
    await admin.unsafe(
      "SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND l.objid = $1 AND d.datname = $2",
      [LOCKS.cronLeader, database],
    )
    // pg_terminate_backend only signals: the backend ends, and its locks go, a moment later.
    expect(await eventually('the cut holder to lose the lock', async () => ((await follower.take()) ? true : undefined))).toBe(true)
    expect(await leader.take()).toBe(false)
    expect(leader.isHeld).toBe(false)
  })
})
