// Operations on the compiled binary and the real clock: quiet cron logs when idle, the healthcheck
// finding a server started with --port, one server per DATA_DIR (and none blocked by a crashed one),
// private files in DATA_DIR, --version and per-command --help; and the Dockerfile's labels.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { compiledBinary } from '../helpers/binary.ts'
import { tempDir } from '../helpers/app.ts'
import { withDataDirDb } from '../helpers/data-dir-db.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { freePort, ROOT, run, startServer, type Finished, type RunningServer } from '../helpers/process.ts'
import { CA_FILE, startReceiver } from '../helpers/receiver.ts'

const folder = tempDir('switchboard-ops-')
afterAll(() => rmSync(folder, { recursive: true, force: true }))
let binary: string
beforeAll(async () => {
  binary = await compiledBinary()
}, 120_000)

let dirs = 0
function dataDir(): string {
  return join(folder, `data-${++dirs}`)
}

function logLines(output: Finished): Record<string, unknown>[] {
  return output.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

/** `serve --port <port>` with PORT saying something else (or nothing): waits on the flag's port. */
function serveWithPortFlag(env: Record<string, string>): Promise<RunningServer> {
  const port = freePort()
  return startServer([binary, 'serve', '--port', String(port)], env, folder, 15_000, port)
}

describe('cron log lines (LOG_LEVEL=info)', () => {
  test('an idle server writes no cron line for ~3 s, though its tasks run; a run that claims a retry writes one at info', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }))
    const env = {
      DATA_DIR: dataDir(),
      LOG_LEVEL: 'info',
      ADMIN_EMAIL: 'admin@ops.test',
      ADMIN_PASSWORD: 'ops-test-password',
      NODE_EXTRA_CA_CERTS: CA_FILE,
      WEBHOOK_RETRY_SCHEDULE: '0,1',
    }
    try {
      const idle = await startServer([binary], env, folder)
      await Bun.sleep(3200)
      const health = (await (await fetch(`${idle.url}/health`)).json()) as { cron: Record<string, { runs: number }> }
      const stopped = await idle.stop()
      expect(stopped.code).toBe(0)
      // The task ran every second, and /health says so...
      expect(health.cron.webhook_dispatch!.runs).toBeGreaterThanOrEqual(2)
      // ...but the log did not.
      expect(logLines(stopped).filter((l) => l.msg === 'cron')).toEqual([])

      // The receiver is on loopback: the operator lets this organization's webhooks reach it.
      const organizationId = (await withDataDirDb(env.DATA_DIR, (db) => db.get<{ id: string }>('SELECT id FROM organizations'), {
        readonly: true,
      }))!.id
      expect(
        (await run([binary, 'org', 'webhook-cidrs', organizationId, '--set', '127.0.0.0/8'], { DATA_DIR: env.DATA_DIR }, folder)).code,
      ).toBe(0)

      const busy = await startServer([binary], env, folder)
      let output: Finished
      try {
        const login = await fetch(`${busy.url}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
        })
        const auth = {
          authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
          'content-type': 'application/json',
        }
        const hook = await fetch(`${busy.url}/api/v1/webhooks`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ url: receiver.url(), events: ['ticket.created'], secret: 'ops-test-secret-0016' }),
        })
        expect(hook.status).toBe(201)
        expect(
          (await fetch(`${busy.url}/api/v1/tickets`, { method: 'POST', headers: auth, body: JSON.stringify({ subject: 'Noisy' }) })).status,
        ).toBe(201)
        // Attempt 1 goes at once (not through the cron loop); attempt 2, a second later, is the cron task's work.
        for (const deadline = Date.now() + 10_000; receiver.received.filter((r) => r.answered).length < 2 && Date.now() < deadline; )
          await Bun.sleep(50)
        expect(receiver.received.filter((r) => r.answered).length).toBe(2)
      } finally {
        output = await busy.stop()
      }
      const cron = logLines(output).filter((l) => l.msg === 'cron')
      expect(cron.length).toBeGreaterThanOrEqual(1)
      expect(cron.every((l) => l.level === 'info' && (l.claimed as number) > 0)).toBe(true)
      expect(cron.some((l) => l.task === 'webhook_dispatch' && l.claimed === 1)).toBe(true)
    } finally {
      receiver.stop()
    }
  }, 60_000)
})

describe('healthcheck', () => {
  test('finds a server started with --port although PORT says otherwise, with only DATA_DIR; exits 1 once it has stopped', async () => {
    const data = dataDir()
    const otherPort = String(freePort())
    const server = await serveWithPortFlag({ DATA_DIR: data, PORT: otherPort })
    try {
      const file = join(data, 'serve.json')
      expect(statSync(file).mode & 0o777).toBe(0o600)
      expect(await Bun.file(file).json()).toMatchObject({
        pid: server.child.pid,
        host: '127.0.0.1',
        port: Number(new URL(server.url).port),
      })
      // The container's case: the image's environment (PORT=8080 there) and DATA_DIR, not serve's flags.
      expect(await run([binary, 'healthcheck'], { DATA_DIR: data, PORT: otherPort }, folder)).toMatchObject({ code: 0, stderr: '' })
      expect((await run([binary, 'healthcheck'], { DATA_DIR: data }, folder)).code).toBe(0)
    } finally {
      expect((await server.stop()).code).toBe(0)
    }
    expect(existsSync(join(data, 'serve.json'))).toBe(false)
    // No server: serve.json is gone, so it falls back to HOST:PORT, where nothing answers either.
    const down = await run([binary, 'healthcheck'], { DATA_DIR: data, PORT: otherPort }, folder)
    expect(down.code).toBe(1)
    expect(down.stderr).toStartWith(`switchboard: healthcheck: http://127.0.0.1:${otherPort}/health:`)
  }, 60_000)

  test('a serve.json left by a crashed server does not send it to a dead port: it falls back to HOST:PORT', async () => {
    const data = dataDir()
    const crashed = await serveWithPortFlag({ DATA_DIR: data })
    await crashed.stop('SIGKILL')
    expect(existsSync(join(data, 'serve.json'))).toBe(true)
    const server = await startServer([binary], { DATA_DIR: join(folder, 'elsewhere') }, folder)
    try {
      expect((await run([binary, 'healthcheck'], { DATA_DIR: data, HOST: '127.0.0.1', PORT: new URL(server.url).port }, folder)).code).toBe(
        0,
      )
    } finally {
      await server.stop()
    }
  }, 60_000)
})

describe('one server per DATA_DIR', () => {
  test('a second serve on the same DATA_DIR exits 1 with a clear message; after a SIGKILL of the first, a new one starts', async () => {
    const env = { DATA_DIR: dataDir() }
    const first = await startServer([binary], env, folder)
    let restarted: RunningServer | undefined
    try {
      const second = await run([binary, 'serve'], { ...env, HOST: '127.0.0.1', PORT: String(freePort()) }, folder)
      expect(second.code).toBe(1)
      expect(second.stderr).toBe(
        `switchboard: another switchboard server is already running on DATA_DIR ${env.DATA_DIR} (pid ${first.child.pid}, listening on 127.0.0.1:${new URL(first.url).port}); stop it first, or give this one its own DATA_DIR\n`,
      )
      // The first one never noticed.
      expect((await fetch(`${first.url}/health`)).status).toBe(200)

      // A crash leaves no lock behind: the kernel drops it with the process.
      expect((await first.stop('SIGKILL')).code).not.toBe(0)
      restarted = await startServer([binary], env, folder)
      expect((await fetch(`${restarted.url}/health`)).status).toBe(200)
    } finally {
      if (first.child.exitCode === null) await first.stop()
      if (restarted) expect((await restarted.stop()).code).toBe(0)
    }
  }, 60_000)
})

describe('files in DATA_DIR', () => {
  // On PostgreSQL the database's files are the database server's: DATA_DIR holds the rest, and no SQLite file.
  const databaseFiles = TEST_ENGINE === 'sqlite' ? ['switchboard.db', 'switchboard.db-wal', 'switchboard.db-shm'] : []

  test('the database, its -wal and -shm, the master key, the lock and serve.json are 0600', async () => {
    const data = dataDir()
    const server = await startServer([binary], { DATA_DIR: data }, folder)
    try {
      if (TEST_ENGINE === 'postgres') expect(existsSync(join(data, 'switchboard.db'))).toBe(false)
      for (const name of [...databaseFiles, 'master.key', 'serve.lock', 'serve.json']) {
        expect([name, statSync(join(data, name)).mode & 0o777]).toEqual([name, 0o600])
      }
      expect(statSync(data).mode & 0o777).toBe(0o700)
    } finally {
      await server.stop()
    }
  }, 60_000)

  test('a group- or world-readable DATA_DIR gets a warning at start; database files an older version made 0644 become 0600', async () => {
    const data = dataDir()
    mkdirSync(data, { mode: 0o700 })
    const first = await startServer([binary], { DATA_DIR: data }, folder)
    const quiet = await first.stop()
    expect(logLines(quiet).filter((l) => l.level === 'warn' && String(l.msg).includes('DATA_DIR'))).toEqual([])

    chmodSync(data, 0o755)
    // An older version's 0644 database file (SQLite only: none is in DATA_DIR on PostgreSQL).
    const databaseFile = databaseFiles[0]
    if (databaseFile) chmodSync(join(data, databaseFile), 0o644)
    const second = await startServer([binary], { DATA_DIR: data }, folder)
    try {
      if (databaseFile) expect(statSync(join(data, databaseFile)).mode & 0o777).toBe(0o600)
    } finally {
      const output = await second.stop()
      expect(logLines(output).find((l) => String(l.msg).includes('DATA_DIR'))).toMatchObject({
        level: 'warn',
        msg: 'DATA_DIR is accessible to other users; it holds the database and the master key: chmod 700 it',
        data_dir: data,
        mode: '0755',
      })
    }
  }, 60_000)
})

describe('the command line of the binary', () => {
  test("--version prints what version prints; <command> --help prints that command's usage and exits 0", async () => {
    const version = await run([binary, 'version'], {}, folder)
    expect(await run([binary, '--version'], {}, folder)).toEqual(version)
    const help = await run([binary, 'healthcheck', '--help'], {}, folder)
    expect(help.code).toBe(0)
    expect(help.stdout).toStartWith('Usage: switchboard healthcheck [options]\n')
  })
})

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')

  test("carries the OCI labels, its version defaulting to package.json's", async () => {
    const { version } = (await Bun.file(join(ROOT, 'package.json')).json()) as { version: string }
    expect(dockerfile).toContain(`ARG VERSION=${version}\n`)
    for (const label of ['title', 'description', 'version', 'revision', 'created', 'source'])
      expect(dockerfile).toContain(`org.opencontainers.image.${label}=`)
  })

  test("its HEALTHCHECK runs the binary's healthcheck, with DATA_DIR set for it to find serve.json", () => {
    expect(dockerfile).toContain('CMD ["/switchboard", "healthcheck"]')
    expect(dockerfile).toMatch(/ENV DATA_DIR=\/data/)
  })
})
