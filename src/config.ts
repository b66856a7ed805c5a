// Configuration: environment variables and --flags -> one typed, frozen Config; no other file reads process.env.
import { resolve, join } from 'node:path'
import { Type, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { parseCidr, type Cidr } from './lib/cidr.ts'
import { LOG_LEVELS, type LogLevel } from './lib/log.ts'

const MiB = 1024 * 1024

/**
 * Every setting, keyed by its environment variable. `x-default` documents a default that is
 * derived from other settings; the README's configuration table mirrors this object (a test checks it).
 */
export const SETTINGS = {
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 8080, description: 'TCP port the HTTP server listens on.' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'Address the HTTP server binds to; `127.0.0.1` keeps it local.' }),
  DATA_DIR: Type.String({ minLength: 1, default: './data', description: 'Directory holding `switchboard.db` and the generated key files; created if missing.' }),
  PUBLIC_URL: Type.String({ 'x-default': 'http://localhost:PORT', description: 'Base URL clients use to reach the API (the spec\'s `base_url`).' }),
  AUTH_URL: Type.String({ 'x-default': 'PUBLIC_URL', description: 'URL of the authorization server; the `iss` of every token.' }),
  LOG_LEVEL: Type.Union(LOG_LEVELS.map((l) => Type.Literal(l)), { default: 'info', description: 'Lowest level written to the log: `debug`, `info`, `warn` or `error`.' }),
  TRUSTED_PROXIES: Type.String({ default: '', description: 'Comma-separated IPs or CIDR ranges of reverse proxies whose `X-Forwarded-For` is believed.' }),
  MAX_BODY_BYTES: Type.Integer({ minimum: 1024, maximum: 1024 * MiB, default: MiB, description: 'Largest request body accepted, in bytes; larger bodies get 413.' }),
  CRON_TICK_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 1000, description: 'How often the cron loop looks for due tasks, in milliseconds.' }),
} satisfies Record<string, TSchema>

export type SettingName = keyof typeof SETTINGS

export interface Config {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly dbPath: string
  readonly publicUrl: string
  readonly authUrl: string
  readonly logLevel: LogLevel
  readonly trustedProxies: readonly Cidr[]
  readonly maxBodyBytes: number
  readonly cronTickMs: number
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
    throw new ConfigError(`${name} ${expectation(SETTINGS[name])} (got ${JSON.stringify(raw[name])})`)
  }
  const port = values.PORT as number
  const publicUrl = parseUrl('PUBLIC_URL', (values.PUBLIC_URL as string | undefined) ?? `http://localhost:${port}`)
  const authUrl = parseUrl('AUTH_URL', (values.AUTH_URL as string | undefined) ?? publicUrl)
  const dataDir = resolve(cwd, values.DATA_DIR as string)
  return Object.freeze({
    port,
    host: values.HOST as string,
    dataDir,
    dbPath: join(dataDir, 'switchboard.db'),
    publicUrl,
    authUrl,
    logLevel: values.LOG_LEVEL as LogLevel,
    trustedProxies: Object.freeze(parseCidrList('TRUSTED_PROXIES', values.TRUSTED_PROXIES as string)),
    maxBodyBytes: values.MAX_BODY_BYTES as number,
    cronTickMs: values.CRON_TICK_MS as number,
  })
}

// Integers arrive as text; accept plain decimal digits only, so "1e3", "0x10" or "12abc" are refused.
function coerce(schema: TSchema, text: string): unknown {
  if (schema.type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : text
  return text
}

function expectation(schema: TSchema): string {
  if (schema.type === 'integer') return `must be an integer from ${schema.minimum} to ${schema.maximum}`
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

function parseCidrList(name: SettingName, text: string): Cidr[] {
  const items = text.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const bad = items.filter((s) => !parseCidr(s))
  if (bad.length > 0) throw new ConfigError(`${name} has invalid IP addresses or CIDR ranges: ${bad.join(', ')}`)
  return items.map((s) => parseCidr(s)!)
}
