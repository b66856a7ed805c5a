// Issue 17: a 200 MiB file streamed to the compiled binary (multipart, chunked) and downloaded back, with
// the server's resident memory sampled from /proc/<pid>/status while it does: the upload and the download
// must stay under idle + 100 MiB (the file is never held whole). Storage is the local disk on the SQLite
// run and S3 (s3rver) on the PostgreSQL run, where engineEnv gives the binary S3 settings. Prints the figures.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { tempDirs } from '../helpers/app.ts'
import { compiledBinary } from '../helpers/binary.ts'
import { startServer, type RunningServer } from '../helpers/process.ts'

const MiB = 1024 * 1024
const FILE_BYTES = 200 * MiB
const CHUNK_BYTES = 256 * 1024
const BOUND_BYTES = 100 * MiB
const env = { ADMIN_EMAIL: 'admin@uploads-memory.test', ADMIN_PASSWORD: 'uploads-memory-password', UPLOAD_MAX_BYTES: String(256 * MiB) }

const dataDir = tempDirs()
let server: RunningServer
let token: string
beforeAll(async () => {
  const binary = await compiledBinary()
  server = await startServer([binary], { DATA_DIR: dataDir(), ...env })
  const login = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
  })
  token = ((await login.json()) as { access_token: string }).access_token
}, 180_000)
afterAll(() => server?.stop())

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm'))![1]) * 1024
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') }
}

/** Samples the server's RSS every 20 ms while `work` runs; the peak seen. */
async function peakWhile<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  const pid = server.child.pid
  let peak = memory(pid).rss
  const timer = setInterval(() => {
    peak = Math.max(peak, memory(pid).rss)
  }, 20)
  try {
    const result = await work()
    return { result, peak: Math.max(peak, memory(pid).rss) }
  } finally {
    clearInterval(timer)
  }
}

/** The file, made as it is sent: each chunk differs (a counter in its first bytes), hashed on the way. */
function fileStream(hasher: Bun.CryptoHasher, boundary: string): ReadableStream<Uint8Array> {
  const block = crypto.getRandomValues(new Uint8Array(CHUNK_BYTES))
  let sent = 0
  let stage: 'head' | 'body' | 'done' = 'head'
  return new ReadableStream({
    pull(controller) {
      if (stage === 'head') {
        stage = 'body'
        controller.enqueue(
          new TextEncoder().encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nattachment\r\n` +
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
          ),
        )
        return
      }
      if (stage === 'done') return controller.close()
      if (sent === FILE_BYTES) {
        stage = 'done'
        controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`))
        return
      }
      const chunk = new Uint8Array(block)
      new DataView(chunk.buffer).setUint32(0, sent / CHUNK_BYTES)
      hasher.update(chunk)
      sent += chunk.byteLength
      controller.enqueue(chunk)
    },
  })
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`

test('a 200 MiB upload and its download stay under idle + 100 MiB of resident memory', async () => {
  const auth = { authorization: `Bearer ${token}` }
  // Warm: the upload and download code paths loaded once, so idle includes them.
  const warm = await fetch(`${server.url}/api/v1/uploads?filename=warm.txt`, { method: 'POST', headers: auth, body: 'warm' })
  expect(warm.status).toBe(201)
  const warmId = ((await warm.json()) as { id: string }).id
  await (await fetch(`${server.url}/api/v1/uploads/${warmId}/content`, { headers: auth })).text()
  await Bun.sleep(500)
  const idle = memory(server.child.pid)

  const hasher = new Bun.CryptoHasher('sha256')
  const boundary = 'memoryTestBoundary7d3f'
  const started = performance.now()
  const upload = await peakWhile(async () => {
    const response = await fetch(`${server.url}/api/v1/uploads`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: fileStream(hasher, boundary),
    })
    return { status: response.status, body: (await response.json()) as { id: string; size_bytes: number; sha256: string } }
  })
  const uploadMs = performance.now() - started
  expect(upload.result.status).toBe(201)
  const sha256 = hasher.digest('hex')
  expect(upload.result.body).toMatchObject({ size_bytes: FILE_BYTES, sha256 })

  const downloadStarted = performance.now()
  const download = await peakWhile(async () => {
    const response = await fetch(`${server.url}/api/v1/uploads/${upload.result.body.id}/content`, { headers: auth })
    const check = new Bun.CryptoHasher('sha256')
    let bytes = 0
    for await (const chunk of response.body!) {
      check.update(chunk)
      bytes += chunk.byteLength
    }
    return { status: response.status, bytes, sha256: check.digest('hex') }
  })
  const downloadMs = performance.now() - downloadStarted
  expect(download.result).toEqual({ status: 200, bytes: FILE_BYTES, sha256 })
  const after = memory(server.child.pid)

  const storage = process.env.SWITCHBOARD_TEST_ENGINE === 'postgres' ? 'S3 (s3rver)' : 'local disk'
  console.log(
    `uploads memory (${storage}): idle RSS ${mib(idle.rss)}; upload of ${mib(FILE_BYTES)} peak RSS ${mib(upload.peak)} ` +
      `(+${mib(upload.peak - idle.rss)}) in ${(uploadMs / 1000).toFixed(1)} s (${mib((FILE_BYTES / uploadMs) * 1000)}/s); ` +
      `download peak RSS ${mib(download.peak)} (+${mib(download.peak - idle.rss)}) in ${(downloadMs / 1000).toFixed(1)} s; ` +
      `VmHWM ${mib(after.hwm)} (idle ${mib(idle.hwm)})`,
  )
  expect(upload.peak - idle.rss).toBeLessThan(BOUND_BYTES)
  expect(download.peak - idle.rss).toBeLessThan(BOUND_BYTES)
  expect(after.hwm - idle.rss).toBeLessThan(BOUND_BYTES)

  const removed = await fetch(`${server.url}/api/v1/uploads/${upload.result.body.id}`, { method: 'DELETE', headers: auth })
  expect(removed.status).toBe(204)
}, 300_000)
