// Configuration: assembles the settings the modules declare; env + --flags -> one typed, frozen Config. No other file reads process.env.
import { readSettings } from './lib/read-settings.ts'
import { ConfigError } from './lib/settings.ts'
import * as agents from './modules/agents/settings.ts'
import * as auth from './modules/auth/settings.ts'
import * as billing from './modules/billing/settings.ts'
import * as crm from './modules/crm/settings.ts'
import * as engagements from './modules/engagements/settings.ts'
import * as eventStream from './modules/event-stream/settings.ts'
import * as keys from './modules/keys/settings.ts'
import * as mfa from './modules/mfa/settings.ts'
import * as rateLimits from './modules/rate-limits/settings.ts'
import * as reports from './modules/reports/settings.ts'
import * as surveys from './modules/surveys/settings.ts'
import * as tickets from './modules/tickets/settings.ts'
import * as uploads from './modules/uploads/settings.ts'
import * as webhooks from './modules/webhooks/settings.ts'
import * as server from './settings/server.ts'
import * as startup from './settings/startup.ts'

export { ConfigError } from './lib/settings.ts'
export type { BillingConfig } from './modules/billing/settings.ts'
export { SMS_PROVIDERS, type SmsConfig } from './modules/mfa/settings.ts'
export type { S3Config } from './modules/uploads/settings.ts'
export { parseMasterKey } from './settings/startup.ts'

/**
 * The declarations, in the order of docs/configuration.md's table and of `--help` (which
 * `bun run docs:config` writes from them): server-wide ones live in src/settings/, a module's in its
 * settings.ts, which only this file imports (biome.json). A declaration's `x-default` documents a
 * default derived from other settings; `x-secret` keeps its value out of error messages.
 */
const FRAGMENTS = [
  server.SERVER_SETTINGS,
  auth.ISSUER_SETTINGS,
  server.HTTP_SETTINGS,
  crm.SETTINGS,
  uploads.SETTINGS,
  agents.SETTINGS,
  billing.SETTINGS,
  engagements.SETTINGS,
  surveys.SETTINGS,
  eventStream.SETTINGS,
  startup.STARTUP_SETTINGS,
  auth.SETTINGS,
  keys.SETTINGS,
  startup.PAGE_TOKEN_SETTINGS,
  tickets.SETTINGS,
  reports.SETTINGS,
  mfa.SETTINGS,
  rateLimits.SETTINGS,
  webhooks.SETTINGS,
] as const

type Merged<T> = T extends readonly [infer First, ...infer Rest] ? First & Merged<Rest> : unknown

/** Every setting, keyed by its environment variable. */
export const SETTINGS = Object.assign({}, ...FRAGMENTS) as Merged<typeof FRAGMENTS>

export type SettingName = keyof typeof SETTINGS

const declared = FRAGMENTS.flatMap((fragment) => Object.keys(fragment))
const twice = declared.find((name, i) => declared.indexOf(name) !== i)
if (twice) throw new Error(`the setting ${twice} is declared twice`)

/**
 * Settings that no longer exist and would silently change what the server does if ignored: given at
 * start, they stop it with this line. WEBHOOK_ALLOWED_CIDRS opened internal ranges to every tenant,
 * who sees 16 KB of each answer; the operator now allows ranges per organization.
 */
export const REPLACED_SETTINGS: Readonly<Record<string, string>> = {
  WEBHOOK_ALLOWED_CIDRS:
    'WEBHOOK_ALLOWED_CIDRS was replaced by the per-organization command `switchboard org webhook-cidrs <org_id> --set <cidrs>`; unset it',
}

/** Each module's slice, in the order of the settings. */
export interface Config
  extends server.ServerSlice,
    auth.IssuerSlice,
    server.HttpSlice,
    crm.CrmSlice,
    uploads.UploadsSlice,
    agents.AgentsSlice,
    billing.BillingSlice,
    engagements.EngagementsSlice,
    surveys.SurveysSlice,
    eventStream.EventStreamSlice,
    startup.StartupSlice,
    auth.AuthSlice,
    keys.KeysSlice,
    startup.PageTokenSlice,
    tickets.TicketsSlice,
    reports.ReportsSlice,
    mfa.MfaSlice,
    rateLimits.RateLimitsSlice,
    webhooks.WebhooksSlice {}

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
  const values = readSettings(SETTINGS, (name) => flags[flagName(name as SettingName)] ?? env[name])
  // What others derive from, and the rules across modules, come first; then each slice in order.
  const publicUrl = server.publicUrlOf(values)
  const issuer = auth.issuerSlice(values, publicUrl)
  const redisUrl = server.redisUrlOf(values)
  // Files on one instance's disk are not seen by the others.
  if (redisUrl !== undefined && values.S3_BUCKET === undefined)
    throw new ConfigError("REDIS_URL (several instances) needs S3_BUCKET: a file kept on one instance's disk is missing on the others")
  auth.checkTokenLifetimes(values)
  const where = server.serverSlice(values, cwd, publicUrl, redisUrl)
  return Object.freeze({
    ...where,
    ...issuer,
    ...server.httpSlice(values),
    ...crm.crmSlice(values),
    ...uploads.uploadsSlice(values),
    ...agents.agentsSlice(values),
    ...billing.billingSlice(values),
    ...engagements.engagementsSlice(values),
    ...surveys.surveysSlice(values),
    ...eventStream.eventStreamSlice(values),
    ...startup.startupSlice(values, where.dataDir),
    ...auth.authSlice(values, publicUrl),
    ...keys.keysSlice(values),
    ...startup.pageTokenSlice(values),
    ...tickets.ticketsSlice(values),
    ...reports.reportsSlice(values),
    ...mfa.mfaSlice(values),
    ...rateLimits.rateLimitsSlice(values),
    ...webhooks.webhooksSlice(values),
  })
}
