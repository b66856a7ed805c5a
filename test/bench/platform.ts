// Platform overhead: GET /health through the compiled binary (request id, routing, cron status,
// JSON, access log to stdout) against a bare Bun.serve returning the same bytes, in one run.
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
    // Logs go to a pipe that is read and discarded, as by a log collector; LOG_LEVEL stays at info.
    const app = Bun.spawn([binary, 'serve'], { env: { DATA_DIR: join(dir, 'data'), HOST: '127.0.0.1', PORT: String(appPort) }, stdout: 'pipe', stderr: 'inherit' })
    void (async () => {
      for await (const _ of app.stdout);
    })()
    const appUrl = `http://127.0.0.1:${appPort}/health`
    await waitFor(appUrl)
    const body = await (await fetch(appUrl)).text()

    const barePort = freePort()
    const bare = Bun.spawn([process.execPath, join(import.meta.dir, 'bare-server.ts')], { env: { PORT: String(barePort), BODY: body }, stdout: 'inherit', stderr: 'inherit' })
    const bareUrl = `http://127.0.0.1:${barePort}/health`
    await waitFor(bareUrl)

    const rows = await compare([
      { label: 'A  GET /health, compiled binary', url: appUrl },
      { label: 'D  bare Bun.serve, same body', url: bareUrl },
    ])
    app.kill('SIGTERM')
    bare.kill('SIGTERM')
    await Promise.all([app.exited, bare.exited])
    return { rows, ratio: rows[0]!.rps / rows[1]!.rps }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const { rows, ratio } = await benchPlatform()
  printTable(rows)
  process.stdout.write(`  A/D = ${ratio.toFixed(2)}\n`)
}
