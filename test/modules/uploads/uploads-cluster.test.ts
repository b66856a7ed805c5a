// Two instances of one cluster (one PostgreSQL, one Redis, one S3 bucket, one MASTER_KEY): a file uploaded
// through one is downloaded whole and by range through the other, a signed URL made by one is honoured by
// the other, a deletion or expiry run by one removes the bytes for both, and an Idempotency-Key replays
// across them without leaving a second copy of the file.
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { clusterSettings } from '../../helpers/engine.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { postgresAvailable, redisAvailable } from '../../helpers/services.ts'
import { client, expectError, fetchSigned, runExpiry, storedKeys } from './uploads-api.ts'

// Two boots on PostgreSQL take seconds on a busy machine.
const SLOW_MS = 60_000
const apps: TestApp[] = []
afterAll(async () => Promise.all(apps.map((app) => app.close())))

describe.skipIf(!postgresAvailable || !redisAvailable)('uploads across two instances', () => {
  test(
    'uploaded on one, downloaded, signed, deleted and expired through the other',
    async () => {
      const shared = { ...(await clusterSettings()), ACCESS_TOKEN_TTL: '86400' }
      // One after the other: the first start migrates and bootstraps, the second finds it done.
      const a = await makeTestApp(shared)
      const b = await makeTestApp(shared)
      apps.push(a, b)
      expect(a.config.s3?.bucket).toBe(b.config.s3!.bucket)
      const { auth } = (await seedOrganization(a, 'acme')).users.admin
      const onA = client(a, auth)
      const onB = client(b, auth)

      const bytes = crypto.getRandomValues(new Uint8Array(3 * 1024 * 1024))
      const upload = await onA.upload(bytes, { filename: 'shared.bin', chunked: 64 * 1024 })
      expect(await onB.get(upload.id)).toEqual(upload)
      const whole = await onB.content(upload.id)
      expect(whole.status).toBe(200)
      expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes)
      const range = await onB.content(upload.id, { range: 'bytes=1000000-1000099' })
      expect(range.status).toBe(206)
      expect(new Uint8Array(await range.arrayBuffer())).toEqual(bytes.subarray(1_000_000, 1_000_100))
      const signed = await onA.signedUrl(upload.id)
      expect(new Uint8Array(await (await fetchSigned(b, signed.url)).arrayBuffer())).toEqual(bytes)

      expect((await onB.remove(upload.id)).status).toBe(204)
      await expectError(await onA.content(upload.id), 404, 'NOT_FOUND')
      expect(await storedKeys(a)).toEqual([])

      const expiring = await onA.upload(Buffer.from('expires'), { filename: 'e.txt' })
      b.clock.advance(b.config.uploads.expiryMs)
      expect(await runExpiry(b)).toMatchObject({ expired: 1, purged: 1 })
      expect((await onA.get(expiring.id)).status).toBe('expired')
      expect(await storedKeys(a)).toEqual([])

      // One Idempotency-Key on both: the second answers with the first upload, its own copy discarded.
      const headers = { 'idempotency-key': crypto.randomUUID() }
      const first = await onA.upload(Buffer.from('once'), { filename: 'once.txt', headers })
      const replay = await onB.post(Buffer.from('once'), { filename: 'once.txt', headers })
      expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
      expect(await replay.json()).toEqual(first)
      expect((await storedKeys(a)).length).toBe(1)
    },
    SLOW_MS,
  )
})
