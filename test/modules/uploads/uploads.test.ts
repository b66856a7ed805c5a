// POST /api/v1/uploads end to end: multipart and raw bodies, sent whole or chunked; the type read from the
// bytes (a PNG named .txt is image/png, the client's Content-Type is ignored), image sizes, SHA-256; the
// filename made safe; the purpose from the form or the query and each purpose's allow-list (415, nothing
// stored); reading one, listing with filters; permissions and other organizations.
import { afterAll, describe, expect, test } from 'bun:test'
import { client, ELF, expectError, json, PNG_1x1, pngOf, storedKeys, type Upload, uploadsApp, wavOf } from './uploads-api.ts'

const { app, acme, globex } = await uploadsApp()
afterAll(() => app.close())
const admin = client(app, acme.users.admin.auth)
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

describe('receiving a file', () => {
  test.each([
    ['multipart', {}],
    ['multipart, chunked', { chunked: 7 }],
    ['raw', { raw: true }],
    ['raw, chunked', { raw: true, chunked: 5 }],
  ] as const)('%s', async (_name, options) => {
    const bytes = Buffer.from('hello, world\nsecond line\n')
    const upload = await admin.upload(bytes, { filename: 'notes.txt', ...options })
    expect(upload).toMatchObject({
      filename: 'notes.txt',
      content_type: 'text/plain',
      size_bytes: bytes.byteLength,
      sha256: sha256(bytes),
      width: null,
      height: null,
      purpose: 'attachment',
      status: 'pending',
      attached_to: null,
      created_by: acme.users.admin.user.id,
      created_at: new Date(app.clock.now()).toISOString(),
      expires_at: new Date(app.clock.now() + app.config.uploads.expiryMs).toISOString(),
    })
    expect(upload.id).toMatch(/^upl_[0-9A-Z]{26}$/)
    const content = await admin.content(upload.id)
    expect(Buffer.from(await content.arrayBuffer())).toEqual(bytes)
  })

  test('a file of several megabytes arrives whole (the multipart reader across many chunks)', async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(3 * 1024 * 1024 + 17))
    for (const options of [{ chunked: 65_536 }, { chunked: 1000 }, {}]) {
      const upload = await admin.upload(bytes, { filename: 'noise.bin', ...options })
      expect(upload).toMatchObject({ size_bytes: bytes.byteLength, sha256: sha256(bytes), content_type: 'application/octet-stream' })
      expect(sha256(new Uint8Array(await (await admin.content(upload.id)).arrayBuffer()))).toBe(sha256(bytes))
    }
  })

  test('a file whose bytes look like the boundary still arrives whole', async () => {
    const tricky = Buffer.from('--\r\n--not-the-boundary\r\n\r\n--')
    const upload = await admin.upload(tricky, { filename: 'tricky.bin', chunked: 3 })
    expect(Buffer.from(await (await admin.content(upload.id)).arrayBuffer())).toEqual(tricky)
  })
})

describe('the content type comes from the bytes', () => {
  test('a PNG named .txt and sent as text/plain is image/png, with its size', async () => {
    const upload = await admin.upload(pngOf(640, 480), { filename: 'not-a-picture.txt', type: 'text/plain' })
    expect(upload).toMatchObject({ content_type: 'image/png', width: 640, height: 480 })
    const raw = await admin.upload(PNG_1x1, { filename: 'x.txt', type: 'text/html', raw: true })
    expect(raw).toMatchObject({ content_type: 'image/png', width: 1, height: 1 })
  })

  test('text claimed to be an image is text; HTML is served as plain text', async () => {
    expect(await admin.upload(Buffer.from('just words'), { filename: 'photo.png', type: 'image/png' })).toMatchObject({
      content_type: 'text/plain',
      width: null,
    })
    const html = await admin.upload(Buffer.from('<html><script>alert(1)</script></html>'), { filename: 'page.html', type: 'text/html' })
    expect(html.content_type).toBe('text/plain')
  })

  test('UTF-8 text named .csv is text/csv; bytes that are not UTF-8 text are application/octet-stream', async () => {
    expect((await admin.upload(Buffer.from('name,email\nGrace,g@example.com\n'), { filename: 'people.csv' })).content_type).toBe('text/csv')
    expect((await admin.upload(Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x00]), { filename: 'a.csv' })).content_type).toBe(
      'application/octet-stream',
    )
    expect((await admin.upload(Buffer.from('bell\u0007'), { filename: 'a.txt' })).content_type).toBe('application/octet-stream')
  })

  test('audio is recognised', async () => {
    expect((await admin.upload(wavOf(), { filename: 'call.wav', purpose: 'recording' })).content_type).toBe('audio/wav')
  })
})

describe('the filename', () => {
  test.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\grace\\report.pdf', 'report.pdf'],
    ['evil\u202Etxt.exe', 'eviltxt.exe'],
    ['tab\there\r\n.txt', 'tabhere.txt'],
    ['  ..hidden.txt. ', 'hidden.txt'],
    ['/', 'file'],
    ['Résumé – März.txt', 'Résumé – März.txt'],
  ])('%j is kept as %j', async (given, kept) => {
    const upload = await admin.upload(Buffer.from('x'), { filename: given, raw: true })
    expect(upload.filename).toBe(kept)
  })

  test('a long name is cut to 255 bytes of UTF-8, its extension kept', async () => {
    const upload = await admin.upload(Buffer.from('x'), { filename: `${'ä'.repeat(300)}.txt`, raw: true })
    expect(Buffer.byteLength(upload.filename)).toBeLessThanOrEqual(255)
    expect(upload.filename.endsWith('ä.txt')).toBe(true)
  })

  test('a raw upload needs ?filename=; a multipart file part needs its filename', async () => {
    const response = await app.request('/api/v1/uploads', {
      method: 'POST',
      headers: { ...acme.users.admin.auth, 'content-type': 'application/octet-stream' },
      body: 'abc',
    })
    expect((await expectError(response, 400, 'VALIDATION_FAILED')).errors).toEqual([
      { field: 'filename', message: 'is required for a raw upload (?filename=)' },
    ])
    const boundary = 'b0undary'
    const noName = await app.request('/api/v1/uploads', {
      method: 'POST',
      headers: { ...acme.users.admin.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream\r\n\r\nabc\r\n--${boundary}--\r\n`,
    })
    expect((await expectError(noName, 400, 'VALIDATION_FAILED')).errors?.[0]?.field).toBe('file')
  })
})

describe('malformed bodies are 400 and store nothing', () => {
  const send = (body: string, boundary = 'XyZ') =>
    app.request('/api/v1/uploads', {
      method: 'POST',
      headers: { ...acme.users.admin.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    })
  test.each([
    ['no file part', '--XyZ\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nattachment\r\n--XyZ--\r\n', 'file'],
    ['cut off inside the file', '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc', 'body'],
    ['no opening boundary', 'hello', 'body'],
    [
      'a field after the file',
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc\r\n--XyZ\r\nContent-Disposition: form-data; name="purpose"\r\n\r\navatar\r\n--XyZ--\r\n',
      'body',
    ],
    [
      'two files',
      '--XyZ\r\nContent-Disposition: form-data; name="other"; filename="b.txt"\r\n\r\nb\r\n--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc\r\n--XyZ--\r\n',
      'other',
    ],
    ['an empty file', '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n\r\n--XyZ--\r\n', 'file'],
  ])('%s', async (_name, body, field) => {
    const before = await storedKeys(app)
    const error = await expectError(await send(body), 400, 'VALIDATION_FAILED')
    expect(error.errors?.[0]?.field).toBe(field)
    expect(await storedKeys(app)).toEqual(before)
  })

  test('multipart without a boundary', async () => {
    const response = await app.request('/api/v1/uploads', {
      method: 'POST',
      headers: { ...acme.users.admin.auth, 'content-type': 'multipart/form-data' },
      body: 'abc',
    })
    await expectError(response, 400, 'VALIDATION_FAILED')
  })
})

describe('purposes', () => {
  test('from the form, from the query, attachment by default; both must agree', async () => {
    expect((await admin.upload(PNG_1x1, { filename: 'a.png', purpose: 'avatar' })).purpose).toBe('avatar')
    expect((await admin.upload(PNG_1x1, { filename: 'a.png', purpose: 'avatar', purposeIn: 'query' })).purpose).toBe('avatar')
    expect((await admin.upload(PNG_1x1, { filename: 'a.png', purpose: 'avatar', raw: true })).purpose).toBe('avatar')
    expect((await admin.upload(PNG_1x1, { filename: 'a.png' })).purpose).toBe('attachment')
    const { path, init } = (await import('./uploads-api.ts')).uploadRequest(PNG_1x1, { filename: 'a.png', purpose: 'avatar' })
    const both = await app.request(`${path}?purpose=attachment`, {
      ...init,
      headers: { ...acme.users.admin.auth, ...(init.headers as Record<string, string>) },
    })
    expect((await expectError(both, 400, 'VALIDATION_FAILED')).errors?.[0]?.field).toBe('purpose')
    await expectError(await admin.post(PNG_1x1, { filename: 'a.png', purpose: 'wallpaper' }), 400, 'VALIDATION_FAILED')
    await expectError(await admin.post(PNG_1x1, { filename: 'a.png', purpose: 'wallpaper', raw: true }), 400, 'VALIDATION_FAILED')
  })

  const files: Record<string, Uint8Array> = {
    png: PNG_1x1,
    text: Buffer.from('hello'),
    wav: wavOf(),
    csv: Buffer.from('a,b\n1,2\n'),
    elf: ELF,
  }
  // [purpose, file, accepted]; every file claims to be audio/wav and is named .csv: neither counts.
  const cases: [string, string, boolean][] = [
    ['avatar', 'png', true],
    ['avatar', 'text', false],
    ['avatar', 'wav', false],
    ['recording', 'wav', true],
    ['recording', 'png', false],
    ['recording', 'text', false],
    ['import', 'csv', true],
    ['import', 'png', false],
    ['attachment', 'png', true],
    ['attachment', 'text', true],
    ['attachment', 'wav', true],
    ['attachment', 'elf', false],
  ]
  test.each(cases)('%s takes %s: %p', async (purpose, kind, accepted) => {
    const bytes = files[kind]!
    const before = await storedKeys(app)
    const response = await admin.post(bytes, { filename: 'file.csv', purpose, type: 'audio/wav' })
    if (accepted) {
      expect(response.status).toBe(201)
      return
    }
    const error = await expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE')
    expect(error.message).toContain(`a ${purpose} upload does not take`)
    // Nothing was stored, and no row is left.
    expect(await storedKeys(app)).toEqual(before)
  })

  test('a refused file of several megabytes is refused from its first bytes, nothing stored', async () => {
    const before = await storedKeys(app)
    const big = Buffer.concat([ELF, Buffer.alloc(2 * 1024 * 1024)])
    await expectError(await admin.post(big, { filename: 'tool', chunked: 65_536 }), 415, 'UNSUPPORTED_MEDIA_TYPE')
    expect(await storedKeys(app)).toEqual(before)
    const rows = await app.context.db.raw.get<{ n: number }>("SELECT count(*) AS n FROM uploads WHERE status = 'receiving'")
    expect(Number(rows!.n)).toBe(0)
  })
})

describe('reading and listing', () => {
  test('GET one; another organization’s is 404 as a missing one', async () => {
    const upload = await admin.upload(Buffer.from('mine'), { filename: 'mine.txt' })
    expect(await admin.get(upload.id)).toEqual(upload)
    const other = client(app, globex.users.admin.auth)
    for (const path of [`/api/v1/uploads/${upload.id}`, `/api/v1/uploads/${upload.id}/content`]) {
      expect((await expectError(await other.send('GET', path), 404, 'NOT_FOUND')).message).toBe('No such upload')
    }
    await expectError(await other.send('POST', `/api/v1/uploads/${upload.id}/url`), 404, 'NOT_FOUND')
    await expectError(await other.remove(upload.id), 404, 'NOT_FOUND')
    await expectError(await admin.send('GET', '/api/v1/uploads/upl_01KAX3M6W9P8T2V5G7H4J3C1QZ'), 404, 'NOT_FOUND')
  })

  test('the list: newest first, keyset pages, filters by status, purpose and creator', async () => {
    const { app: fresh, acme: org } = await uploadsApp()
    try {
      const agent = client(fresh, org.users.agent.auth)
      const mine = client(fresh, org.users.admin.auth)
      const made: Upload[] = []
      for (let i = 0; i < 5; i++) {
        made.push(await mine.upload(Buffer.from(`file ${i}`), { filename: `f${i}.txt` }))
        fresh.clock.advance(1000)
      }
      const avatar = await agent.upload(PNG_1x1, { filename: 'me.png', purpose: 'avatar' })
      expect((await mine.remove(made[0]!.id)).status).toBe(204)
      const page1 = await json<{ uploads: Upload[]; next_page_token: string }>(await mine.send('GET', '/api/v1/uploads?page_size=4'))
      expect(page1.uploads.map((u) => u.id)).toEqual([avatar.id, made[4]!.id, made[3]!.id, made[2]!.id])
      const page2 = await json<{ uploads: Upload[]; next_page_token: string }>(
        await mine.send('GET', `/api/v1/uploads?page_size=4&page_token=${page1.next_page_token}`),
      )
      expect(page2).toEqual({ uploads: [made[1]!, { ...made[0]!, status: 'deleted' }], next_page_token: '' })
      const list = async (query: string) =>
        await json<{ uploads: Upload[]; total_count: number }>(await mine.send('GET', `/api/v1/uploads?include_total=true&${query}`))
      expect((await list('status=deleted')).uploads.map((u) => u.id)).toEqual([made[0]!.id])
      expect((await list('purpose=avatar')).uploads.map((u) => u.id)).toEqual([avatar.id])
      expect((await list(`created_by=${org.users.agent.user.id}`)).total_count).toBe(1)
      expect((await list('status=pending')).total_count).toBe(5)
      expect((await list('sort=size_bytes:asc&purpose=attachment')).uploads.map((u) => u.size_bytes)).toEqual([6, 6, 6, 6, 6])
      await expectError(await mine.send('GET', '/api/v1/uploads?status=receiving'), 400, 'VALIDATION_FAILED')
    } finally {
      await fresh.close()
    }
  })
})

describe('permissions', () => {
  test('a viewer reads but cannot upload or delete; an agent uploads but cannot delete', async () => {
    const upload = await admin.upload(Buffer.from('x'), { filename: 'x.txt' })
    const viewer = client(app, acme.users.viewer.auth)
    await expectError(await viewer.post(Buffer.from('x'), { filename: 'x.txt' }), 403, 'INSUFFICIENT_PERMISSIONS')
    expect((await viewer.content(upload.id)).status).toBe(200)
    await expectError(await viewer.remove(upload.id), 403, 'INSUFFICIENT_PERMISSIONS')
    const agent = client(app, acme.users.agent.auth)
    expect((await agent.post(Buffer.from('x'), { filename: 'x.txt' })).status).toBe(201)
    await expectError(await agent.remove(upload.id), 403, 'INSUFFICIENT_PERMISSIONS')
  })

  test('without a credential: 401, before the body is read', async () => {
    const response = await app.request('/api/v1/uploads?filename=a.txt', {
      method: 'POST',
      body: 'abc',
      headers: { 'content-type': 'text/plain' },
    })
    await expectError(response, 401, 'UNAUTHENTICATED')
  })

  test('the upload and its deletion are in the audit log', async () => {
    const upload = await admin.upload(Buffer.from('audited'), { filename: 'a.txt' })
    expect((await admin.remove(upload.id)).status).toBe(204)
    const logs = await json<{ audit_logs: { event: string; target: { id: string } | null; details: Record<string, unknown> }[] }>(
      await admin.send('GET', '/api/v1/audit-logs?page_size=5'),
    )
    const mine = logs.audit_logs.filter((l) => l.target?.id === upload.id)
    expect(mine.map((l) => l.event)).toEqual(['upload.deleted', 'upload.created'])
    expect(mine[1]!.details).toMatchObject({ filename: 'a.txt', purpose: 'attachment', content_type: 'text/plain', size_bytes: 7 })
  })
})

describe('Idempotency-Key', () => {
  test('the same file again replays the first upload, keeping no second copy; another file with the key is 409', async () => {
    const headers = { 'idempotency-key': crypto.randomUUID() }
    const first = await admin.upload(Buffer.from('exactly once'), { filename: 'once.txt', headers })
    const keys = await storedKeys(app)
    const again = await admin.post(Buffer.from('exactly once'), { filename: 'once.txt', headers, chunked: 3 })
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
    expect(await again.json()).toEqual(first)
    expect(await storedKeys(app)).toEqual(keys)
    const other = await admin.post(Buffer.from('another file'), { filename: 'once.txt', headers })
    await expectError(other, 409, 'IDEMPOTENCY_KEY_REUSED')
    expect(await storedKeys(app)).toEqual(keys)
  })
})
