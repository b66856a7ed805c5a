// Issue 27 item 10: file storage that cannot be reached (an S3 endpoint refusing connections, as a busy or
// restarting one does) is a 503 SERVICE_UNAVAILABLE with Retry-After, never a 500, and nothing is left.
import { afterAll, expect, test } from 'bun:test'
import { makeTestApp } from '../../helpers/app.ts'
import { freePort } from '../../helpers/process.ts'
import { seedOrganization } from '../../helpers/seed.ts'
import { client, expectError } from './uploads-api.ts'

// Nothing listens there.
const app = await makeTestApp({
  S3_BUCKET: 'unreachable',
  S3_ENDPOINT: `http://127.0.0.1:${freePort()}`,
  S3_ACCESS_KEY_ID: 'test',
  S3_SECRET_ACCESS_KEY: 'test-secret',
})
afterAll(() => app.close())
const { auth } = (await seedOrganization(app)).users.admin

test('an upload while the storage cannot be reached: 503 with Retry-After, logged, and no upload recorded', async () => {
  const { post } = client(app, auth)
  for (const options of [{}, { raw: true }, { chunked: 1024 }]) {
    const response = await post(crypto.getRandomValues(new Uint8Array(4096)), options)
    expect(response.headers.get('retry-after')).toBe('1')
    const error = await expectError(response, 503, 'SERVICE_UNAVAILABLE')
    expect(error.message).toBe('The file storage cannot be reached: try again shortly')
  }
  expect(app.logs.records().filter((r) => r.msg === 'unhandled error')).toHaveLength(3)
  const listed = await app.request('/api/v1/uploads', { headers: auth })
  expect(((await listed.json()) as { uploads: unknown[] }).uploads).toEqual([])
})
