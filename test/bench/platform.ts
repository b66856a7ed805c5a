// Platform overhead: GET /health through the compiled binary (request id, routing, cron status,
// JSON, access log to stdout) and an authenticated GET /api/v1/me (JWT verification, revocation
// check, user lookup, rate limits) against a bare Bun.serve returning the same bytes, in one run.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildBinary } from '../../scripts/build.ts'
import { tempDir } from '../helpers/app.ts'
import { freePort } from '../helpers/process.ts'
import { compare, printTable, waitFor, type LoadResult } from './load.ts'

export async function benchPlatform(): Promise<{ rows: LoadResult[]; ratio: number }> {
  const dir = tempDir('switchboard-bench-')
  try {
    const binary = join(dir, 'switchboard')
    await buildBinary(binary)
    const appPort = freePort()
    // Logs go to a file, as under a process manager (draining a pipe here would slow the load generator); LOG_LEVEL stays at info.
    const admin = { email: 'bench@bench.example', password: 'bench-password-123' }
    const app = Bun.spawn([binary, 'serve'], {
      env: {
        DATA_DIR: join(dir, 'data'),
        HOST: '127.0.0.1',
        PORT: String(appPort),
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
      },
      stdout: Bun.file(join(dir, 'server.log')),
      stderr: 'inherit',
    })
    const appUrl = `http://127.0.0.1:${appPort}/health`
    await waitFor(appUrl)
    const body = await (await fetch(appUrl)).text()

    const barePort = freePort()
    const bare = Bun.spawn([process.execPath, join(import.meta.dir, 'bare-server.ts')], {
      env: { PORT: String(barePort), BODY: body },
      stdout: 'inherit',
      stderr: 'inherit',
    })
    const bareUrl = `http://127.0.0.1:${barePort}/health`
    await waitFor(bareUrl)

    const login = await fetch(`http://127.0.0.1:${appPort}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    })
    const { access_token } = (await login.json()) as { access_token: string }
    const meUrl = `http://127.0.0.1:${appPort}/api/v1/me`
    const authorization = { authorization: `Bearer ${access_token}` }
    // Limits on, as shipped, but raised so that nothing is refused (the first organization is on Free: 60 a minute).
    const { organization_id } = (await (await fetch(meUrl, { headers: authorization })).json()) as { organization_id: string }
    const raised = Bun.spawnSync([binary, 'org', 'set-limits', organization_id, '--per-minute', '1000000', '--per-day', '100000000'], {
      env: { DATA_DIR: join(dir, 'data') },
      stdout: 'ignore',
      stderr: 'inherit',
    })
    if (raised.exitCode !== 0) throw new Error('org set-limits failed')
    if ((await fetch(meUrl, { headers: authorization })).headers.get('x-ratelimit-limit') !== '1000000')
      throw new Error('the raised limits are not in force')
    const rows = await compare([
      { label: 'A  GET /health, compiled binary', url: appUrl },
      { label: 'M  GET /api/v1/me, Bearer JWT', url: meUrl, headers: authorization },
      { label: 'D  bare Bun.serve, /health body', url: bareUrl },
    ])
    app.kill('SIGTERM')
    bare.kill('SIGTERM')
    await Promise.all([app.exited, bare.exited])
    return { rows, ratio: rows[0]!.rps / rows[2]!.rps }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const { rows, ratio } = await benchPlatform()
  printTable(rows)
  process.stdout.write(`  A/D = ${ratio.toFixed(2)}\n`)
}
