// `switchboard serve` (the default): take DATA_DIR's instance lock, boot, listen, run the cron loop;
// on SIGTERM or SIGINT stop accepting, let in-flight requests finish (up to 10 s), stop the cron loop,
// close the database, exit 0.
import { mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Server } from 'bun'
import type { Config } from '../config.ts'
import { announceBootstrap, bootstrap } from '../bootstrap.ts'
import { AdvisoryLock, LOCKS } from '../db/advisory-lock.ts'
import { MigrationError } from '../db/migrate.ts'
import { acquireInstanceLock, type InstanceLock } from '../lib/instance-lock.ts'
import { createLogger, fileSink, type Logger } from '../lib/log.ts'
import { hubOf } from '../modules/event-stream/index.ts'
import { MasterKeyError } from '../modules/keys/index.ts'
import { openRuntime, type Runtime } from '../runtime.ts'
import { EXIT, type Command } from './command.ts'
import { readRunningServer, removeRunningServer, writeRunningServer } from './running-server.ts'

export const INSTANCE_LOCK_FILE = 'serve.lock'

export const DRAIN_TIMEOUT_MS = 10_000
// Bun's own cap is a backstop a margin above the largest body we take (MAX_BODY_BYTES, IMPORT_MAX_BYTES
// for a CSV import or UPLOAD_MAX_BYTES for a file, whichever is largest; a multipart body's framing fits the margin): a declared length a little over ours still gets our JSON 413
// (Bun's is bare), and no code path can make Bun hold more than this of one body.
export const BUN_BODY_MARGIN = 4 * 1024 * 1024

/** Binds HOST:PORT and starts the cron loop. Throws when the address cannot be bound. */
export function startServer(runtime: Runtime, config: Config): Server<undefined> {
  runtime.app.listen({
    hostname: config.host,
    port: config.port,
    // Elysia defaults to reusePort, which would let a second server share the port silently.
    reusePort: false,
    development: false,
    maxRequestBodySize: Math.max(config.maxBodyBytes, config.importMaxBytes, config.uploads.maxBytes) + BUN_BODY_MARGIN,
  })
  runtime.context.scheduler.start()
  runtime.webhooks.start()
  return runtime.app.server as Server<undefined>
}

/** Stops accepting, waits for in-flight requests (closing them after `timeoutMs`), then closes the runtime. */
export async function shutdown(server: Server<undefined>, runtime: Runtime, log: Logger, timeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  // Open event streams never finish by themselves: end them first, or the drain would wait them out.
  hubOf(runtime.context).closeAll()
  const drained = await Promise.race([
    server.stop(false).then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
  ])
  clearTimeout(timer)
  if (!drained) {
    log.warn('in-flight requests did not finish in time; closing their connections', { timeout_ms: timeoutMs })
    await server.stop(true)
  }
  await runtime.close()
}

export const serveCommand: Command = {
  name: 'serve',
  params: [],
  summary: 'Start the HTTP server and the cron loop (the default command)',
  async run({ config, io }) {
    const log = createLogger({ level: config.logLevel, sink: fileSink(Bun.stdout) })
    const fail = (message: string) => {
      log.error('cannot start', { reason: message })
      log.flush()
      io.stderr(`switchboard: ${message}\n`)
      return EXIT.FAILED
    }

    let lock: InstanceLock | undefined
    try {
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
      warnIfShared(config.dataDir, log)
      // Two servers on one DATA_DIR would both run the cron loop (double sends, double closes): one only.
      lock = acquireInstanceLock(join(config.dataDir, INSTANCE_LOCK_FILE))
    } catch (error) {
      return fail(`cannot use DATA_DIR ${config.dataDir}: ${(error as Error).message}`)
    }
    if (!lock) {
      const holder = readRunningServer(config.dataDir)
      const who = holder ? ` (pid ${holder.pid}, listening on ${holder.host}:${holder.port})` : ''
      return fail(
        `another switchboard server is already running on DATA_DIR ${config.dataDir}${who}; stop it first, or give this one its own DATA_DIR`,
      )
    }
    // The process exiting releases the lock too; this is for the paths that return.
    const release = lock.release

    let runtime: Runtime
    try {
      runtime = await openRuntime(config, { log })
    } catch (error) {
      release()
      if (error instanceof MigrationError || error instanceof MasterKeyError) return fail(error.message)
      return fail(`cannot open the database at ${config.dbPath}: ${(error as Error).message}`)
    }
    // On PostgreSQL: alone without Redis (the state it keeps in memory is not shared), or among peers that all have it.
    const peers =
      config.databaseUrl === undefined
        ? undefined
        : new AdvisoryLock(config.databaseUrl, LOCKS.instances, config.redisUrl ? 'shared' : 'exclusive')
    if (peers && !(await peers.take())) {
      await peers.release()
      await runtime.close()
      release()
      return fail(
        config.redisUrl
          ? 'an instance without REDIS_URL is running on this PostgreSQL database; several instances all need REDIS_URL (see docs/several-instances.md)'
          : 'another switchboard instance is running on this PostgreSQL database; several instances need REDIS_URL, the state they share (see docs/several-instances.md)',
      )
    }
    const releaseAll = () => {
      release()
      void peers?.release()
    }
    // Listening for signals before the port opens: a SIGTERM that arrives while starting still stops us cleanly.
    const signalled = nextSignal()
    // Before the port opens, so that whoever sees /health answer can already sign in.
    announceBootstrap(await bootstrap(runtime.context), log, io.stderr)
    let server: Server<undefined>
    try {
      server = startServer(runtime, config)
    } catch (error) {
      await runtime.close()
      releaseAll()
      return fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`)
    }
    // For `healthcheck`: the address really bound, whatever PORT its own environment says.
    writeRunningServer(config.dataDir, { pid: process.pid, host: config.host, port: server.port!, started_at: new Date().toISOString() })
    // A bug that escapes every handler still ends as one JSON line in the log, then exit 1:
    // the process state can no longer be trusted, and a supervisor restarts it.
    const crash = (kind: string) => (error: unknown) => {
      log.error(kind, { error })
      log.flush()
      process.exit(EXIT.FAILED)
    }
    process.on('uncaughtException', crash('uncaught exception')).on('unhandledRejection', crash('unhandled rejection'))
    log.info('listening', {
      url: `http://${config.host}:${server.port}`,
      public_url: config.publicUrl,
      version: runtime.context.version,
      data_dir: config.dataDir,
    })
    // Tokens name PUBLIC_URL (iss, aud): instances that default it from their own PORT refuse each other's tokens.
    if (config.redisUrl !== undefined && config.publicUrl === `http://localhost:${config.port}`)
      log.warn(
        "several instances (REDIS_URL) without PUBLIC_URL: set it to the load balancer's address, the same on every instance, or a token of one instance is refused by another",
        { public_url: config.publicUrl },
      )
    if (config.sms.provider === 'log')
      log.warn('SMS_PROVIDER=log writes MFA text messages, codes included, to this log: for development only')

    const signal = await signalled
    log.info('shutting down', { signal })
    // A second signal while draining means "now".
    const force = () => {
      log.error('forced exit during shutdown')
      log.flush()
      process.exit(EXIT.FAILED)
    }
    process.once('SIGTERM', force).once('SIGINT', force)
    await shutdown(server, runtime, log)
    removeRunningServer(config.dataDir)
    releaseAll()
    log.info('stopped', { signal })
    log.flush()
    return EXIT.OK
  },
}

/** DATA_DIR holds the database and the master key: a group- or world-accessible one is worth a warning at every start. */
function warnIfShared(dataDir: string, log: Logger): void {
  const mode = statSync(dataDir).mode & 0o777
  if ((mode & 0o077) === 0) return
  log.warn('DATA_DIR is accessible to other users; it holds the database and the master key: chmod 700 it', {
    data_dir: dataDir,
    mode: mode.toString(8).padStart(4, '0'),
  })
}

function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', on).off('SIGINT', on)
      resolve(signal)
    }
    process.on('SIGTERM', on).on('SIGINT', on)
  })
}
