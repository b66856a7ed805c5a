// The compiled executable, alone in an empty folder: it migrates, serves /health and /openapi.json,
// answers errors in our shape, and exits 0 on SIGTERM. Built by the same function as `bun run build`.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildBinary } from '../../scripts/build.ts'
import { MIGRATIONS } from '../../src/db/migrations.gen.ts'
import { VERSION } from '../../src/version.ts'
import { tempDir } from '../helpers/app.ts'
import { run, startServer } from '../helpers/process.ts'

const folder = tempDir('switchboard-binary-')
const binary = join(folder, 'switchboard')
afterAll(() => rmSync(folder, { recursive: true, force: true }))
beforeAll(() => buildBinary(binary), 120_000)

describe('dist/switchboard copied alone to a folder', () => {
  test('is one file', () => {
    expect(readdirSync(folder)).toEqual(['switchboard'])
  })

  test('version, usage and exit codes', async () => {
    expect(await run([binary, 'version'], {}, folder)).toEqual({ code: 0, stdout: `switchboard ${VERSION} (bun ${Bun.version})\n`, stderr: '' })
    expect((await run([binary, '--help'], {}, folder)).stdout).toStartWith('Usage: switchboard')
    expect((await run([binary, 'nonsense'], {}, folder)).code).toBe(2)
    expect((await run([binary], { PORT: 'x' }, folder)).code).toBe(2)
  })

  test('migrate applies the embedded migrations into ./data', async () => {
    const cwd = join(folder, 'migrate-here')
    mkdirSync(cwd)
    const result = await run([binary, 'migrate'], {}, cwd)
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ database: join(cwd, 'data/switchboard.db'), applied: MIGRATIONS.map((m) => m.tag) })
  })

  test('serves /health, /ready, /openapi.json and /docs, renders errors, and stops on SIGTERM with 0', async () => {
    const server = await startServer([binary], {}, folder)
    try {
      const health = (await (await fetch(`${server.url}/health`)).json()) as Record<string, unknown>
      expect(health).toMatchObject({ status: 'ok', version: VERSION })
      expect(Object.keys(health.cron as object)).toEqual(['db_maintenance', 'auth_cleanup', 'ticket_auto_close', 'rate_limit_save', 'webhook_dispatch', 'webhook_prune'])
      expect((await fetch(`${server.url}/ready`)).status).toBe(200)

      const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> }
      expect(doc.openapi).toStartWith('3.1')
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/ready', '/.well-known/jwks.json', '/api/v1/auth/login', '/api/v1/me']))
      expect((await fetch(`${server.url}/docs`)).headers.get('content-type')).toStartWith('text/html')

      const missing = await fetch(`${server.url}/nope`, { headers: { 'x-request-id': 'from-test' } })
      expect(missing.status).toBe(404)
      expect(await missing.json()).toEqual({ code: 'NOT_FOUND', message: 'No route matches this path', request_id: 'from-test' })
      // Rate limits are on by default: an unauthenticated request counts against its address; probes never count.
      // (/openapi.json, /docs and this one counted: 57 left, or 58 if a minute boundary fell between them.)
      expect(missing.headers.get('x-ratelimit-limit')).toBe('60')
      expect(Number(missing.headers.get('x-ratelimit-remaining'))).toBeWithin(57, 59)
      expect((await fetch(`${server.url}/health`)).headers.get('x-ratelimit-limit')).toBeNull()
      const wrong = await fetch(`${server.url}/health`, { method: 'PUT' })
      expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, HEAD'])

      expect((await run([binary, 'healthcheck'], { PORT: new URL(server.url).port }, folder)).code).toBe(0)
    } finally {
      const finished = await server.stop('SIGTERM')
      expect(finished.code).toBe(0)
      expect(finished.stdout).toContain('"msg":"stopped"')
    }
    expect(existsSync(join(folder, 'data/switchboard.db'))).toBe(true)
  }, 60_000)

  test('backup from the binary copies its database', async () => {
    const result = await run([binary, 'backup', 'copy.db'], {}, folder)
    expect(result.code).toBe(0)
    expect(existsSync(join(folder, 'copy.db'))).toBe(true)
  })
})
