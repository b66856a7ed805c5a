// Downloads: /content streams the file with its headers (type, disposition with the UTF-8 name, length,
// ETag, ranges); single ranges answer 206, ranges outside the file 416 with `bytes */size`, several ranges
// the whole file; and signed URLs work without a token until they expire, and never once changed.
import { afterAll, describe, expect, test } from 'bun:test'
import { client, expectError, fetchSigned, json, PNG_1x1, type Upload, uploadsApp, wavOf } from './uploads-api.ts'

const { app, acme } = await uploadsApp()
afterAll(() => app.close())
const admin = client(app, acme.users.admin.auth)
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251))
const file = await admin.upload(bytes, { filename: 'Résumé "final".bin', raw: true })

describe('GET /api/v1/uploads/{id}/content', () => {
  test('the whole file with its headers', async () => {
    const response = await admin.content(file.id)
    expect(response.status).toBe(200)
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': '1000',
      'content-disposition': `attachment; filename="R_sum_ _final_.bin"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.bin`,
      etag: `"${file.sha256}"`,
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
    })
    expect(response.headers.get('x-request-id')).toBeTruthy()
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes)
  })

  test('images, audio and video are inline; text says its charset', async () => {
    const png = await admin.upload(PNG_1x1, { filename: 'a.png' })
    expect((await admin.content(png.id)).headers.get('content-disposition')).toStartWith('inline; filename="a.png"')
    const wav = await admin.upload(wavOf(), { filename: 'a.wav', purpose: 'recording' })
    expect((await admin.content(wav.id)).headers.get('content-disposition')).toStartWith('inline;')
    const text = await admin.upload(Buffer.from('hi'), { filename: 'a.txt' })
    const response = await admin.content(text.id)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(response.headers.get('content-disposition')).toStartWith('attachment;')
  })

  test.each([
    ['bytes=0-9', 0, 9],
    ['bytes=990-', 990, 999],
    ['bytes=-5', 995, 999],
    ['bytes=500-5000', 500, 999],
    ['bytes=-5000', 0, 999],
    ['bytes=999-999', 999, 999],
  ])('%s: 206 with bytes %i-%i', async (range, start, end) => {
    const response = await admin.content(file.id, { range })
    expect(response.status).toBe(206)
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`)
    expect(response.headers.get('content-length')).toBe(String(end - start + 1))
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes.subarray(start, end + 1))
  })

  test.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('%s: 416 with bytes */1000', async (range) => {
    const response = await admin.content(file.id, { range })
    expect(response.status).toBe(416)
    expect(response.headers.get('content-range')).toBe('bytes */1000')
    const body = await json<{ code: string; message: string; request_id: string }>(response)
    expect(body.code).toBe('RANGE_NOT_SATISFIABLE')
    expect(body.request_id).toBe(response.headers.get('x-request-id')!)
  })

  test.each(['bytes=0-1,5-6', 'items=0-5', 'bytes=9-2', 'bytes=abc'])('%s: the whole file (ignored)', async (range) => {
    const response = await admin.content(file.id, { range })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-length')).toBe('1000')
  })

  test('If-None-Match with the ETag: 304; If-Range with another validator: the whole file', async () => {
    expect((await admin.content(file.id, { 'if-none-match': `"${file.sha256}"` })).status).toBe(304)
    expect((await admin.content(file.id, { 'if-none-match': '"other"' })).status).toBe(200)
    expect((await admin.content(file.id, { range: 'bytes=0-1', 'if-range': `"${file.sha256}"` })).status).toBe(206)
    expect((await admin.content(file.id, { range: 'bytes=0-1', 'if-range': '"old"' })).status).toBe(200)
  })

  test('a deleted upload: the record stays, its content is 404', async () => {
    const gone = await admin.upload(Buffer.from('bye'), { filename: 'bye.txt' })
    expect((await admin.remove(gone.id)).status).toBe(204)
    expect((await admin.get(gone.id)).status).toBe('deleted')
    expect((await expectError(await admin.content(gone.id), 404, 'NOT_FOUND')).message).toBe(
      'The file of this upload was removed (the upload is deleted)',
    )
    await expectError(await admin.send('POST', `/api/v1/uploads/${gone.id}/url`), 404, 'NOT_FOUND')
    const again = await expectError(await admin.remove(gone.id), 409, 'INVALID_STATE_TRANSITION')
    expect(again.message).toBe('A deleted upload cannot become deleted: it is final')
  })
})

describe('signed URLs', () => {
  test('download without a token, ranges too, until it expires (SIGNED_URL_TTL)', async () => {
    const signed = await admin.signedUrl(file.id)
    const url = new URL(signed.url)
    expect(url.origin + url.pathname).toBe(`${app.config.publicUrl}/api/v1/files/${file.id}`)
    expect(signed.expires_at).toBe(new Date(Math.floor(app.clock.now() / 1000) * 1000 + 300_000).toISOString())
    const whole = await fetchSigned(app, signed.url)
    expect(whole.status).toBe(200)
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes)
    expect(whole.headers.get('cache-control')).toMatch(/^private, max-age=(299|300)$/)
    const part = await fetchSigned(app, signed.url, { range: 'bytes=10-19' })
    expect(part.status).toBe(206)
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20))
    expect((await fetchSigned(app, signed.url, { range: 'bytes=2000-' })).status).toBe(416)

    app.clock.advance(299_000)
    expect((await fetchSigned(app, signed.url)).status).toBe(200)
    app.clock.advance(1_000)
    const expired = await expectError(await fetchSigned(app, signed.url), 403, 'INSUFFICIENT_PERMISSIONS')
    expect(expired.message).toBe('The download link has expired: ask for a new one')
  })

  test('any change makes it 403: the signature, the expiry, the id', async () => {
    const other = await admin.upload(Buffer.from('other'), { filename: 'other.txt' })
    const signed = new URL((await admin.signedUrl(file.id)).url)
    const expires = signed.searchParams.get('expires')!
    const signature = signed.searchParams.get('signature')!
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A')
    const tampered = [
      `/api/v1/files/${file.id}?expires=${expires}&signature=${flipped}`,
      `/api/v1/files/${file.id}?expires=${Number(expires) + 3600}&signature=${signature}`,
      `/api/v1/files/${other.id}?expires=${expires}&signature=${signature}`,
      `/api/v1/files/${file.id}?expires=${expires}&signature=`,
      `/api/v1/files/${file.id}?expires=-1&signature=${signature}`,
    ]
    for (const path of tampered) {
      const error = await expectError(await app.request(path), 403, 'INSUFFICIENT_PERMISSIONS')
      expect(error.message).toBe('The download link is not valid: it was changed or was not made by this server')
    }
    await expectError(await app.request(`/api/v1/files/${file.id}`), 400, 'VALIDATION_FAILED')
  })

  test('another installation’s key (another master key) signs nothing valid here', async () => {
    const { app: elsewhere, acme: theirs } = await uploadsApp({ MASTER_KEY: 'b'.repeat(64) })
    try {
      const foreign = new URL(
        (
          await client(elsewhere, theirs.users.admin.auth).signedUrl(
            (
              await client(elsewhere, theirs.users.admin.auth).upload(Buffer.from('x'), { filename: 'x.txt' })
            ).id,
          )
        ).url,
      )
      const ours = `/api/v1/files/${file.id}?expires=${foreign.searchParams.get('expires')}&signature=${foreign.searchParams.get('signature')}`
      await expectError(await app.request(ours), 403, 'INSUFFICIENT_PERMISSIONS')
    } finally {
      await elsewhere.close()
    }
  })

  test('the file deleted meanwhile: 404', async () => {
    const upload: Upload = await admin.upload(Buffer.from('short-lived'), { filename: 's.txt' })
    const signed = await admin.signedUrl(upload.id)
    expect((await admin.remove(upload.id)).status).toBe(204)
    await expectError(await fetchSigned(app, signed.url), 404, 'NOT_FOUND')
  })
})
