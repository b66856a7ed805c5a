// The streaming multipart reader (src/modules/uploads/multipart.ts) on its own: whatever the chunking of
// the body (one byte at a time, random cuts, cuts inside the boundary), and whatever near-boundaries the
// file holds, the file comes out byte for byte; fields before it are read; malformed bodies are 400.
import { describe, expect, test } from 'bun:test'
import { readMultipartUpload } from '../../../src/modules/uploads/multipart.ts'

const BOUNDARY = '----WebKitFormBoundary7MA4YWxkTrZu0gW'
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`

function bodyOf(file: Uint8Array, fields: Record<string, string> = {}): Buffer {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  )
  return Buffer.concat([
    Buffer.from(
      `${parts.join('')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

async function* cut(body: Uint8Array, sizes: () => number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < body.byteLength; ) {
    const size = Math.max(1, sizes())
    yield body.slice(at, at + size)
    at += size
  }
}

async function read(body: Uint8Array, sizes: () => number) {
  const upload = await readMultipartUpload(cut(body, sizes), CONTENT_TYPE)
  const chunks: Uint8Array[] = []
  for await (const chunk of upload.chunks) chunks.push(Buffer.from(chunk))
  return { fields: Object.fromEntries(upload.fields), filename: upload.filename, file: Buffer.concat(chunks) }
}

// Near-misses of the delimiter, a delimiter of another boundary, CRLFs and dashes, around random bytes.
const tricky = Buffer.concat([
  Buffer.from(`\r\n--${BOUNDARY.slice(0, -1)}X\r\n--${BOUNDARY.slice(0, 10)}\r\n\r\n--\r\n-`),
  crypto.getRandomValues(new Uint8Array(5000)),
  Buffer.from(`\r\n--${BOUNDARY.slice(0, -2)}`),
])

describe('whatever the chunking, the file arrives byte for byte', () => {
  const seeds = Array.from({ length: 30 }, (_, i) => i)
  test.each(seeds)('random cuts #%i', async (seed) => {
    let state = seed + 1
    const random = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31
      return state
    }
    const max = [1, 3, 40, 41, 42, 43, 100, 1000, 70_000][seed % 9]!
    const got = await read(bodyOf(tricky, { purpose: 'attachment' }), () => (random() % max) + 1)
    expect(got.fields).toEqual({ purpose: 'attachment' })
    expect(got.filename).toBe('f.bin')
    expect(got.file.equals(tricky)).toBe(true)
  })

  test('one byte at a time, an empty file, a file that is only CRLF', async () => {
    for (const file of [tricky, Buffer.alloc(0), Buffer.from('\r\n'), Buffer.from('\r\n--')]) {
      expect((await read(bodyOf(file), () => 1)).file.equals(file)).toBe(true)
      expect((await read(bodyOf(file), () => 1 << 20)).file.equals(file)).toBe(true)
    }
  })
})

describe('malformed', () => {
  test.each([
    ['no boundary in the type', 'multipart/form-data', bodyOf(Buffer.from('x'))],
    ['cut inside the file', CONTENT_TYPE, bodyOf(Buffer.from('abc')).subarray(0, -10)],
    ['headers too long', CONTENT_TYPE, Buffer.from(`--${BOUNDARY}\r\nX-Long: ${'a'.repeat(9000)}\r\n\r\nx\r\n--${BOUNDARY}--`)],
    ['a field too long', CONTENT_TYPE, bodyOf(Buffer.from('x'), { purpose: 'a'.repeat(2000) })],
    [
      'a field not UTF-8',
      CONTENT_TYPE,
      Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n`),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
    ],
  ])('%s: 400', async (_name, contentType, body) => {
    const error = await (async () => {
      const upload = await readMultipartUpload(
        cut(body, () => 64),
        contentType,
      )
      for await (const _ of upload.chunks) {
      }
    })().catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED' })
  })
})
