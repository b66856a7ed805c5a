// CI smoke test of the compiled binary: start it on a free loopback port with an empty DATA_DIR,
// wait for /health, check /ready, /openapi.json, an error body, and an authenticated call as the
// first-start Super Admin; send SIGTERM, expect exit 0.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const binary = resolve(process.argv[2] ?? 'dist/switchboard')
const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-smoke-'))
const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
const port = probe.port
probe.stop(true)
const base = `http://127.0.0.1:${port}`

const admin = { email: 'smoke@ci.example', password: `smoke-${crypto.randomUUID()}` }
const child = Bun.spawn([binary, 'serve'], {
  env: {
    PATH: process.env.PATH ?? '',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  },
  stdout: 'pipe',
  stderr: 'pipe',
})
const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()])

function check(name: string, ok: boolean, detail = ''): void {
  process.stdout.write(`  ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}\n`)
  if (!ok) failed++
}
let failed = 0

try {
  const deadline = Date.now() + 20_000
  let up = false
  while (!up && Date.now() < deadline && child.exitCode === null) {
    up = await fetch(`${base}/health`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (!up) await Bun.sleep(100)
  }
  check('GET /health answers 200', up)
  if (up) {
    const health = (await (await fetch(`${base}/health`)).json()) as { status: string; version: string }
    check(
      '/health reports status and version',
      health.status === 'ok' && typeof health.version === 'string',
      JSON.stringify(health).slice(0, 120),
    )
    check('GET /ready answers 200', (await fetch(`${base}/ready`)).status === 200)
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> }
    check('GET /openapi.json is OpenAPI 3.1 listing /health', doc.openapi.startsWith('3.1') && '/health' in doc.paths)
    const missing = await fetch(`${base}/no-such-route`)
    const body = (await missing.json()) as { code: string; request_id: string }
    check(
      'unknown route: 404 NOT_FOUND with request_id',
      missing.status === 404 && body.code === 'NOT_FOUND' && body.request_id === missing.headers.get('x-request-id'),
    )
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    })
    check('POST /api/v1/auth/login as the first-start Super Admin: 200', login.status === 200, `status ${login.status}`)
    if (login.status === 200) {
      const { access_token } = (await login.json()) as { access_token: string }
      const me = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${access_token}` } })
      const user = (await me.json()) as { email?: string; role?: string }
      check(
        'GET /api/v1/me with the access token: 200, the Super Admin',
        me.status === 200 && user.email === admin.email && user.role === 'super_admin',
        `status ${me.status}`,
      )
      check('GET /api/v1/me without it: 401', (await fetch(`${base}/api/v1/me`)).status === 401)
    }
  }
} finally {
  child.kill('SIGTERM')
  const code = await child.exited
  check('SIGTERM: exit code 0', code === 0, `exit ${code}`)
  const [stdout, stderr] = await output
  if (failed > 0) process.stdout.write(`--- server stdout ---\n${stdout}--- server stderr ---\n${stderr}`)
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit(failed === 0 ? 0 : 1)
