// Configuration: environment variables and --flags -> one typed, frozen Config; no other file reads process.env.
import { hostname } from 'node:os'
import { resolve, join } from 'node:path'
import { Type, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { parseCidr, type Cidr } from './lib/cidr.ts'
import { isEmailAddress } from './lib/email.ts'
import { LOG_LEVELS, type LogLevel } from './lib/log.ts'

const MiB = 1024 * 1024

export const SMS_PROVIDERS = ['log', 'webhook', 'twilio'] as const

/** An S3-compatible bucket for uploaded files. */
export interface S3Config {
  readonly bucket: string
  /** Undefined: AWS's own endpoint for the region. */
  readonly endpoint: string | undefined
  readonly region: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
}

/** Where MFA text messages go. */
export type SmsConfig =
  | { readonly provider: 'log' }
  | { readonly provider: 'webhook'; readonly url: string; readonly secret: string }
  | { readonly provider: 'twilio'; readonly accountSid: string; readonly authToken: string; readonly from: string; readonly apiUrl: string }

/**
 * Every setting, keyed by its environment variable. `x-default` documents a default that is
 * derived from other settings; docs/configuration.md's table mirrors this object (a test checks it).
 */
export const SETTINGS = {
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 8080, description: 'TCP port the HTTP server listens on.' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'Address the HTTP server binds to; `127.0.0.1` keeps it local.' }),
  DATA_DIR: Type.String({
    minLength: 1,
    default: './data',
    description: 'Directory holding `switchboard.db` and the generated key files; created if missing.',
  }),
  DATABASE_URL: Type.String({
    'x-default': 'the embedded SQLite file in DATA_DIR',
    'x-secret': true,
    description: 'A `postgres://` URL: PostgreSQL instead of the embedded database (several instances also need REDIS_URL).',
  }),
  REDIS_URL: Type.String({
    'x-default': 'none: shared state stays in this process',
    'x-secret': true,
    description: 'A `redis://` URL: the state several instances share (rate counters, revocations, wake-ups, leases).',
  }),
  DATABASE_LOCK_TIMEOUT: Type.Integer({
    minimum: 10,
    maximum: 600_000,
    default: 5000,
    description:
      'PostgreSQL only: milliseconds a statement waits for a row or key another transaction holds before the request answers 503 with `Retry-After` (`lock_timeout`).',
  }),
  DATABASE_STATEMENT_TIMEOUT: Type.Integer({
    minimum: 100,
    maximum: 3_600_000,
    default: 30_000,
    description:
      'PostgreSQL only: milliseconds one statement may run before it is ended and the request answers 503 (`statement_timeout`).',
  }),
  INSTANCE_ID: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[A-Za-z0-9._:-]+$',
    'x-default': 'HOSTNAME-PID',
    description: 'The name of this instance in /health and the logs (which instance ran the cron tasks last).',
  }),
  PUBLIC_URL: Type.String({
    'x-default': 'http://localhost:PORT',
    description: "Base URL clients use to reach the API (the spec's `base_url`).",
  }),
  AUTH_URL: Type.String({ 'x-default': 'PUBLIC_URL', description: 'URL of the authorization server; the `iss` of every token.' }),
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((l) => Type.Literal(l)),
    { default: 'info', description: 'Lowest level written to the log: `debug`, `info`, `warn` or `error`.' },
  ),
  TRUSTED_PROXIES: Type.String({
    default: '',
    description: 'Comma-separated IPs or CIDR ranges of reverse proxies whose `X-Forwarded-For` is believed.',
  }),
  MAX_BODY_BYTES: Type.Integer({
    minimum: 1024,
    maximum: 1024 * MiB,
    default: MiB,
    description: 'Largest request body accepted, in bytes; larger bodies get 413.',
  }),
  IMPORT_MAX_BYTES: Type.Integer({
    minimum: 1024,
    maximum: 1024 * MiB,
    default: 20 * MiB,
    description: 'Largest CSV file `POST /api/v1/contacts/import` accepts, in bytes; larger files get 413.',
  }),
  IMPORT_MAX_ROWS: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 10_000,
    description: 'Most data rows one CSV import may hold; a file with more gets 413 and imports nothing.',
  }),
  UPLOAD_MAX_BYTES: Type.Integer({
    minimum: 1024,
    maximum: 4096 * MiB,
    default: 25 * MiB,
    description: 'Largest file `POST /api/v1/uploads` (and a raw recording) accepts, in bytes; larger files get 413 and nothing is stored.',
  }),
  UPLOAD_EXPIRY: Type.Integer({
    minimum: 1,
    maximum: 7 * 86_400,
    default: 3600,
    description: 'Seconds an upload may stay unattached; the cron loop then marks it `expired` and removes its bytes.',
  }),
  SIGNED_URL_TTL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 300,
    description: 'Lifetime of the signed download URLs of uploads and recordings, in seconds.',
  }),
  S3_BUCKET: Type.String({
    minLength: 1,
    'x-default': 'none: files are kept under DATA_DIR/files',
    description: 'An S3 bucket to keep uploaded files in instead of the local disk (required for several instances).',
  }),
  S3_ENDPOINT: Type.String({
    'x-default': "AWS's endpoint for S3_REGION",
    description: 'Base URL of an S3-compatible service (MinIO, R2, Ceph, ...); path-style requests.',
  }),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1', description: 'The S3 region.' }),
  S3_ACCESS_KEY_ID: Type.String({ minLength: 1, 'x-default': '(none)', description: 'The S3 access key id.' }),
  S3_SECRET_ACCESS_KEY: Type.String({ minLength: 1, 'x-default': '(none)', 'x-secret': true, description: 'The S3 secret access key.' }),
  AGENT_IDLE_TIMEOUT: Type.Integer({
    minimum: 1,
    maximum: 7 * 86_400,
    default: 1800,
    description: 'Seconds without a request after which the cron loop logs out an agent whose `auto_offline` is on.',
  }),
  PAYMENT_PROVIDER: Type.Union([Type.Literal('manual'), Type.Literal('stripe')], {
    default: 'manual',
    description:
      '`manual`: invoices are sent and paid by bank transfer, recorded by the operator or the organization; `stripe`: cards charged through Stripe PaymentIntents.',
  }),
  STRIPE_SECRET_KEY: Type.String({
    minLength: 1,
    'x-default': '(none)',
    'x-secret': true,
    description: 'The Stripe secret key (`PAYMENT_PROVIDER=stripe`).',
  }),
  STRIPE_WEBHOOK_SECRET: Type.String({
    minLength: 1,
    'x-default': '(none)',
    'x-secret': true,
    description: "The signing secret of Stripe's webhook endpoint `/api/v1/integrations/stripe/webhook` (`PAYMENT_PROVIDER=stripe`).",
  }),
  STRIPE_API_URL: Type.String({
    default: 'https://api.stripe.com',
    description: "Base URL of Stripe's API (another only for a Stripe-compatible test server).",
  }),
  BILLING_RETRY_SCHEDULE: Type.String({
    default: '1d,3d,5d,7d',
    description:
      'After a renewal payment fails: when it is retried, counted from the first failure (whole numbers with `s`, `m`, `h` or `d`); after the last, the subscription is canceled or unpaid.',
  }),
  BILLING_INCOMPLETE_EXPIRY: Type.String({
    default: '23h',
    description:
      "How long a new subscription's first invoice may stay unpaid before it becomes `incomplete_expired` (as Stripe's 23 hours).",
  }),
  INVOICE_ISSUER: Type.String({
    minLength: 1,
    maxLength: 500,
    default: 'Switchboard',
    description: 'Who issues the invoices, as printed at the top of each PDF: a name, then address lines separated by `\\n`.',
  }),
  BILLING_INTERVAL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 60,
    description: 'How often the cron loop renews subscriptions, retries payments and expires subscriptions, in seconds.',
  }),
  ENGAGEMENT_REOPEN_HOURS: Type.Number({
    minimum: 0,
    maximum: 720,
    default: 24,
    description:
      "Hours after a session closed within which a contact's new inbound message reopens it (later: a new session). Decimals allowed (0.001 is 3.6 s).",
  }),
  ENGAGEMENT_AUTO_CLOSE_MINUTES: Type.Number({
    minimum: 0.01,
    maximum: 43_200,
    default: 1440,
    description:
      'Minutes without activity after which the cron loop closes an active session (`close_reason: auto_inactive`). Decimals allowed (0.05 is 3 s).',
  }),
  ENGAGEMENT_INTERVAL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 60,
    description: 'How often the cron loop wakes snoozed sessions, closes inactive ones and expires survey offers, in seconds.',
  }),
  SURVEY_EXPIRY_HOURS: Type.Number({
    minimum: 0.001,
    maximum: 8760,
    default: 168,
    description: 'Hours a survey offer stays answerable before the cron loop marks it `expired`. Decimals allowed (0.001 is 3.6 s).',
  }),
  EVENT_STREAM_HEARTBEAT: Type.Integer({
    minimum: 1,
    maximum: 300,
    default: 15,
    description: 'Seconds between the comments `GET /api/v1/events/stream` sends when idle, so proxies keep the connection.',
  }),
  EVENT_STREAM_POLL: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 3,
    description:
      'Seconds between the database checks of open event streams for events they were not signalled about (written by another instance whose signal through Redis was lost).',
  }),
  CRON_TICK_MS: Type.Integer({
    minimum: 10,
    maximum: 60_000,
    default: 1000,
    description: 'How often the cron loop looks for due tasks, in milliseconds.',
  }),
  ADMIN_EMAIL: Type.String({
    minLength: 3,
    default: 'admin@switchboard.local',
    description: 'E-mail of the Super Admin created on the first start.',
  }),
  ADMIN_PASSWORD: Type.String({
    minLength: 8,
    maxLength: 256,
    'x-default': '(generated)',
    'x-secret': true,
    description: 'Password of that Super Admin.',
  }),
  MASTER_KEY: Type.String({ 'x-default': 'DATA_DIR/master.key', 'x-secret': true, description: 'Key that encrypts signing keys at rest.' }),
  API_AUDIENCE: Type.String({ minLength: 1, 'x-default': 'PUBLIC_URL', description: 'The `aud` of access tokens.' }),
  ACCESS_TOKEN_TTL: Type.Integer({ minimum: 60, maximum: 86_400, default: 3600, description: 'Access token lifetime, in seconds.' }),
  REFRESH_TOKEN_TTL: Type.Integer({
    minimum: 300,
    maximum: 31_536_000,
    default: 2_592_000,
    description: 'Refresh token lifetime, in seconds.',
  }),
  SESSION_MAX_AGE: Type.Integer({
    minimum: 60,
    maximum: 31_536_000,
    default: 2_592_000,
    description: 'Absolute lifetime of a session from sign-in, in seconds; refreshing never extends it.',
  }),
  MFA_TOKEN_TTL: Type.Integer({
    minimum: 60,
    maximum: 900,
    default: 300,
    description: 'Lifetime of the `mfa_token` a login returns when the user has MFA on, in seconds.',
  }),
  AUTH_CLEANUP_INTERVAL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 300,
    description: 'Seconds between runs of the cron task that deletes expired revocations, refresh tokens and MFA challenges.',
  }),
  KEY_ACTIVATION_DELAY: Type.Integer({
    minimum: 0,
    maximum: 2_592_000,
    default: 600,
    description: 'Seconds between publishing a rotated signing key and signing with it.',
  }),
  PAGE_TOKEN_TTL: Type.Integer({ minimum: 60, maximum: 86_400, default: 3600, description: 'Lifetime of list page tokens, in seconds.' }),
  TICKET_AUTO_CLOSE_DAYS: Type.Integer({
    minimum: 1,
    maximum: 365,
    default: 4,
    description: 'Days after which a solved ticket is closed.',
  }),
  TICKET_AUTO_CLOSE_INTERVAL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 600,
    description: 'Seconds between runs of the cron task that closes solved tickets.',
  }),
  SMS_PROVIDER: Type.Union(
    SMS_PROVIDERS.map((p) => Type.Literal(p)),
    {
      default: 'log',
      description: 'How MFA text messages are sent: `log` (written to the server log, for development), `webhook` or `twilio`.',
    },
  ),
  SMS_WEBHOOK_URL: Type.String({
    'x-default': '(none)',
    description: 'With `SMS_PROVIDER=webhook`: URL that receives `POST {to, text}`, signed with `SMS_WEBHOOK_SECRET`.',
  }),
  SMS_WEBHOOK_SECRET: Type.String({
    minLength: 16,
    maxLength: 256,
    'x-default': '(none)',
    'x-secret': true,
    description: 'HMAC-SHA256 key of the `X-Service-Signature` header of SMS webhook calls.',
  }),
  TWILIO_ACCOUNT_SID: Type.String({ 'x-default': '(none)', description: 'With `SMS_PROVIDER=twilio`: the account SID.' }),
  TWILIO_AUTH_TOKEN: Type.String({ 'x-default': '(none)', 'x-secret': true, description: 'The Twilio auth token.' }),
  TWILIO_FROM: Type.String({
    'x-default': '(none)',
    description: 'The Twilio sender: a phone number in E.164 form or a messaging service SID.',
  }),
  TWILIO_API_URL: Type.String({
    default: 'https://api.twilio.com',
    description: "Base URL of Twilio's REST API (change it only to go through a proxy).",
  }),
  RATE_LIMITS_ENABLED: Type.Boolean({
    default: true,
    description: 'Request-rate limits and the `X-RateLimit-*` headers; `false` turns both off (private installs).',
  }),
  ORG_LIMIT_FACTOR: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 5,
    description: "An organization's budget, all its users together, as a multiple of one user's plan rates.",
  }),
  UNAUTH_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 60,
    description: 'Unauthenticated requests accepted per minute from one client address (an IPv6 /64).',
  }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 120_000,
    default: 30_000,
    description: 'How long a webhook receiver has to answer, in milliseconds; no 2xx within it is a failure.',
  }),
  WEBHOOK_RETRY_SCHEDULE: Type.String({
    default: '0,60,300,1800,7200,28800',
    description: "Seconds before each delivery attempt, comma-separated: the spec's six attempts by default.",
  }),
  WEBHOOK_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 1024,
    default: 32,
    description: 'Webhook deliveries in flight at once, all webhooks together.',
  }),
  WEBHOOK_CONCURRENCY_PER_WEBHOOK: Type.Integer({
    minimum: 1,
    maximum: 1024,
    default: 4,
    description: 'Webhook deliveries in flight at once to one webhook.',
  }),
  WEBHOOK_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30, description: 'Days a webhook delivery record is kept.' }),
} satisfies Record<string, TSchema>

export type SettingName = keyof typeof SETTINGS

/**
 * Settings that no longer exist and would silently change what the server does if ignored: given at
 * start, they stop it with this line. WEBHOOK_ALLOWED_CIDRS opened internal ranges to every tenant,
 * who sees 16 KB of each answer; the operator now allows ranges per organization.
 */
export const REPLACED_SETTINGS: Readonly<Record<string, string>> = {
  WEBHOOK_ALLOWED_CIDRS:
    'WEBHOOK_ALLOWED_CIDRS was replaced by the per-organization command `switchboard org webhook-cidrs <org_id> --set <cidrs>`; unset it',
}

export interface Config {
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
  readonly authUrl: string
  readonly logLevel: LogLevel
  readonly trustedProxies: readonly Cidr[]
  readonly maxBodyBytes: number
  readonly importMaxBytes: number
  readonly importMaxRows: number
  readonly uploads: {
    readonly maxBytes: number
    /** An unattached upload expires this long after it was made. */
    readonly expiryMs: number
    readonly signedUrlTtlS: number
  }
  /** Where uploaded files are kept: undefined keeps them under DATA_DIR/files. */
  readonly s3: S3Config | undefined
  /** An agent with auto_offline is logged out after this long without a request. */
  readonly agentIdleTimeoutMs: number
  readonly billing: BillingConfig
  readonly engagements: {
    /** A closed session reopens on an inbound message within this long. */
    readonly reopenMs: number
    /** An active session without activity this long is closed by the cron loop. */
    readonly autoCloseMs: number
    /** How often the engagement and survey cron tasks run. */
    readonly intervalMs: number
  }
  /** An unanswered survey offer expires this long after it was made. */
  readonly surveyExpiryMs: number
  readonly eventStreamHeartbeatMs: number
  readonly eventStreamPollMs: number
  readonly cronTickMs: number
  readonly adminEmail: string
  /** Undefined: the first start generates one and prints it once. */
  readonly adminPassword: string | undefined
  /** 32 bytes, or undefined: a key file in DATA_DIR is used (and made on first start). */
  readonly masterKey: Uint8Array | undefined
  readonly masterKeyPath: string
  readonly apiAudience: string
  readonly accessTokenTtlS: number
  readonly refreshTokenTtlS: number
  /** No token of a session outlives its sign-in by more than this (refresh tokens and access tokens alike). */
  readonly sessionMaxAgeS: number
  readonly mfaTokenTtlS: number
  readonly authCleanupIntervalMs: number
  readonly keyActivationDelayS: number
  readonly pageTokenTtlS: number
  readonly ticketAutoCloseDays: number
  readonly ticketAutoCloseIntervalMs: number
  readonly sms: SmsConfig
  readonly rateLimits: { readonly enabled: boolean; readonly orgLimitFactor: number; readonly unauthPerMinute: number }
  readonly webhooks: {
    readonly timeoutMs: number
    /** Milliseconds before each attempt; its length is the number of attempts. */
    readonly retryScheduleMs: readonly number[]
    readonly concurrency: number
    readonly perWebhookConcurrency: number
    readonly retentionDays: number
  }
}

/** A setting is invalid; the message is one line naming the variable and what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** `DATA_DIR` -> `data-dir`: every setting can also be given as `--data-dir VALUE`. */
export function flagName(setting: SettingName): string {
  return setting.toLowerCase().replaceAll('_', '-')
}

export type Env = Record<string, string | undefined>

/**
 * Reads each setting from `flags` (by flag name) first, then `env`, then its default.
 * Empty values count as unset. Throws ConfigError on the first invalid setting.
 */
export function loadConfig(env: Env, flags: Record<string, string | undefined> = {}, cwd = process.cwd()): Config {
  const replaced = Object.keys(REPLACED_SETTINGS).find((name) => (flags[flagName(name as SettingName)] ?? env[name] ?? '') !== '')
  if (replaced) throw new ConfigError(REPLACED_SETTINGS[replaced]!)
  const raw: Record<string, unknown> = {}
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const value = flags[flagName(name)] ?? env[name]
    if (value !== undefined && value !== '') raw[name] = coerce(SETTINGS[name], value.trim())
  }
  const schema = Type.Object(Object.fromEntries(Object.entries(SETTINGS).map(([k, s]) => [k, 'x-default' in s ? Type.Optional(s) : s])))
  const values = Value.Default(schema, raw) as Record<string, unknown>
  const first = Value.Errors(schema, values).First()
  if (first) {
    const name = first.path.slice(1) as SettingName
    // Secrets are never echoed, not even into an error message.
    const got = 'x-secret' in SETTINGS[name] ? '' : ` (got ${JSON.stringify(raw[name])})`
    throw new ConfigError(`${name} ${expectation(SETTINGS[name])}${got}`)
  }
  const port = values.PORT as number
  const publicUrl = parseUrl('PUBLIC_URL', (values.PUBLIC_URL as string | undefined) ?? `http://localhost:${port}`)
  const authUrl = parseUrl('AUTH_URL', (values.AUTH_URL as string | undefined) ?? publicUrl)
  const dataDir = resolve(cwd, values.DATA_DIR as string)
  // Several instances share state through Redis on one PostgreSQL; the embedded file serves one instance only.
  const redisUrl =
    values.REDIS_URL === undefined ? undefined : parseServiceUrl('REDIS_URL', values.REDIS_URL as string, ['redis:', 'rediss:'])
  if (redisUrl !== undefined && values.DATABASE_URL === undefined)
    throw new ConfigError('REDIS_URL needs DATABASE_URL: the embedded database serves one instance, which keeps its state in memory')
  // Files on one instance's disk are not seen by the others.
  if (redisUrl !== undefined && values.S3_BUCKET === undefined)
    throw new ConfigError("REDIS_URL (several instances) needs S3_BUCKET: a file kept on one instance's disk is missing on the others")
  // A session ends with its refresh token; an access token outliving it would outlive the session too.
  if ((values.REFRESH_TOKEN_TTL as number) < (values.ACCESS_TOKEN_TTL as number)) {
    throw new ConfigError(`REFRESH_TOKEN_TTL (${values.REFRESH_TOKEN_TTL}) must be at least ACCESS_TOKEN_TTL (${values.ACCESS_TOKEN_TTL})`)
  }
  return Object.freeze({
    port,
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
    authUrl,
    logLevel: values.LOG_LEVEL as LogLevel,
    trustedProxies: Object.freeze(parseCidrList('TRUSTED_PROXIES', values.TRUSTED_PROXIES as string)),
    maxBodyBytes: values.MAX_BODY_BYTES as number,
    importMaxBytes: values.IMPORT_MAX_BYTES as number,
    importMaxRows: values.IMPORT_MAX_ROWS as number,
    uploads: Object.freeze({
      maxBytes: values.UPLOAD_MAX_BYTES as number,
      expiryMs: (values.UPLOAD_EXPIRY as number) * 1000,
      signedUrlTtlS: values.SIGNED_URL_TTL as number,
    }),
    s3: parseS3(values),
    agentIdleTimeoutMs: (values.AGENT_IDLE_TIMEOUT as number) * 1000,
    billing: parseBilling(values),
    engagements: Object.freeze({
      reopenMs: Math.round((values.ENGAGEMENT_REOPEN_HOURS as number) * 3_600_000),
      autoCloseMs: Math.round((values.ENGAGEMENT_AUTO_CLOSE_MINUTES as number) * 60_000),
      intervalMs: (values.ENGAGEMENT_INTERVAL as number) * 1000,
    }),
    surveyExpiryMs: Math.round((values.SURVEY_EXPIRY_HOURS as number) * 3_600_000),
    eventStreamHeartbeatMs: (values.EVENT_STREAM_HEARTBEAT as number) * 1000,
    eventStreamPollMs: (values.EVENT_STREAM_POLL as number) * 1000,
    cronTickMs: values.CRON_TICK_MS as number,
    adminEmail: parseEmail('ADMIN_EMAIL', values.ADMIN_EMAIL as string),
    adminPassword: values.ADMIN_PASSWORD as string | undefined,
    masterKey: values.MASTER_KEY === undefined ? undefined : parseMasterKey(values.MASTER_KEY as string),
    masterKeyPath: join(dataDir, 'master.key'),
    apiAudience: (values.API_AUDIENCE as string | undefined) ?? publicUrl,
    accessTokenTtlS: values.ACCESS_TOKEN_TTL as number,
    refreshTokenTtlS: values.REFRESH_TOKEN_TTL as number,
    sessionMaxAgeS: values.SESSION_MAX_AGE as number,
    mfaTokenTtlS: values.MFA_TOKEN_TTL as number,
    authCleanupIntervalMs: (values.AUTH_CLEANUP_INTERVAL as number) * 1000,
    keyActivationDelayS: values.KEY_ACTIVATION_DELAY as number,
    pageTokenTtlS: values.PAGE_TOKEN_TTL as number,
    ticketAutoCloseDays: values.TICKET_AUTO_CLOSE_DAYS as number,
    ticketAutoCloseIntervalMs: (values.TICKET_AUTO_CLOSE_INTERVAL as number) * 1000,
    sms: Object.freeze(parseSms(values)),
    rateLimits: Object.freeze({
      enabled: values.RATE_LIMITS_ENABLED as boolean,
      orgLimitFactor: values.ORG_LIMIT_FACTOR as number,
      unauthPerMinute: values.UNAUTH_PER_MINUTE as number,
    }),
    webhooks: Object.freeze({
      timeoutMs: values.WEBHOOK_TIMEOUT_MS as number,
      retryScheduleMs: Object.freeze(parseRetrySchedule(values.WEBHOOK_RETRY_SCHEDULE as string)),
      concurrency: values.WEBHOOK_CONCURRENCY as number,
      perWebhookConcurrency: values.WEBHOOK_CONCURRENCY_PER_WEBHOOK as number,
      retentionDays: values.WEBHOOK_RETENTION_DAYS as number,
    }),
  })
}

function parseS3(values: Record<string, unknown>): S3Config | undefined {
  if (values.S3_BUCKET === undefined) {
    const stray = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).find((name) => values[name] !== undefined)
    if (stray) throw new ConfigError(`${stray} is set but S3_BUCKET is not: files would stay on the local disk`)
    return undefined
  }
  const missing = (['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => values[name] === undefined)
  if (missing.length > 0) throw new ConfigError(`${missing.join(' and ')} must be set when S3_BUCKET is`)
  return Object.freeze({
    bucket: values.S3_BUCKET as string,
    endpoint: values.S3_ENDPOINT === undefined ? undefined : parseUrl('S3_ENDPOINT', values.S3_ENDPOINT as string),
    region: values.S3_REGION as string,
    accessKeyId: values.S3_ACCESS_KEY_ID as string,
    secretAccessKey: values.S3_SECRET_ACCESS_KEY as string,
  })
}

export interface BillingConfig {
  readonly provider: 'manual' | 'stripe'
  /** Set when the provider is Stripe. */
  readonly stripe: { readonly secretKey: string; readonly webhookSecret: string; readonly apiUrl: string } | undefined
  /** Delays after the first failed renewal payment at which it is retried, ascending (ms). */
  readonly retryScheduleMs: readonly number[]
  readonly incompleteExpiryMs: number
  readonly intervalMs: number
  /** The issuer block of the invoices' PDFs, one line each. */
  readonly invoiceIssuer: readonly string[]
}

function parseBilling(values: Record<string, unknown>): BillingConfig {
  const provider = values.PAYMENT_PROVIDER as BillingConfig['provider']
  const names = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const
  let stripe: BillingConfig['stripe']
  if (provider === 'stripe') {
    const missing = names.filter((name) => values[name] === undefined)
    if (missing.length > 0) throw new ConfigError(`${missing.join(' and ')} must be set when PAYMENT_PROVIDER is stripe`)
    stripe = Object.freeze({
      secretKey: values.STRIPE_SECRET_KEY as string,
      webhookSecret: values.STRIPE_WEBHOOK_SECRET as string,
      apiUrl: parseUrl('STRIPE_API_URL', values.STRIPE_API_URL as string),
    })
  } else {
    const stray = names.find((name) => values[name] !== undefined)
    if (stray) throw new ConfigError(`${stray} is set but PAYMENT_PROVIDER is not stripe`)
  }
  const schedule = parseDurations('BILLING_RETRY_SCHEDULE', values.BILLING_RETRY_SCHEDULE as string, 10)
  if (schedule.some((ms, i) => i > 0 && ms <= schedule[i - 1]!))
    throw new ConfigError(`BILLING_RETRY_SCHEDULE must be ascending (got ${JSON.stringify(values.BILLING_RETRY_SCHEDULE)})`)
  const [incompleteExpiryMs] = parseDurations('BILLING_INCOMPLETE_EXPIRY', values.BILLING_INCOMPLETE_EXPIRY as string, 1)
  return Object.freeze({
    provider,
    stripe,
    retryScheduleMs: Object.freeze(schedule),
    incompleteExpiryMs: incompleteExpiryMs!,
    intervalMs: (values.BILLING_INTERVAL as number) * 1000,
    invoiceIssuer: Object.freeze(
      (values.INVOICE_ISSUER as string)
        .split('\\n')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    ),
  })
}

const DURATION_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** Comma-separated durations such as `1d,3d` or `90s` (1 second to 365 days each), in ms. */
function parseDurations(name: SettingName, text: string, max: number): number[] {
  const parts = text.split(',').map((p) => p.trim())
  const fail = (why: string) => new ConfigError(`${name} ${why} (got ${JSON.stringify(text)})`)
  if (parts.length > max) throw fail(max === 1 ? 'must be one duration' : `must list at most ${max} durations`)
  return parts.map((part) => {
    const match = /^(\d{1,6})([smhd])$/.exec(part)
    const ms = match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : 0
    if (ms < 1000 || ms > 365 * 86_400_000) throw fail('must be whole numbers with a unit (s, m, h or d), from 1s to 365d')
    return ms
  })
}

function parseSms(values: Record<string, unknown>): SmsConfig {
  const provider = values.SMS_PROVIDER as (typeof SMS_PROVIDERS)[number]
  const need = (names: SettingName[]) => {
    const missing = names.filter((name) => values[name] === undefined)
    if (missing.length > 0) throw new ConfigError(`${missing.join(' and ')} must be set when SMS_PROVIDER is ${provider}`)
  }
  if (provider === 'webhook') {
    need(['SMS_WEBHOOK_URL', 'SMS_WEBHOOK_SECRET'])
    return {
      provider,
      url: parseEndpointUrl('SMS_WEBHOOK_URL', values.SMS_WEBHOOK_URL as string),
      secret: values.SMS_WEBHOOK_SECRET as string,
    }
  }
  if (provider === 'twilio') {
    need(['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'])
    return {
      provider,
      accountSid: values.TWILIO_ACCOUNT_SID as string,
      authToken: values.TWILIO_AUTH_TOKEN as string,
      from: values.TWILIO_FROM as string,
      apiUrl: parseUrl('TWILIO_API_URL', values.TWILIO_API_URL as string),
    }
  }
  return { provider: 'log' }
}

/** `0,60,300`: 1 to 20 attempts, each delay 0 to 7 days in whole seconds, the first one 0 (attempt 1 goes at once). */
function parseRetrySchedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim())
  const fail = (why: string) => new ConfigError(`WEBHOOK_RETRY_SCHEDULE ${why} (got ${JSON.stringify(text)})`)
  if (parts.length > 20) throw fail('must list at most 20 attempts')
  const delays = parts.map((p) => {
    if (!/^\d{1,6}$/.test(p) || Number(p) > 7 * 86_400) throw fail('must be comma-separated whole seconds, each at most 604800')
    return Number(p) * 1000
  })
  if (delays[0] !== 0) throw fail('must start with 0: the first attempt goes at once')
  return delays
}

function parseEmail(name: SettingName, text: string): string {
  if (!isEmailAddress(text)) throw new ConfigError(`${name} must be an e-mail address (got ${JSON.stringify(text)})`)
  return text.toLowerCase()
}

/** 32 bytes, written as 64 hex digits or as base64 (44 characters); `openssl rand -base64 32` makes one. */
export function parseMasterKey(text: string): Uint8Array {
  const bytes = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/]{43}=$/.test(text)
      ? Buffer.from(text, 'base64')
      : undefined
  if (bytes?.length !== 32) throw new ConfigError('MASTER_KEY must be 32 bytes written as 64 hex digits or 44 base64 characters')
  return new Uint8Array(bytes)
}

// Numbers arrive as text; accept plain decimal digits only (and a decimal point where fractions are
// allowed), so "1e3", "0x10", ".5" or "12abc" are refused.
function coerce(schema: TSchema, text: string): unknown {
  if (schema.type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : text
  if (schema.type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text
  if (schema.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text
  return text
}

function expectation(schema: TSchema): string {
  if (schema.type === 'integer') return `must be an integer from ${schema.minimum} to ${schema.maximum}`
  if (schema.type === 'number') return `must be a number from ${schema.minimum} to ${schema.maximum} (decimals allowed)`
  if (schema.type === 'boolean') return 'must be true or false'
  if (schema.maxLength !== undefined) return `must be ${schema.minLength ?? 0} to ${schema.maxLength} characters`
  if (Array.isArray(schema.anyOf)) return `must be one of: ${schema.anyOf.map((s: TSchema) => s.const).join(', ')}`
  return 'must not be empty'
}

function parseUrl(name: SettingName, text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got ${JSON.stringify(text)})`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`${name} must be an http(s) URL without credentials, query or fragment (got ${JSON.stringify(text)})`)
  }
  return url.href.replace(/\/+$/, '')
}

/** A service's URL (credentials allowed, they are the point); never echoed back in an error. */
function parseServiceUrl(name: SettingName, text: string, protocols: string[]): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ConfigError(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`)
  }
  if (!protocols.includes(url.protocol) || url.hostname === '') {
    throw new ConfigError(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}, with a host`)
  }
  return text
}

/** An http(s) URL to call; unlike a base URL it may carry a query string. */
function parseEndpointUrl(name: SettingName, text: string): string {
  const url = URL.parse(text)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.hash) {
    throw new ConfigError(`${name} must be an absolute http(s) URL without credentials or fragment (got ${JSON.stringify(text)})`)
  }
  return url.href
}

function parseCidrList(name: SettingName, text: string): Cidr[] {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  const bad = items.filter((s) => !parseCidr(s))
  if (bad.length > 0) throw new ConfigError(`${name} has invalid IP addresses or CIDR ranges: ${bad.join(', ')}`)
  return items.map((s) => parseCidr(s)!)
}
