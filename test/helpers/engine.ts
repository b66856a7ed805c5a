// Which engine the test apps run on, and on PostgreSQL the database of each DATA_DIR: made on first use
// (from the template database, or empty), so a restart, a CLI command or a second process given the
// same DATA_DIR finds the same data, as on the embedded engine.
import { stopAtEnd } from './cleanup.ts'
import { randomBytes } from 'node:crypto'
import { type S3Service, startPostgres, startRedis, startS3 } from './services.ts'

/** `SWITCHBOARD_TEST_ENGINE=postgres`: every app on its own database of one throwaway PostgreSQL. */
export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.SWITCHBOARD_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'

let postgres: Promise<{ url(database: string): string; admin: InstanceType<typeof Bun.SQL> }> | undefined
/** The database of each DATA_DIR an app was given on PostgreSQL (a restart finds its data again). */
const databases = new Map<string, string | Promise<string>>()
let databaseCount = 0

export function postgresServer() {
  postgres ??= (async () => {
    const server = await startPostgres()
    const url = (database: string) => server.url.replace(/\/switchboard$/, `/${database}`)
    const admin = new Bun.SQL(url('postgres'))
    stopAtEnd(async () => {
      await admin.close()
      await server.stop()
    })
    return { url, admin }
  })()
  return postgres
}

/** Copies of the template made ahead, while the tests before run: a copy takes PostgreSQL about 100 ms. */
const spareCopies: Promise<string>[] = []
const SPARE_COPIES = 2

function createDatabase(admin: InstanceType<typeof Bun.SQL>, fromTemplate: boolean): Promise<string> {
  const made = `app_${++databaseCount}`
  const created = admin.unsafe(fromTemplate ? `CREATE DATABASE ${made} TEMPLATE template_app` : `CREATE DATABASE ${made}`).then(() => made)
  // A spare still being made when the run ends fails with the server: nobody waits for it.
  created.catch(() => {})
  return created
}

function templateCopy(admin: InstanceType<typeof Bun.SQL>): Promise<string> {
  while (spareCopies.length <= SPARE_COPIES) spareCopies.push(createDatabase(admin, true))
  return spareCopies.shift()!
}

/**
 * The DATABASE_URL of `dataDir`'s database, made on first use (a copy of the template, or empty). The
 * template must exist before the first copy is asked for (the test app helper makes it first).
 */
export async function databaseOf(dataDir: string, fromTemplate: boolean): Promise<string> {
  const server = await postgresServer()
  // The pending creation is remembered at once: two calls for one DATA_DIR at the same moment share it.
  let name = databases.get(dataDir)
  if (!name) {
    name = fromTemplate ? templateCopy(server.admin) : createDatabase(server.admin, false)
    databases.set(dataDir, name)
  }
  return server.url(await name)
}

export function rememberDatabase(dataDir: string, name: string): void {
  databases.set(dataDir, name)
}

/**
 * A child process's environment on this engine: on PostgreSQL, the DATABASE_URL of its DATA_DIR (an
 * empty database for a DATA_DIR no app has used) unless one is given, and the test process's Redis.
 */
export async function engineEnv(env: Record<string, string>): Promise<Record<string, string>> {
  if (TEST_ENGINE !== 'postgres' || env.DATA_DIR === undefined || env.DATABASE_URL !== undefined) return env
  return {
    ...(env.S3_BUCKET === undefined ? (await s3Server()).settings : {}),
    ...env,
    DATABASE_URL: await databaseOf(env.DATA_DIR, false),
    REDIS_URL: env.REDIS_URL ?? (await redisServer()).url,
  }
}

let s3: Promise<S3Service> | undefined

/** One throwaway S3-compatible server (s3rver) per test process: several instances keep their files in S3. */
export function s3Server(): Promise<S3Service> {
  s3 ??= (async () => {
    const server = await startS3()
    stopAtEnd(() => server.stop())
    return server
  })()
  return s3
}

let redis: Promise<{ url: string; stop(): Promise<void> }> | undefined

/** One throwaway Redis per test process (each app's keys are apart: they are prefixed by its database's name). */
export function redisServer() {
  redis ??= (async () => {
    const server = await startRedis()
    stopAtEnd(() => server.stop())
    return server
  })()
  return redis
}

/**
 * The settings of the instances of one cluster: a fresh, empty PostgreSQL database, the test process's
 * Redis and S3 server, and one MASTER_KEY (every instance must unseal the same signing keys). Give each instance its
 * own DATA_DIR.
 */
export async function clusterSettings(): Promise<{ DATABASE_URL: string; REDIS_URL: string; MASTER_KEY: string } & S3Service['settings']> {
  const [DATABASE_URL, server, files] = await Promise.all([
    databaseOf(`cluster-${randomBytes(6).toString('hex')}`, false),
    redisServer(),
    s3Server(),
  ])
  return { DATABASE_URL, REDIS_URL: server.url, MASTER_KEY: randomBytes(32).toString('hex'), ...files.settings }
}
