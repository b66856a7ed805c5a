// UPLOAD_MAX_BYTES: 413 before anything is stored when Content-Length says so (raw or multipart), and as
// soon as the limit is passed when the body is chunked — the partial bytes removed, on the local disk and
// in S3 (where a part was already sent: the PostgreSQL run), no row left. A file of exactly the limit passes.
import { afterAll, describe, expect, test } from 'bun:test'
import { client, expectError, storedKeys, uploadRequest, uploadsApp } from './uploads-api.ts'

const MAX = 100_000
const { app, acme } = await uploadsApp({ UPLOAD_MAX_BYTES: String(MAX) })
afterAll(() => app.close())
const admin = client(app, acme.users.admin.auth)
const rows = async () => Number((await app.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM uploads'))!.n)

/** Refused with 413, leaving no stored bytes and no row. */
async function expectRefused(send: () => Promise<Response>) {
  const [keysBefore, rowsBefore] = [await storedKeys(app), await rows()]
  const error = await expectError(await send(), 413, 'PAYLOAD_TOO_LARGE')
  expect(await storedKeys(app)).toEqual(keysBefore)
  expect(await rows()).toBe(rowsBefore)
  return error
}

describe('413 PAYLOAD_TOO_LARGE', () => {
  test('a raw body whose Content-Length is over the limit, before anything is read', async () => {
    const error = await expectRefused(() => admin.post(new Uint8Array(MAX + 1), { raw: true }))
    expect(error.message).toBe(`The request body is larger than ${MAX} bytes`)
  })

  test('a multipart body whose Content-Length is over the limit and its framing allowance', async () => {
    await expectRefused(() => admin.post(new Uint8Array(MAX + 70_000), {}))
  })

  test('a multipart body within the allowance whose file is over the limit', async () => {
    await expectRefused(() => admin.post(new Uint8Array(MAX + 1), { filename: 'big.bin' }))
  })

  test.each([
    ['raw', { raw: true }],
    ['multipart', {}],
  ] as const)('%s, chunked: refused once the limit is passed, the partial file removed', async (_name, options) => {
    await expectRefused(() => admin.post(crypto.getRandomValues(new Uint8Array(MAX + 1)), { ...options, chunked: 8192 }))
  })

  test('a file of exactly UPLOAD_MAX_BYTES is taken', async () => {
    expect((await admin.upload(new Uint8Array(MAX), { raw: true, chunked: 8192 })).size_bytes).toBe(MAX)
    expect((await admin.upload(new Uint8Array(MAX), { filename: 'max.bin' })).size_bytes).toBe(MAX)
  })

  test('a refused file larger than one S3 part (several MiB sent before the limit): nothing is left', async () => {
    const { app: big, acme: org } = await uploadsApp({ UPLOAD_MAX_BYTES: String(10 * 1024 * 1024) })
    try {
      const before = await storedKeys(big)
      const { path, init } = uploadRequest(new Uint8Array(10 * 1024 * 1024 + 1), { raw: true, chunked: 256 * 1024 })
      const response = await big.request(path, {
        ...init,
        headers: { ...org.users.admin.auth, ...(init.headers as Record<string, string>) },
      })
      await expectError(response, 413, 'PAYLOAD_TOO_LARGE')
      expect(await storedKeys(big)).toEqual(before)
      const count = await big.context.db.raw.get<{ n: number }>('SELECT count(*) AS n FROM uploads')
      expect(Number(count!.n)).toBe(0)
    } finally {
      await big.close()
    }
  })
})
