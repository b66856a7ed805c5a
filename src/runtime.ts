// openRuntime: everything `serve` needs before it listens (data directory, database, migrations,
// master key and signing keys, revocations, cron tasks, app), shared with the tests so they run the
// same boot path as production.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { createApp, type App } from './app.ts'
import type { Config } from './config.ts'
import type { AppContext, AppDeps } from './context.ts'
import type { Database } from './db/database.ts'
import { MIGRATIONS } from './db/migrations/index.ts'
import { migrate } from './db/migrate.ts'
import { drizzleOver } from './db/open.ts'
import { openSqlite } from './db/sqlite.ts'
import { registerTasks } from './jobs/registry.ts'
import { Scheduler } from './jobs/scheduler.ts'
import { systemClock, type Clock } from './lib/clock.ts'
import type { Logger } from './lib/log.ts'
import { PageTokens } from './db/page-tokens.ts'
import { Revocations } from './modules/auth/revocations.ts'
import { VerifiedTokens } from './modules/auth/verified-tokens.ts'
import { Keyring } from './modules/keys/keyring.ts'
import { loadMasterKey } from './modules/keys/master-key.ts'
import { VERSION } from './version.ts'
import { Activity } from './modules/auth/activity.ts'
import { createSmsSender } from './modules/mfa/sms-sender.ts'
import { Allowlists } from './modules/organizations/allowlist.ts'
import { RateLimiter } from './modules/rate-limits/limiter.ts'
import { restoreRateCounters, saveRateCounters } from './modules/rate-limits/store.ts'
import { WebhookDispatcher } from './modules/webhooks/dispatcher.ts'
import { processWakeups } from './modules/webhooks/signal.ts'
import { fanOut } from './modules/webhooks/fan-out.ts'
import type { EventType } from './modules/events/catalog.ts'
import type { Ports } from './ports.ts'

export interface Runtime {
  deps: AppDeps
  app: App
  /** Stops the cron loop (waiting for running tasks), saves the rate-limit counters and closes the database. */
  close(): Promise<void>
}

/** Opens the configured database, reporting write transactions that hold the writer too long. */
export function openConfiguredDatabase(config: Config, log: Logger) {
  return openSqlite(config.dbPath, {
    onSlowWrite: (name, heldMs) => log.warn('write transaction held the database writer too long', { transaction: name, held_ms: heldMs }),
  })
}

/** Creates DATA_DIR (mode 0700: it holds secrets), opens and migrates the database. */
export async function openMigratedDatabase(config: Config, log: Logger, now: number) {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const database = openConfiguredDatabase(config, log)
  try {
    restrictDatabaseFiles(config.dbPath)
    const result = await migrate(database, MIGRATIONS, VERSION, now)
    if (result.applied.length > 0) log.info('migrations applied', { applied: result.applied })
    if (result.changed.length > 0) log.warn('migrations changed after they were applied', { changed: result.changed })
    // TRANSITIONAL (issue 13): drizzle over the same writer for the modules not yet ported.
    const sqlite = database.legacyWriter
    return { database: database as Database, sqlite, db: drizzleOver(sqlite), applied: result.applied }
  } catch (error) {
    await database.close()
    throw error
  }
}

/**
 * The database and its -wal and -shm files readable by their owner only. New ones are born 0600 (the
 * process umask is 077, and SQLite gives the -wal and -shm the main file's mode); this tightens those
 * an earlier version created 0644.
 */
function restrictDatabaseFiles(dbPath: string): void {
  for (const path of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    if (!existsSync(path) || (statSync(path).mode & 0o077) === 0) continue
    try {
      chmodSync(path, 0o600)
    } catch (error) {
      // Owned by another user who let us write it: theirs to tighten, not a reason to refuse to start.
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error
    }
  }
}

/** The database plus the keyring, for the CLI commands that sign or rotate keys. */
export async function openKeyring(config: Config, log: Logger, clock: Clock = systemClock) {
  const opened = await openMigratedDatabase(config, log, clock.now())
  try {
    const masterKey = loadMasterKey(config, { create: true })
    const keyring = new Keyring(opened.db, masterKey, clock)
    await keyring.init()
    return { ...opened, keyring, masterKey }
  } catch (error) {
    await opened.database.close()
    throw error
  }
}

/** `webhookCa`: extra PEM certificates webhook receivers may present (tests; operators use NODE_EXTRA_CA_CERTS). */
export async function openRuntime(config: Config, options: { log: Logger; clock?: Clock; webhookCa?: string }): Promise<Runtime> {
  const clock = options.clock ?? systemClock
  const { log } = options
  const { sqlite, db, database, keyring, masterKey } = await openKeyring(config, log, clock)
  const revocations = new Revocations().load(db, clock.now())
  const pageTokens = PageTokens.load(db, config.pageTokenTtlS, clock)
  const scheduler = new Scheduler({ clock, log, tickMs: config.cronTickMs })
  const rateLimits = new RateLimiter(config.rateLimits)
  if (rateLimits.enabled) restoreRateCounters(sqlite, rateLimits, clock.now())
  const webhooks = new WebhookDispatcher({ sqlite, db, clock, log, config, masterKey, version: VERSION }, options.webhookCa ? { extraCa: options.webhookCa } : {})
  const verifiedTokens = new VerifiedTokens()
  const sms = createSmsSender(config.sms, log)
  const activity = new Activity(sqlite)
  const ports: Ports = { revocations, verifiedTokens, rateCounters: rateLimits.windows, wakeups: processWakeups }
  const app: AppContext = {
    config,
    db: database,
    clock,
    log,
    ports,
    scheduler,
    pageTokens,
    masterKey,
    // TRANSITIONAL (issue 13): the keys module makes Keyring implement SigningKeys.
    keys: keyring as unknown as AppContext['keys'],
    sms,
    lastSeen: activity,
    // TRANSITIONAL (issue 13): the legacy fan-out, on the writer inside the open transaction, until the
    // webhooks module subscribes with its own.
    eventSubscribers: [
      async (_tx, event) => {
        fanOut(db as never, { id: event.id, organizationId: event.organizationId, type: event.type as EventType, now: event.createdAt })
      },
    ],
    version: VERSION,
    startedAt: clock.now(),
  }
  const deps: AppDeps = {
    config,
    sqlite,
    db,
    database,
    ports,
    app,
    clock,
    log,
    scheduler,
    keyring,
    revocations,
    verifiedTokens,
    pageTokens,
    masterKey,
    sms,
    activity,
    allowlists: new Allowlists(),
    rateLimits,
    webhooks,
    version: VERSION,
    startedAt: clock.now(),
  }
  registerTasks(scheduler, deps)
  return {
    deps,
    app: createApp(deps),
    async close() {
      // Deliveries in flight get up to 10 s; unfinished ones are sent again after the next start.
      await webhooks.stop()
      await scheduler.stop()
      // The daily counts survive the restart (minute windows start afresh).
      try {
        if (rateLimits.enabled) saveRateCounters(sqlite, rateLimits, clock.now())
      } catch (error) {
        log.error('rate-limit counters not saved at shutdown', { error })
      }
      await database.close()
    },
  }
}
