// Server-wide settings (assembled by src/config.ts): the cron tick, the first start's Super Admin, the master key, page tokens.
import { join } from 'node:path'
import { Type, type TSchema } from '@sinclair/typebox'
import { ConfigError, parseEmail, type SettingValues } from '../lib/settings.ts'

export const STARTUP_SETTINGS = {
  CRON_TICK_MS: Type.Integer({
    minimum: 10,
    maximum: 60_000,
    default: 1000,
    description: 'How often the cron loop looks for due tasks, in milliseconds (10–60000).',
  }),
  ADMIN_EMAIL: Type.String({
    minLength: 3,
    default: 'admin@switchboard.local',
    description: 'E-mail of the Super Admin created on the first start (only then).',
  }),
  ADMIN_PASSWORD: Type.String({
    minLength: 8,
    maxLength: 256,
    'x-default': '(generated)',
    'x-secret': true,
    description:
      "That Super Admin's password, 8–256 characters. Unset: a 20-character password is generated and printed once on stderr, never logged.",
  }),
  MASTER_KEY: Type.String({
    'x-default': 'DATA_DIR/master.key',
    'x-secret': true,
    description:
      '32 bytes as 64 hex digits or base64 (`openssl rand -base64 32`) that encrypt the signing keys at rest. Unset: a key file is generated in `DATA_DIR` with mode 0600 on the first start.',
  }),
} satisfies Record<string, TSchema>

export const PAGE_TOKEN_SETTINGS = {
  PAGE_TOKEN_TTL: Type.Integer({
    minimum: 60,
    maximum: 86_400,
    default: 3600,
    description: "Seconds a list's `next_page_token` stays usable (60–86400); an expired one answers `400 INVALID_PAGE_TOKEN`.",
  }),
} satisfies Record<string, TSchema>

export interface StartupSlice {
  readonly cronTickMs: number
  readonly adminEmail: string
  /** Undefined: the first start generates one and prints it once. */
  readonly adminPassword: string | undefined
  /** 32 bytes, or undefined: a key file in DATA_DIR is used (and made on first start). */
  readonly masterKey: Uint8Array | undefined
  readonly masterKeyPath: string
}

export interface PageTokenSlice {
  readonly pageTokenTtlS: number
}

/** `dataDir`: the resolved DATA_DIR, which holds the master key file. */
export function startupSlice(values: SettingValues, dataDir: string): StartupSlice {
  return {
    cronTickMs: values.CRON_TICK_MS as number,
    adminEmail: parseEmail('ADMIN_EMAIL', values.ADMIN_EMAIL as string),
    adminPassword: values.ADMIN_PASSWORD as string | undefined,
    masterKey: values.MASTER_KEY === undefined ? undefined : parseMasterKey(values.MASTER_KEY as string),
    masterKeyPath: join(dataDir, 'master.key'),
  }
}

export function pageTokenSlice(values: SettingValues): PageTokenSlice {
  return { pageTokenTtlS: values.PAGE_TOKEN_TTL as number }
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
