// Platform overhead: GET /health through the compiled binary (request id, routing, cron status,
// JSON, access log to stdout) and an authenticated GET /api/v1/me (JWT verification, revocation
// check, user lookup) against a bare Bun.serve returning the same bytes, in one run.
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
      env: { DATA_DIR: join(dir, 'data'), HOST: '127.0.0.1', PORT: String(appPort), ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
      stdout: Bun.file(join(dir, 'server.log')),
      stderr: 'inherit',
    })
    const appUrl = `http://127.0.0.1:${appPort}/health`
    await waitFor(appUrl)
    const body = await (await fetch(appUrl)).text()

    const barePort = freePort()
    const bare = Bun.spawn([process.execPath, join(import.meta.dir, 'bare-server.ts')], { env: { PORT: String(barePort), BODY: body }, stdout: 'inherit', stderr: 'inherit' })
    const bareUrl = `http://127.0.0.1:${barePort}/health`
    await waitFor(bareUrl)

    const login = await fetch(`http://127.0.0.1:${appPort}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) })
    const { access_token } = (await login.json()) as { access_token: string }
    const rows = await compare([
      { label: 'A  GET /health, compiled binary', url: appUrl },
      { label: 'M  GET /api/v1/me, Bearer JWT', url: `http://127.0.0.1:${appPort}/api/v1/me`, headers: { authorization: `Bearer ${access_token}` } },
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
