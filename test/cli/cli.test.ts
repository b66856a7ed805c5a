// The command line: usage and exit codes (0 ok, 1 failed, 2 bad command line or configuration),
// in-process for parsing and as a real process for signals and the server's life cycle.
import { describe, expect, test } from 'bun:test'
import { statSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { commandUsage, COMMANDS, runCli } from '../../src/cli/index.ts'
import { migrationsFor } from '../../src/db/migrations/index.ts'
import { VERSION } from '../../src/version.ts'
import { tempDirs } from '../helpers/app.ts'
import { withDataDirDb } from '../helpers/data-dir-db.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { freePort, run, sourceCommand, startServer } from '../helpers/process.ts'

const dataDir = tempDirs()

async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(args, { env, cwd: '/tmp', stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) })
  return { code, stdout, stderr }
}

describe('usage', () => {
  for (const args of [['--help'], ['-h'], ['help'], ['help', 'nonsense']]) {
    test(`${args.join(' ')} prints the usage to stdout and exits 0`, async () => {
      const result = await cli(args)
      expect(result.code).toBe(0)
      expect(result.stderr).toBe('')
      expect(result.stdout).toStartWith('Usage: switchboard [command] [options]')
      for (const word of [
        'serve',
        'migrate',
        'backup <file>',
        'healthcheck',
        'version',
        '--data-dir',
        '--max-body-bytes',
        'CRON_TICK_MS',
      ]) {
        expect(result.stdout).toContain(word)
      }
    })
  }

  test('version prints the version and exits 0', async () => {
    const result = await cli(['version'])
    expect(result).toEqual({ code: 0, stdout: `switchboard ${VERSION} (bun ${Bun.version})\n`, stderr: '' })
  })

  test('--version prints exactly what version prints, and exits 0', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `switchboard ${VERSION} (bun ${Bun.version})\n`, stderr: '' })
    expect(await cli(['--version'])).toEqual(await cli(['version']))
  })

  for (const command of COMMANDS) {
    test(`${command.name} --help prints that command's usage, not the whole list, and exits 0`, async () => {
      const words = command.name.split(' ')
      for (const args of [
        [...words, '--help'],
        [...words, '-h'],
        ['help', ...words],
      ]) {
        const result = await cli(args)
        expect(result).toEqual({ code: 0, stdout: commandUsage(command), stderr: '' })
        expect(result.stdout).toStartWith(
          `Usage: switchboard ${[command.name, ...command.params].join(' ')} [options]\n\n${command.summary}\n`,
        )
        for (const option of Object.keys(command.options ?? {})) expect(result.stdout).toContain(`  --${option}`)
        // The whole list is not repeated.
        expect(result.stdout).not.toContain('Commands:')
      }
    })
  }

  test("a command's --help does not run it, nor need its arguments", async () => {
    const dir = dataDir()
    expect((await cli(['backup', '--help'], { DATA_DIR: dir })).code).toBe(0)
    expect((await cli(['migrate', '--help'], { DATA_DIR: dir })).stdout).toStartWith('Usage: switchboard migrate [options]')
    expect(existsSync(join(dir, 'switchboard.db'))).toBe(false)
  })

  const refusals: [string, string[], Record<string, string>, string][] = [
    ['an unknown command', ['frobnicate'], {}, 'switchboard: unknown command "frobnicate"'],
    ['an unknown flag', ['--frobnicate'], {}, "switchboard: Unknown option '--frobnicate'"],
    ['an unknown flag after a command', ['migrate', '--verbose'], {}, "switchboard: Unknown option '--verbose'"],
    ['a flag without its value', ['serve', '--port'], {}, "switchboard: Option '--port <value>' argument missing"],
    ['backup without a file', ['backup'], {}, 'switchboard: backup takes <file>'],
    ['backup with two files', ['backup', 'a.db', 'b.db'], {}, 'switchboard: backup takes <file>'],
    ['an argument to version', ['version', 'now'], {}, 'switchboard: version takes no arguments'],
  ]
  for (const [name, args, env, message] of refusals) {
    test(`${name}: usage on stderr, exit 2`, async () => {
      const result = await cli(args, env)
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toStartWith(message)
      expect(result.stderr).toContain('Usage: switchboard')
    })
  }

  test('an invalid setting: one line naming it, exit 2', async () => {
    expect(await cli(['migrate'], { PORT: 'eighty' })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'switchboard: invalid configuration: PORT must be an integer from 1 to 65535 (got "eighty")\n',
    })
    expect((await cli(['migrate', '--log-level', 'loud'])).stderr).toBe(
      'switchboard: invalid configuration: LOG_LEVEL must be one of: debug, info, warn, error (got "loud")\n',
    )
  })
})

describe('as a process', () => {
  test('exit codes are the process exit codes', async () => {
    expect((await run(sourceCommand('version'))).code).toBe(0)
    expect((await run(sourceCommand('--help'))).code).toBe(0)
    expect((await run(sourceCommand('nonsense'))).code).toBe(2)
    expect((await run(sourceCommand('--nonsense'))).code).toBe(2)
  }, 60_000)

  test('an invalid setting stops serve before it listens', async () => {
    const port = freePort()
    const result = await run(sourceCommand(), { PORT: String(port), MAX_BODY_BYTES: 'lots', DATA_DIR: dataDir() })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      'switchboard: invalid configuration: MAX_BODY_BYTES must be an integer from 1024 to 1073741824 (got "lots")\n',
    )
    expect(result.stdout).toBe('')
  })

  test('serve is the default command; it creates DATA_DIR (0700) and the database, and SIGTERM exits 0', async () => {
    const dir = join(dataDir(), 'nested', 'data')
    const server = await startServer(sourceCommand(), { DATA_DIR: dir })
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    // On PostgreSQL the database is DATABASE_URL's: made ready there, and no SQLite file beside it.
    expect(existsSync(join(dir, 'switchboard.db'))).toBe(TEST_ENGINE === 'sqlite')
    expect(await withDataDirDb(dir, (db) => db.get('SELECT count(*) AS n FROM schema_migrations'), { readonly: true })).toEqual({
      n: migrationsFor(TEST_ENGINE).length,
    })
    const finished = await server.stop('SIGTERM')
    expect(finished.code).toBe(0)
    const lines = finished.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const messages = lines.map((l) => l.msg)
    expect(messages).toEqual(
      expect.arrayContaining([
        'migrations applied',
        'first start: created the organization "Default" and its Super Admin',
        'listening',
        'request',
      ]),
    )
    // The last access line may land either side of "shutting down"; "stopped" is always last.
    expect(messages.at(-1)).toBe('stopped')
    expect(messages.indexOf('shutting down')).toBeGreaterThan(messages.indexOf('listening'))
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'stopped', signal: 'SIGTERM' })
  }, 60_000)

  test('SIGINT also stops it cleanly', async () => {
    const server = await startServer(sourceCommand('serve'), { DATA_DIR: dataDir() })
    expect((await server.stop('SIGINT')).code).toBe(0)
  }, 60_000)

  test('a port already in use: exit 1 with a readable reason', async () => {
    const holder = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    try {
      const result = await run(sourceCommand('serve'), { HOST: '127.0.0.1', PORT: String(holder.port), DATA_DIR: dataDir() })
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`switchboard: cannot listen on 127.0.0.1:${holder.port}:`)
    } finally {
      holder.stop(true)
    }
  }, 60_000)

  test('healthcheck exits 0 against a running server and 1 when nothing answers', async () => {
    const server = await startServer(sourceCommand(), { DATA_DIR: dataDir() })
    const port = new URL(server.url).port
    try {
      expect((await run(sourceCommand('healthcheck'), { PORT: port })).code).toBe(0)
      expect((await run(sourceCommand('healthcheck', '--host', '127.0.0.1', '--port', port))).code).toBe(0)
    } finally {
      await server.stop()
    }
    const down = await run(sourceCommand('healthcheck'), { PORT: port })
    expect(down.code).toBe(1)
    expect(down.stderr).toStartWith(`switchboard: healthcheck: http://127.0.0.1:${port}/health:`)
  }, 60_000)
})
