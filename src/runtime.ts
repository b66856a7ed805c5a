// openRuntime: everything `serve` needs before it listens (data directory, database, migrations,
// master key and signing keys, revocations, cron tasks, app), shared with the tests so they run the
// same boot path as production.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { createApp, type App } from './app.ts'
import type { Config } from './config.ts'
import type { AppContext } from './context.ts'
import { migrationsFor } from './db/migrations/index.ts'
import { migrate } from './db/migrate.ts'
import type { Database } from './db/database.ts'
import { openPostgres, requireUtf8 } from './db/postgres.ts'
import { openSqlite } from './db/sqlite.ts'
import { openRedis, redisPrefixOf, type SharedRedis } from './db/redis.ts'
import { openCluster } from './jobs/cluster.ts'
import { registerTasks } from './jobs/registry.ts'
import { Scheduler } from './jobs/scheduler.ts'
import { systemClock, type Clock } from './lib/clock.ts'
import type { Logger } from './lib/log.ts'
import { PageTokens } from './db/page-tokens.ts'
import { lastSeenIntervalMs } from './modules/agents/index.ts'
import { Activity, Revocations, USER_SESSIONS, VerifiedTokens } from './modules/auth/index.ts'
import { Keyring, loadMasterKey, MasterKeyError } from './modules/keys/index.ts'
import { VERSION } from './version.ts'
import { createSmsSender } from './modules/mfa/index.ts'
import { Allowlists } from './modules/organizations/index.ts'
import { memoryRateCounters, redisRateCounters, restoreRateCounters, saveRateCounters } from './modules/rate-limits/index.ts'
import { fanOutSubscriber, InProcessWakeups, redisWakeups, WebhookDispatcher } from './modules/webhooks/index.ts'
import { surveyContactReferrer, surveyOffersSubscriber } from './modules/surveys/index.ts'
import { callContactReferrer, callTicketReferrer } from './modules/calls/index.ts'
import { engagementContactReferrer, engagementTicketReferrer } from './modules/engagements/index.ts'
import { ticketContactReferrer } from './modules/tickets/index.ts'
import type { Referrers } from './references.ts'
import { reportsTicketReferrer } from './modules/reports/index.ts'
import { REQUEST_GUARDS } from './request-guards.ts'
import { eventStreamSubscriber, memoryStreamSlots, redisStreamSlots } from './modules/event-stream/index.ts'
import type { EventSubscriber, LocalRateCounters, Ports, SigningKeys } from './ports.ts'

export interface Runtime {
  /** What every module is given: configuration, the database, the clock, the log, the ports. */
  context: AppContext
  app: App
  /** This process's webhook sender: `serve` starts it (tests start it when they need it). */
  webhooks: WebhookDispatcher
  /** Stops the cron loop (waiting for running tasks), saves the rate-limit counters and closes the database. */
  close(): Promise<void>
}

/** How long a start waits for Redis before it serves without it. */
const REDIS_START_WAIT_MS = 5000

/** The Redis of a cluster; its keys are named after the database, so one Redis can serve several deployments. */
function openSharedRedis(url: string, config: Config, log: Logger): SharedRedis {
  return openRedis(url, {
    prefix: redisPrefixOf(config.databaseUrl),
    // The error's own message only: the URL (and its password) is never logged.
    onError: (what, error) => log.warn(what, { error: (error as Error).message }),
  })
}

/**
 * Opens the configured database (PostgreSQL at DATABASE_URL, else the embedded file), reporting slow writes
 * when `reportSlowWrites` (a server's): in a CLI command's process no other write waits for its writer, so
 * the report would only be noise on the command's stderr.
 */
export function openConfiguredDatabase(config: Config, log: Logger, { reportSlowWrites = true } = {}): Database {
  // A migration runs before anything is served: nobody waits for it, and its time says nothing wrong.
  const onSlowWrite = (name: string, heldMs: number) => {
    if (reportSlowWrites && !name.startsWith('migration '))
      log.warn('write transaction held the database writer too long', { transaction: name, held_ms: heldMs })
  }
  return config.databaseUrl === undefined
    ? openSqlite(config.dbPath, { onSlowWrite })
    : openPostgres(config.databaseUrl, {
        onSlowWrite,
        lockTimeoutMs: config.databaseLockTimeoutMs,
        statementTimeoutMs: config.databaseStatementTimeoutMs,
      })
}

/** Creates DATA_DIR (mode 0700: it holds secrets), opens and migrates the database. */
export async function openMigratedDatabase(config: Config, log: Logger, now: number, options: { reportSlowWrites?: boolean } = {}) {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const database = openConfiguredDatabase(config, log, options)
  try {
    if (database.engine === 'sqlite') restrictDatabaseFiles(config.dbPath)
    else await requireUtf8(database)
    const result = await migrate(database, migrationsFor(database.engine), VERSION, now)
    if (result.applied.length > 0) log.info('migrations applied', { applied: result.applied })
    if (result.changed.length > 0) log.warn('migrations changed after they were applied', { changed: result.changed })
    return { database, applied: result.applied }
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
export async function openKeyring(config: Config, log: Logger, clock: Clock = systemClock, options: { reportSlowWrites?: boolean } = {}) {
  const opened = await openMigratedDatabase(config, log, clock.now(), options)
  try {
    const masterKey = loadMasterKey(config, { create: true })
    const keyring = new Keyring(opened.database, masterKey, clock)
    await keyring.init()
    return { ...opened, keyring, masterKey }
  } catch (error) {
    await opened.database.close()
    throw error
  }
}

/**
 * The ports: in this process's memory for one instance; through Redis for several (rate counters,
 * revocations, wake-ups). The verified-token cache stays local: it holds only what cannot change.
 */
async function portsOf(
  database: Database,
  redis: SharedRedis | undefined,
  options: { log: Logger; clock: Clock; loadRevocations?: boolean },
): Promise<{ ports: Ports; memoryCounters?: LocalRateCounters }> {
  const revocations = new Revocations()
  if (options.loadRevocations !== false) await revocations.load(database, options.clock.now())
  if (!redis) {
    const memoryCounters = memoryRateCounters()
    return {
      ports: {
        revocations,
        verifiedTokens: new VerifiedTokens(),
        rateCounters: memoryCounters,
        wakeups: new InProcessWakeups(),
        streamSlots: memoryStreamSlots(),
      },
      memoryCounters,
    }
  }
  return {
    ports: {
      revocations: revocations.share(redis, database, options.log, options.clock),
      verifiedTokens: new VerifiedTokens(),
      rateCounters: redisRateCounters(redis, { log: options.log }),
      wakeups: redisWakeups(redis),
      streamSlots: redisStreamSlots(redis, options.log),
    },
  }
}

/** What every event is told of in its transaction, for the server and the CLI commands alike. */
function eventSubscribersOf(config: Config, wakeups: Ports['wakeups']): EventSubscriber[] {
  // Webhook deliveries, written in the event's transaction; the dispatchers are woken after its commit.
  // Survey offers a solved ticket or a closed session calls for, in the same transaction.
  // The live event streams of every instance, signalled after the commit (they read the log themselves).
  return [fanOutSubscriber(wakeups), surveyOffersSubscriber(config), eventStreamSubscriber(wakeups)]
}

/** Who names a contact or a ticket elsewhere, told in the transaction that deletes or merges it (src/references.ts). */
const REFERRERS: Referrers = {
  contact: [engagementContactReferrer, ticketContactReferrer, callContactReferrer, surveyContactReferrer],
  ticket: [callTicketReferrer, engagementTicketReferrer, reportsTicketReferrer],
}

/** A CLI command sends no webhook: what it queues, the server's dispatcher sends. */
const NO_DELIVERIES: AppContext['deliveries'] = {
  start: () => undefined,
  stop: async () => {},
  settled: async () => {},
  sendNow: () => Promise.reject(new Error('a CLI command sends no webhook deliveries')),
}

/** The master key when one exists; else an empty one, with which any seal or unseal fails loudly. */
function existingMasterKey(config: Config): Uint8Array {
  try {
    return loadMasterKey(config, { create: false })
  } catch (error) {
    if (error instanceof MasterKeyError) return new Uint8Array(0)
    throw error
  }
}

/** A CLI command signs no token: `keys rotate` opens the keyring itself. */
const NO_SIGNING_KEYS: SigningKeys = {
  signer: () => Promise.reject(new Error('a CLI command has no signing keys')),
  sign: () => Promise.reject(new Error('a CLI command has no signing keys')),
  recordUse: () => Promise.reject(new Error('a CLI command has no signing keys')),
  verificationKey: () => undefined,
  reloadKeys: async () => false,
}

/**
 * The app context of one CLI command (its verbs run with `contextFor(app, { kind: 'system', id: 'cli' })`):
 * the migrated database, this process's own in-memory ports and the same event subscribers as the
 * server; no cron loop, no webhook sender (the server's picks up what a command queues), no signing
 * keys, and the master key only if one exists already (a command never creates it).
 */
export async function openCommandContext(config: Config, log: Logger, clock: Clock = systemClock) {
  const opened = await openMigratedDatabase(config, log, clock.now(), { reportSlowWrites: false })
  try {
    // This process's own, even beside a cluster: the deliveries a command queues are found by the
    // instances' own poll within a cron tick, and no command revokes a session (one that did would
    // have to publish it through Redis before it exits).
    const { ports } = await portsOf(opened.database, undefined, { log, clock, loadRevocations: false })
    const app: AppContext = {
      config,
      db: opened.database,
      clock,
      log,
      ports,
      scheduler: new Scheduler({ clock, log, tickMs: config.cronTickMs, instanceId: config.instanceId }),
      cluster: openCluster({ instanceId: config.instanceId }).view,
      pageTokens: await PageTokens.load(opened.database, config.pageTokenTtlS, clock),
      masterKey: existingMasterKey(config),
      keys: NO_SIGNING_KEYS,
      sms: createSmsSender(config.sms, log),
      lastSeen: { session() {}, apiKey() {} },
      allowlists: new Allowlists(),
      guards: REQUEST_GUARDS,
      eventSubscribers: eventSubscribersOf(config, ports.wakeups),
      userSessions: USER_SESSIONS,
      referrers: REFERRERS,
      deliveries: NO_DELIVERIES,
      version: VERSION,
      startedAt: clock.now(),
    }
    return { app, close: () => opened.database.close() }
  } catch (error) {
    await opened.database.close()
    throw error
  }
}

/** `webhookCa`: extra PEM certificates webhook receivers may present (tests; operators use NODE_EXTRA_CA_CERTS). */
export async function openRuntime(config: Config, options: { log: Logger; clock?: Clock; webhookCa?: string }): Promise<Runtime> {
  const clock = options.clock ?? systemClock
  const { log } = options
  const { database, keyring, masterKey } = await openKeyring(config, log, clock)
  // Several instances: what they share lives in Redis (see the README, "Several instances").
  const redis = config.redisUrl === undefined ? undefined : openSharedRedis(config.redisUrl, config, log)
  // Its first requests counted and checked in Redis, not failed open because the connection was still being made;
  // a Redis away at start delays it by REDIS_START_WAIT_MS at most (it then runs as with Redis lost later).
  if (redis && !(await redis.ready(REDIS_START_WAIT_MS))) log.warn('redis unreachable at start: serving without it until it answers')
  const cluster = openCluster({ instanceId: config.instanceId, databaseUrl: config.databaseUrl, redis })
  const pageTokens = await PageTokens.load(database, config.pageTokenTtlS, clock)
  const scheduler = new Scheduler({ clock, log, tickMs: config.cronTickMs, instanceId: config.instanceId, leadership: cluster.leadership })
  const { ports, memoryCounters } = await portsOf(database, redis, { log, clock })
  // In memory, the daily counts are saved at shutdown and restored here (Redis keeps its own).
  if (config.rateLimits.enabled && memoryCounters) await restoreRateCounters(database, memoryCounters, clock.now())
  const webhooks = new WebhookDispatcher(
    { db: database, clock, log, config, masterKey, version: VERSION, ports },
    options.webhookCa ? { extraCa: options.webhookCa } : {},
  )
  const app: AppContext = {
    config,
    db: database,
    clock,
    log,
    ports,
    scheduler,
    cluster: cluster.view,
    pageTokens,
    masterKey,
    keys: keyring,
    sms: createSmsSender(config.sms, log),
    // Often enough for the agents' idle timeout to see who is working (once a minute at the default 30 min).
    lastSeen: new Activity(database, log, lastSeenIntervalMs(config)),
    allowlists: new Allowlists(),
    guards: REQUEST_GUARDS,
    eventSubscribers: eventSubscribersOf(config, ports.wakeups),
    userSessions: USER_SESSIONS,
    referrers: REFERRERS,
    deliveries: webhooks,
    version: VERSION,
    startedAt: clock.now(),
  }
  registerTasks(scheduler, app, webhooks)
  return {
    context: app,
    app: createApp(app),
    webhooks,
    async close() {
      // Deliveries in flight get up to 10 s; unfinished ones are sent again after the next start.
      await webhooks.stop()
      await scheduler.stop()
      // The daily counts survive the restart (minute windows start afresh).
      try {
        if (config.rateLimits.enabled && memoryCounters) await saveRateCounters(database, memoryCounters, clock.now())
      } catch (error) {
        log.error('rate-limit counters not saved at shutdown', { error })
      }
      await cluster.close()
      await redis?.close()
      await database.close()
    },
  }
}
