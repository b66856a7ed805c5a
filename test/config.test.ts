// Configuration: defaults, environment vs flags, derived URLs, and a one-line refusal for every invalid value.
import { describe, expect, test } from 'bun:test'
import { hostname } from 'node:os'
import { ConfigError, flagName, loadConfig, SETTINGS } from '../src/config.ts'

describe('loadConfig', () => {
  test('DATABASE_URL and REDIS_URL: their schemes only, never echoed when refused', () => {
    const config = loadConfig(
      {
        DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/switchboard',
        REDIS_URL: 'redis://cache:6379',
        S3_BUCKET: 'files',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
      },
      {},
      '/srv/app',
    )
    expect(config.databaseUrl).toBe('postgres://app:s3cret@db.internal:5432/switchboard')
    expect(config.redisUrl).toBe('redis://cache:6379')
    expect(() => loadConfig({ DATABASE_URL: 'mysql://app:s3cret@db/x' }, {}, '/srv/app')).toThrow(
      'DATABASE_URL must be a URL starting with postgres:// or postgresql://, with a host',
    )
    expect(() => loadConfig({ REDIS_URL: 'not a url s3cret' }, {}, '/srv/app')).toThrow(
      'REDIS_URL must be a URL starting with redis:// or rediss://',
    )
    try {
      loadConfig({ DATABASE_URL: 'mysql://app:s3cret@db/x' }, {}, '/srv/app')
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret')
    }
  })

  test('REDIS_URL alone is refused: the embedded database serves one instance', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }, {}, '/srv/app')).toThrow('REDIS_URL needs DATABASE_URL')
  })

  test('REDIS_URL (several instances) needs S3 storage: a file on one disk is missing on the others', () => {
    const cluster = { DATABASE_URL: 'postgres://db/app', REDIS_URL: 'redis://cache:6379' }
    expect(() => loadConfig(cluster, {}, '/srv/app')).toThrow('REDIS_URL (several instances) needs S3_BUCKET')
  })

  test('S3 storage: the bucket with both keys; a key without a bucket is refused, the secret never echoed', () => {
    const keys = { S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'sup3rsecret' }
    expect(loadConfig({ S3_BUCKET: 'files', S3_ENDPOINT: 'http://127.0.0.1:9000/', ...keys }, {}, '/srv/app').s3).toEqual({
      bucket: 'files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'sup3rsecret',
    })
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id' }, {}, '/srv/app')).toThrow(
      'S3_SECRET_ACCESS_KEY must be set when S3_BUCKET is',
    )
    expect(() => loadConfig(keys, {}, '/srv/app')).toThrow('S3_ACCESS_KEY_ID is set but S3_BUCKET is not')
    expect(() => loadConfig({ S3_BUCKET: 'files', S3_ENDPOINT: 'ftp://x', ...keys }, {}, '/srv/app')).toThrow('S3_ENDPOINT')
  })

  test('billing: Stripe needs both secrets, Stripe secrets without Stripe are refused, durations take units', () => {
    const secrets = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_y' }
    expect(
      loadConfig({ PAYMENT_PROVIDER: 'stripe', ...secrets, STRIPE_API_URL: 'http://127.0.0.1:12111/' }, {}, '/srv/app').billing.stripe,
    ).toEqual({
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_y',
      apiUrl: 'http://127.0.0.1:12111',
    })
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk' }, {}, '/srv/app')).toThrow(
      'STRIPE_WEBHOOK_SECRET must be set when PAYMENT_PROVIDER is stripe',
    )
    expect(() => loadConfig(secrets, {}, '/srv/app')).toThrow('STRIPE_SECRET_KEY is set but PAYMENT_PROVIDER is not stripe')
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' }, {}, '/srv/app')).toThrow('PAYMENT_PROVIDER')
    const billing = loadConfig({ BILLING_RETRY_SCHEDULE: '30s, 2m,1h', BILLING_INCOMPLETE_EXPIRY: '5s' }, {}, '/srv/app').billing
    expect(billing.retryScheduleMs).toEqual([30_000, 120_000, 3_600_000])
    expect(billing.incompleteExpiryMs).toBe(5000)
    expect(loadConfig({ INVOICE_ISSUER: 'Acme Hosting Ltd\\n1 Main St\\n London ' }, {}, '/srv/app').billing.invoiceIssuer).toEqual([
      'Acme Hosting Ltd',
      '1 Main St',
      'London',
    ])
    for (const bad of ['1d,1d', '3d,1d', '1w', '0s', '1.5d', ',', '366d'])
      expect(() => loadConfig({ BILLING_RETRY_SCHEDULE: bad }, {}, '/srv/app')).toThrow('BILLING_RETRY_SCHEDULE')
    expect(() => loadConfig({ BILLING_INCOMPLETE_EXPIRY: '1h,2h' }, {}, '/srv/app')).toThrow(
      'BILLING_INCOMPLETE_EXPIRY must be one duration',
    )
  })

  test('INSTANCE_ID names this instance; anything but a plain name is refused', () => {
    expect(loadConfig({ INSTANCE_ID: 'api-2' }, {}, '/srv/app').instanceId).toBe('api-2')
    expect(() => loadConfig({ INSTANCE_ID: 'two words' }, {}, '/srv/app')).toThrow('INSTANCE_ID')
  })

  test('defaults when nothing is set', () => {
    const config = loadConfig({}, {}, '/srv/app')
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/app/data',
      dbPath: '/srv/app/data/switchboard.db',
      databaseLockTimeoutMs: 5000,
      databaseStatementTimeoutMs: 30000,
      databaseUrl: undefined,
      redisUrl: undefined,
      instanceId: `${hostname()}-${process.pid}`,
      publicUrl: 'http://localhost:8080',
      authUrl: 'http://localhost:8080',
      logLevel: 'info',
      trustedProxies: [],
      maxBodyBytes: 1048576,
      importMaxBytes: 20971520,
      importMaxRows: 10000,
      uploads: { maxBytes: 26_214_400, expiryMs: 3_600_000, signedUrlTtlS: 300 },
      s3: undefined,
      agentIdleTimeoutMs: 1_800_000,
      billing: {
        provider: 'manual',
        stripe: undefined,
        retryScheduleMs: [86_400_000, 259_200_000, 432_000_000, 604_800_000],
        incompleteExpiryMs: 82_800_000,
        intervalMs: 60_000,
        invoiceIssuer: ['Switchboard'],
      },
      engagements: { reopenMs: 86_400_000, autoCloseMs: 86_400_000, intervalMs: 60_000 },
      surveyExpiryMs: 604_800_000,
      eventStreamHeartbeatMs: 15_000,
      eventStreamPollMs: 3000,
      cronTickMs: 1000,
      adminEmail: 'admin@switchboard.local',
      adminPassword: undefined,
      masterKey: undefined,
      masterKeyPath: '/srv/app/data/master.key',
      apiAudience: 'http://localhost:8080',
      accessTokenTtlS: 3600,
      refreshTokenTtlS: 2592000,
      sessionMaxAgeS: 2592000,
      mfaTokenTtlS: 300,
      authCleanupIntervalMs: 300_000,
      keyActivationDelayS: 600,
      pageTokenTtlS: 3600,
      ticketAutoCloseDays: 4,
      ticketAutoCloseIntervalMs: 600_000,
      reportsFoldIntervalMs: 10_000,
      sms: { provider: 'log' },
      rateLimits: { enabled: true, orgLimitFactor: 5, unauthPerMinute: 60 },
      webhooks: {
        timeoutMs: 30_000,
        retryScheduleMs: [0, 60_000, 300_000, 1_800_000, 7_200_000, 28_800_000],
        concurrency: 32,
        perWebhookConcurrency: 4,
        retentionDays: 30,
      },
    })
  })

  test('is frozen, lists included', () => {
    const config = loadConfig({ TRUSTED_PROXIES: '10.0.0.1' })
    expect(Object.isFrozen(config)).toBe(true)
    expect(Object.isFrozen(config.trustedProxies)).toBe(true)
  })

  test('reads every setting from the environment', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/sb',
        PUBLIC_URL: 'https://api.example.com/',
        AUTH_URL: 'https://auth.example.com',
        LOG_LEVEL: 'warn',
        TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.1 ,fd00::/8',
        MAX_BODY_BYTES: '2048',
        CRON_TICK_MS: '250',
      },
      {},
      '/ignored',
    )
    expect(config.port).toBe(9000)
    expect(config.host).toBe('127.0.0.1')
    expect(config.dataDir).toBe('/var/lib/sb')
    expect(config.publicUrl).toBe('https://api.example.com')
    expect(config.authUrl).toBe('https://auth.example.com')
    expect(config.logLevel).toBe('warn')
    expect(config.trustedProxies.map((c) => c.text)).toEqual(['10.0.0.0/8', '192.168.1.1', 'fd00::/8'])
    expect(config.maxBodyBytes).toBe(2048)
    expect(config.cronTickMs).toBe(250)
  })

  test('a flag overrides its environment variable', () => {
    const config = loadConfig({ PORT: '9000', LOG_LEVEL: 'warn' }, { port: '9001', 'data-dir': 'x' }, '/base')
    expect(config.port).toBe(9001)
    expect(config.logLevel).toBe('warn')
    expect(config.dataDir).toBe('/base/x')
  })

  test('PUBLIC_URL defaults from PORT and AUTH_URL from PUBLIC_URL', () => {
    expect(loadConfig({ PORT: '7000' }).publicUrl).toBe('http://localhost:7000')
    const config = loadConfig({ PUBLIC_URL: 'https://sb.example.org/base/' })
    expect(config.publicUrl).toBe('https://sb.example.org/base')
    expect(config.authUrl).toBe('https://sb.example.org/base')
  })

  test('identity settings', () => {
    const hex = 'ab'.repeat(32)
    const config = loadConfig({
      ADMIN_EMAIL: ' Boss@Example.COM',
      ADMIN_PASSWORD: 'long enough',
      MASTER_KEY: hex,
      API_AUDIENCE: 'https://api.example.com',
      ACCESS_TOKEN_TTL: '900',
      REFRESH_TOKEN_TTL: '86400',
      KEY_ACTIVATION_DELAY: '0',
    })
    expect(config.adminEmail).toBe('boss@example.com')
    expect(config.adminPassword).toBe('long enough')
    expect(Buffer.from(config.masterKey!).toString('hex')).toBe(hex)
    expect(config.apiAudience).toBe('https://api.example.com')
    expect([config.accessTokenTtlS, config.refreshTokenTtlS, config.keyActivationDelayS]).toEqual([900, 86400, 0])
    const base64 = Buffer.alloc(32, 7).toString('base64')
    expect(loadConfig({ MASTER_KEY: base64 }).masterKey).toEqual(new Uint8Array(32).fill(7))
  })

  test('the SMS provider and its settings', () => {
    expect(
      loadConfig({
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: 'https://bridge.example/sms?route=eu',
        SMS_WEBHOOK_SECRET: '0123456789abcdef',
      }).sms,
    ).toEqual({
      provider: 'webhook',
      url: 'https://bridge.example/sms?route=eu',
      secret: '0123456789abcdef',
    })
    expect(loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'tok', TWILIO_FROM: 'MG456' }).sms).toEqual(
      {
        provider: 'twilio',
        accountSid: 'AC123',
        authToken: 'tok',
        from: 'MG456',
        apiUrl: 'https://api.twilio.com',
      },
    )
    // Settings of a provider not chosen are ignored.
    expect(loadConfig({ SMS_WEBHOOK_URL: 'https://bridge.example/sms' }).sms).toEqual({ provider: 'log' })
  })

  test('an empty value counts as unset', () => {
    expect(loadConfig({ PORT: '', LOG_LEVEL: '' }).port).toBe(8080)
  })

  test('every setting has a flag named after it', () => {
    expect(Object.keys(SETTINGS).map((name) => flagName(name as keyof typeof SETTINGS))).toEqual([
      'port',
      'host',
      'data-dir',
      'database-url',
      'redis-url',
      'database-lock-timeout',
      'database-statement-timeout',
      'instance-id',
      'public-url',
      'auth-url',
      'log-level',
      'trusted-proxies',
      'max-body-bytes',
      'import-max-bytes',
      'import-max-rows',
      'upload-max-bytes',
      'upload-expiry',
      'signed-url-ttl',
      's3-bucket',
      's3-endpoint',
      's3-region',
      's3-access-key-id',
      's3-secret-access-key',
      'agent-idle-timeout',
      'payment-provider',
      'stripe-secret-key',
      'stripe-webhook-secret',
      'stripe-api-url',
      'billing-retry-schedule',
      'billing-incomplete-expiry',
      'invoice-issuer',
      'billing-interval',
      'engagement-reopen-hours',
      'engagement-auto-close-minutes',
      'engagement-interval',
      'survey-expiry-hours',
      'event-stream-heartbeat',
      'event-stream-poll',
      'cron-tick-ms',
      'admin-email',
      'admin-password',
      'master-key',
      'api-audience',
      'access-token-ttl',
      'refresh-token-ttl',
      'session-max-age',
      'mfa-token-ttl',
      'auth-cleanup-interval',
      'key-activation-delay',
      'page-token-ttl',
      'ticket-auto-close-days',
      'ticket-auto-close-interval',
      'reports-fold-interval',
      'sms-provider',
      'sms-webhook-url',
      'sms-webhook-secret',
      'twilio-account-sid',
      'twilio-auth-token',
      'twilio-from',
      'twilio-api-url',
      'rate-limits-enabled',
      'org-limit-factor',
      'unauth-per-minute',
      'webhook-timeout-ms',
      'webhook-retry-schedule',
      'webhook-concurrency',
      'webhook-concurrency-per-webhook',
      'webhook-retention-days',
    ])
  })
})

describe('refusals name the variable and what is wrong, in one line', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['port not a number', { PORT: 'abc' }, 'PORT must be an integer from 1 to 65535 (got "abc")'],
    ['port zero', { PORT: '0' }, 'PORT must be an integer from 1 to 65535 (got 0)'],
    ['port too large', { PORT: '65536' }, 'PORT must be an integer from 1 to 65535 (got 65536)'],
    ['port negative', { PORT: '-1' }, 'PORT must be an integer from 1 to 65535 (got -1)'],
    ['port fractional', { PORT: '80.5' }, 'PORT must be an integer from 1 to 65535 (got "80.5")'],
    ['port exponent', { PORT: '8e3' }, 'PORT must be an integer from 1 to 65535 (got "8e3")'],
    ['port hex', { PORT: '0x50' }, 'PORT must be an integer from 1 to 65535 (got "0x50")'],
    ['log level unknown', { LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of: debug, info, warn, error (got "verbose")'],
    ['log level case', { LOG_LEVEL: 'INFO' }, 'LOG_LEVEL must be one of: debug, info, warn, error (got "INFO")'],
    ['body limit too small', { MAX_BODY_BYTES: '1023' }, 'MAX_BODY_BYTES must be an integer from 1024 to 1073741824 (got 1023)'],
    ['body limit with unit', { MAX_BODY_BYTES: '1MB' }, 'MAX_BODY_BYTES must be an integer from 1024 to 1073741824 (got "1MB")'],
    ['cron tick too small', { CRON_TICK_MS: '9' }, 'CRON_TICK_MS must be an integer from 10 to 60000 (got 9)'],
    ['cron tick too large', { CRON_TICK_MS: '60001' }, 'CRON_TICK_MS must be an integer from 10 to 60000 (got 60001)'],
    [
      'auto-close below its smallest',
      { ENGAGEMENT_AUTO_CLOSE_MINUTES: '0.001' },
      'ENGAGEMENT_AUTO_CLOSE_MINUTES must be a number from 0.01 to 43200 (decimals allowed) (got 0.001)',
    ],
    [
      'survey expiry with an exponent',
      { SURVEY_EXPIRY_HOURS: '1e-3' },
      'SURVEY_EXPIRY_HOURS must be a number from 0.001 to 8760 (decimals allowed) (got "1e-3")',
    ],
    [
      'reopen window without a leading digit',
      { ENGAGEMENT_REOPEN_HOURS: '.5' },
      'ENGAGEMENT_REOPEN_HOURS must be a number from 0 to 720 (decimals allowed) (got ".5")',
    ],
    [
      'reopen window negative',
      { ENGAGEMENT_REOPEN_HOURS: '-1' },
      'ENGAGEMENT_REOPEN_HOURS must be a number from 0 to 720 (decimals allowed) (got -1)',
    ],
    [
      'public url not a url',
      { PUBLIC_URL: 'localhost:8080' },
      'PUBLIC_URL must be an http(s) URL without credentials, query or fragment (got "localhost:8080")',
    ],
    ['public url relative', { PUBLIC_URL: '/api' }, 'PUBLIC_URL must be an absolute http(s) URL (got "/api")'],
    [
      'public url ftp',
      { PUBLIC_URL: 'ftp://example.com' },
      'PUBLIC_URL must be an http(s) URL without credentials, query or fragment (got "ftp://example.com")',
    ],
    [
      'public url with query',
      { PUBLIC_URL: 'https://x.example?a=1' },
      'PUBLIC_URL must be an http(s) URL without credentials, query or fragment (got "https://x.example?a=1")',
    ],
    [
      'auth url with credentials',
      { AUTH_URL: 'https://u:p@x.example' },
      'AUTH_URL must be an http(s) URL without credentials, query or fragment (got "https://u:p@x.example")',
    ],
    [
      'trusted proxies with junk',
      { TRUSTED_PROXIES: '10.0.0.1,proxy.local,10.0.0.0/99' },
      'TRUSTED_PROXIES has invalid IP addresses or CIDR ranges: proxy.local, 10.0.0.0/99',
    ],
    ['admin e-mail malformed', { ADMIN_EMAIL: 'root@localhost' }, 'ADMIN_EMAIL must be an e-mail address (got "root@localhost")'],
    ['admin password too short, not echoed', { ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD must be 8 to 256 characters'],
    [
      'master key wrong length, not echoed',
      { MASTER_KEY: 'abcd' },
      'MASTER_KEY must be 32 bytes written as 64 hex digits or 44 base64 characters',
    ],
    ['access token ttl too short', { ACCESS_TOKEN_TTL: '59' }, 'ACCESS_TOKEN_TTL must be an integer from 60 to 86400 (got 59)'],
    [
      'refresh token ttl too long',
      { REFRESH_TOKEN_TTL: '31536001' },
      'REFRESH_TOKEN_TTL must be an integer from 300 to 31536000 (got 31536001)',
    ],
    ['session max age too short', { SESSION_MAX_AGE: '59' }, 'SESSION_MAX_AGE must be an integer from 60 to 31536000 (got 59)'],
    ['session max age too long', { SESSION_MAX_AGE: '31536001' }, 'SESSION_MAX_AGE must be an integer from 60 to 31536000 (got 31536001)'],
    ['mfa token ttl too short', { MFA_TOKEN_TTL: '59' }, 'MFA_TOKEN_TTL must be an integer from 60 to 900 (got 59)'],
    ['mfa token ttl too long', { MFA_TOKEN_TTL: '901' }, 'MFA_TOKEN_TTL must be an integer from 60 to 900 (got 901)'],
    ['auth cleanup interval zero', { AUTH_CLEANUP_INTERVAL: '0' }, 'AUTH_CLEANUP_INTERVAL must be an integer from 1 to 86400 (got 0)'],
    [
      'ticket auto-close interval too long',
      { TICKET_AUTO_CLOSE_INTERVAL: '86401' },
      'TICKET_AUTO_CLOSE_INTERVAL must be an integer from 1 to 86400 (got 86401)',
    ],
    ['activation delay negative', { KEY_ACTIVATION_DELAY: '-5' }, 'KEY_ACTIVATION_DELAY must be an integer from 0 to 2592000 (got -5)'],
    [
      'refresh tokens shorter-lived than access tokens',
      { ACCESS_TOKEN_TTL: '3600', REFRESH_TOKEN_TTL: '600' },
      'REFRESH_TOKEN_TTL (600) must be at least ACCESS_TOKEN_TTL (3600)',
    ],
    [
      'sms webhook without its url and secret',
      { SMS_PROVIDER: 'webhook' },
      'SMS_WEBHOOK_URL and SMS_WEBHOOK_SECRET must be set when SMS_PROVIDER is webhook',
    ],
    [
      'sms webhook secret too short, not echoed',
      { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example/send', SMS_WEBHOOK_SECRET: 'short' },
      'SMS_WEBHOOK_SECRET must be 16 to 256 characters',
    ],
    [
      'sms webhook url not a url',
      { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'sms.example', SMS_WEBHOOK_SECRET: '0123456789abcdef' },
      'SMS_WEBHOOK_URL must be an absolute http(s) URL without credentials or fragment (got "sms.example")',
    ],
    [
      'twilio without its account',
      { SMS_PROVIDER: 'twilio', TWILIO_FROM: '+15005550006' },
      'TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must be set when SMS_PROVIDER is twilio',
    ],
    [
      'unknown sms provider',
      { SMS_PROVIDER: 'carrier-pigeon' },
      'SMS_PROVIDER must be one of: log, webhook, twilio (got "carrier-pigeon")',
    ],
    ['rate limits neither true nor false', { RATE_LIMITS_ENABLED: 'yes' }, 'RATE_LIMITS_ENABLED must be true or false (got "yes")'],
    ['organization factor zero', { ORG_LIMIT_FACTOR: '0' }, 'ORG_LIMIT_FACTOR must be an integer from 1 to 100 (got 0)'],
    [
      'retry schedule not starting at once',
      { WEBHOOK_RETRY_SCHEDULE: '60,300' },
      'WEBHOOK_RETRY_SCHEDULE must start with 0: the first attempt goes at once (got "60,300")',
    ],
    [
      'retry schedule with a fraction',
      { WEBHOOK_RETRY_SCHEDULE: '0,1.5' },
      'WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds, each at most 604800 (got "0,1.5")',
    ],
    [
      'retry schedule too long',
      { WEBHOOK_RETRY_SCHEDULE: Array(21).fill('0').join(',') },
      `WEBHOOK_RETRY_SCHEDULE must list at most 20 attempts (got "${Array(21).fill('0').join(',')}")`,
    ],
    // Replaced by `switchboard org webhook-cidrs`: ignoring it would quietly close receivers an operator opened.
    [
      'the replaced WEBHOOK_ALLOWED_CIDRS',
      { WEBHOOK_ALLOWED_CIDRS: '10.0.0.0/8' },
      'WEBHOOK_ALLOWED_CIDRS was replaced by the per-organization command `switchboard org webhook-cidrs <org_id> --set <cidrs>`; unset it',
    ],
  ]
  for (const [name, env, message] of cases) {
    test(name, () => {
      let caught: unknown
      try {
        loadConfig(env)
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(ConfigError)
      expect((caught as Error).message).toBe(message)
      expect((caught as Error).message).not.toContain('\n')
    })
  }

  test('a retry schedule of whole seconds becomes milliseconds', () => {
    const config = loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0, 1,2' })
    expect(config.webhooks.retryScheduleMs).toEqual([0, 1000, 2000])
  })

  test('the engagement and survey windows take decimals, for trials and real-clock tests, as whole milliseconds', () => {
    const config = loadConfig({ ENGAGEMENT_REOPEN_HOURS: '0.001', ENGAGEMENT_AUTO_CLOSE_MINUTES: '0.05', SURVEY_EXPIRY_HOURS: '0.0011' })
    expect(config.engagements).toMatchObject({ reopenMs: 3_600, autoCloseMs: 3_000 })
    expect(config.surveyExpiryMs).toBe(3_960)
    expect(loadConfig({ ENGAGEMENT_REOPEN_HOURS: '0' }).engagements.reopenMs).toBe(0)
  })

  test('the replaced WEBHOOK_ALLOWED_CIDRS is refused as a flag too; empty counts as unset', () => {
    expect(() => loadConfig({}, { 'webhook-allowed-cidrs': '10.0.0.0/8' })).toThrow(
      'WEBHOOK_ALLOWED_CIDRS was replaced by the per-organization command',
    )
    expect(() => loadConfig({ WEBHOOK_ALLOWED_CIDRS: '' })).not.toThrow()
  })

  test('a bad flag is refused like a bad variable', () => {
    expect(() => loadConfig({}, { 'cron-tick-ms': 'soon' })).toThrow('CRON_TICK_MS must be an integer from 10 to 60000 (got "soon")')
  })
})
