// Server-wide settings (assembled by src/config.ts): where the server listens and keeps its data, and how it treats requests.
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import { Type, type TSchema } from '@sinclair/typebox'
import type { Cidr } from '../lib/cidr.ts'
import { LOG_LEVELS, type LogLevel } from '../lib/log.ts'
import { ConfigError, MiB, parseCidrList, parseServiceUrl, parseUrl, type SettingValues } from '../lib/settings.ts'

export const SERVER_SETTINGS = {
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 8080, description: 'TCP port the HTTP server listens on (1–65535).' }),
  HOST: Type.String({
    minLength: 1,
    default: '0.0.0.0',
    description: 'Address to bind; `127.0.0.1` keeps the server local, `::` listens on IPv6 too.',
  }),
  DATA_DIR: Type.String({
    minLength: 1,
    default: './data',
    description:
      'Directory of `switchboard.db` and the generated key files. Created with mode 0700 if missing; relative paths are taken from the working directory.',
  }),
  DATABASE_URL: Type.String({
    'x-default': 'the embedded SQLite file in DATA_DIR',
    'x-secret': true,
    description:
      'A `postgres://user:password@host:5432/db` URL (`postgresql://` too): PostgreSQL instead of the embedded database. Alone, for one instance; with `REDIS_URL`, for several. See [Several instances](several-instances.md#several-instances-postgresql--redis). Never logged.',
  }),
  REDIS_URL: Type.String({
    'x-default': 'none: shared state stays in this process',
    'x-secret': true,
    description:
      'A `redis://` (or `rediss://`) URL: the state several instances share — rate counters, revocations, wake-ups, cron statuses, event-stream slots. Needs `DATABASE_URL`. Never logged.',
  }),
  DATABASE_LOCK_TIMEOUT: Type.Integer({
    minimum: 10,
    maximum: 600_000,
    default: 5000,
    description:
      'PostgreSQL only: milliseconds a statement waits for a row or key another transaction holds before the request answers 503 with `Retry-After` (`lock_timeout`) (10–600000).',
  }),
  DATABASE_STATEMENT_TIMEOUT: Type.Integer({
    minimum: 100,
    maximum: 3_600_000,
    default: 30_000,
    description:
      'PostgreSQL only: milliseconds one statement may run before it is ended and the request answers 503 (`statement_timeout`) (100–3600000).',
  }),
  INSTANCE_ID: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[A-Za-z0-9._:-]+$',
    'x-default': 'HOSTNAME-PID',
    description:
      "This instance's name in `/health` (which instance ran the cron tasks last) and the logs: letters, digits and `. _ : -`, up to 100.",
  }),
  PUBLIC_URL: Type.String({
    'x-default': 'http://localhost:PORT',
    description:
      "Base URL clients use to reach the API (the spec's `base_url`); appears in `/openapi.json`. Must be http(s), without query or credentials.",
  }),
} satisfies Record<string, TSchema>

export const HTTP_SETTINGS = {
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((l) => Type.Literal(l)),
    {
      default: 'info',
      description:
        'Lowest level written: `debug`, `info`, `warn` or `error`. At `warn`, the per-request access lines (level `info`) are not written.',
    },
  ),
  TRUSTED_PROXIES: Type.String({
    default: '',
    description:
      'Comma-separated IPs or CIDR ranges (IPv4 or IPv6) of reverse proxies whose `X-Forwarded-For` is believed (hops may carry a port; an unreadable one makes the client unknown, see [the IP allowlist](security.md#organization-security-settings-and-the-ip-allowlist)). Empty: the TCP peer is the client.',
  }),
  MAX_BODY_BYTES: Type.Integer({
    minimum: 1024,
    maximum: 1024 * MiB,
    default: MiB,
    description:
      'Largest request body accepted, in bytes (1024 to 1 GiB); larger bodies get 413 before they are read (a chunked one as soon as it passes the limit).',
  }),
} satisfies Record<string, TSchema>

export interface ServerSlice {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly dbPath: string
  /** A postgres:// URL, or undefined for the embedded SQLite file at dbPath. */
  readonly databaseUrl: string | undefined
  readonly databaseLockTimeoutMs: number
  readonly databaseStatementTimeoutMs: number
  /** A redis:// URL, or undefined: shared state stays in this process. */
  readonly redisUrl: string | undefined
  /** This instance's name (INSTANCE_ID, else hostname-pid). */
  readonly instanceId: string
  readonly publicUrl: string
}

export interface HttpSlice {
  readonly logLevel: LogLevel
  readonly trustedProxies: readonly Cidr[]
  readonly maxBodyBytes: number
}

/** PUBLIC_URL, else http://localhost:PORT; checked before everything derived from it. */
export function publicUrlOf(values: SettingValues): string {
  return parseUrl('PUBLIC_URL', (values.PUBLIC_URL as string | undefined) ?? `http://localhost:${values.PORT as number}`)
}

/** REDIS_URL; several instances share state through Redis on one PostgreSQL, the embedded file serves one instance only. */
export function redisUrlOf(values: SettingValues): string | undefined {
  const redisUrl =
    values.REDIS_URL === undefined ? undefined : parseServiceUrl('REDIS_URL', values.REDIS_URL as string, ['redis:', 'rediss:'])
  if (redisUrl !== undefined && values.DATABASE_URL === undefined)
    throw new ConfigError('REDIS_URL needs DATABASE_URL: the embedded database serves one instance, which keeps its state in memory')
  return redisUrl
}

/** `cwd` resolves a relative DATA_DIR; `publicUrl` and `redisUrl` come from publicUrlOf and redisUrlOf. */
export function serverSlice(values: SettingValues, cwd: string, publicUrl: string, redisUrl: string | undefined): ServerSlice {
  const dataDir = resolve(cwd, values.DATA_DIR as string)
  return {
    port: values.PORT as number,
    host: values.HOST as string,
    dataDir,
    dbPath: join(dataDir, 'switchboard.db'),
    databaseLockTimeoutMs: values.DATABASE_LOCK_TIMEOUT as number,
    databaseStatementTimeoutMs: values.DATABASE_STATEMENT_TIMEOUT as number,
    databaseUrl:
      values.DATABASE_URL === undefined
        ? undefined
        : parseServiceUrl('DATABASE_URL', values.DATABASE_URL as string, ['postgres:', 'postgresql:']),
    redisUrl,
    instanceId: (values.INSTANCE_ID as string | undefined) ?? `${hostname()}-${process.pid}`,
    publicUrl,
  }
}

export function httpSlice(values: SettingValues): HttpSlice {
  return {
    logLevel: values.LOG_LEVEL as LogLevel,
    trustedProxies: Object.freeze(parseCidrList('TRUSTED_PROXIES', values.TRUSTED_PROXIES as string)),
    maxBodyBytes: values.MAX_BODY_BYTES as number,
  }
}
