// `switchboard serve` (the default): boot, listen, run the cron loop; on SIGTERM or SIGINT stop
// accepting, let in-flight requests finish (up to 10 s), stop the cron loop, close the database, exit 0.
import type { Server } from 'bun'
import type { Config } from '../config.ts'
import { announceBootstrap, bootstrap } from '../bootstrap.ts'
import { MigrationError } from '../db/migrate.ts'
import { createLogger, fileSink, type Logger } from '../lib/log.ts'
import { MasterKeyError } from '../modules/keys/master-key.ts'
import { openRuntime, type Runtime } from '../runtime.ts'
import { EXIT, type Command } from './command.ts'

export const DRAIN_TIMEOUT_MS = 10_000
// Bun's own cap stays a backstop above ours, so oversized bodies get our JSON 413 rather than Bun's bare one.
const BUN_BODY_BACKSTOP = 128 * 1024 * 1024

/** Binds HOST:PORT and starts the cron loop. Throws when the address cannot be bound. */
export function startServer(runtime: Runtime, config: Config): Server<undefined> {
  runtime.app.listen({
    hostname: config.host,
    port: config.port,
    // Elysia defaults to reusePort, which would let a second server share the port silently.
    reusePort: false,
    development: false,
    maxRequestBodySize: Math.max(config.maxBodyBytes, BUN_BODY_BACKSTOP),
  })
  runtime.deps.scheduler.start()
  runtime.deps.webhooks.start()
  return runtime.app.server as Server<undefined>
}

/** Stops accepting, waits for in-flight requests (closing them after `timeoutMs`), then closes the runtime. */
export async function shutdown(server: Server<undefined>, runtime: Runtime, log: Logger, timeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
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

    let runtime: Runtime
    try {
      runtime = await openRuntime(config, { log })
    } catch (error) {
      if (error instanceof MigrationError || error instanceof MasterKeyError) return fail(error.message)
      return fail(`cannot open the database at ${config.dbPath}: ${(error as Error).message}`)
    }
    // Listening for signals before the port opens: a SIGTERM that arrives while starting still stops us cleanly.
    const signalled = nextSignal()
    // Before the port opens, so that whoever sees /health answer can already sign in.
    announceBootstrap(await bootstrap(runtime.deps), log, io.stderr)
    let server: Server<undefined>
    try {
      server = startServer(runtime, config)
    } catch (error) {
      await runtime.close()
      return fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`)
    }
    // A bug that escapes every handler still ends as one JSON line in the log, then exit 1:
    // the process state can no longer be trusted, and a supervisor restarts it.
    const crash = (kind: string) => (error: unknown) => {
      log.error(kind, { error })
      log.flush()
      process.exit(EXIT.FAILED)
    }
    process.on('uncaughtException', crash('uncaught exception')).on('unhandledRejection', crash('unhandled rejection'))
    log.info('listening', { url: `http://${config.host}:${server.port}`, public_url: config.publicUrl, version: runtime.deps.version, data_dir: config.dataDir })
    if (config.sms.provider === 'log') log.warn('SMS_PROVIDER=log writes MFA text messages, codes included, to this log: for development only')

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
    log.info('stopped', { signal })
    log.flush()
    return EXIT.OK
  },
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
