// organizations: the tenants; every other tenant table points here.
import { sqliteTable, text, integer } from 'drizzle-orm/sqlite-core'

export const PLANS = ['free', 'starter', 'professional', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

export const SESSION_LIMIT_POLICIES = ['deny_new', 'evict_oldest'] as const
export type SessionLimitPolicy = (typeof SESSION_LIMIT_POLICIES)[number]

export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  plan: text('plan', { enum: PLANS }).notNull(),
  /** JSON object of organization settings. */
  settings: text('settings', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  /** Security settings. allowed_ips: JSON array of IPs and CIDR ranges; empty = any address. */
  allowedIps: text('allowed_ips', { mode: 'json' }).$type<string[]>().notNull().default([]),
  /** Live sessions a user may hold at once; null = unlimited. */
  maxConcurrentSessions: integer('max_concurrent_sessions'),
  sessionLimitPolicy: text('session_limit_policy', { enum: SESSION_LIMIT_POLICIES }).notNull().default('evict_oldest'),
  mfaRequired: integer('mfa_required', { mode: 'boolean' }).notNull().default(false),
  /** Request rates set by `switchboard org set-limits` (Enterprise, or an override); null = the plan's. */
  rateLimitPerMinute: integer('rate_limit_per_minute'),
  rateLimitPerDay: integer('rate_limit_per_day'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** A row of organizations (Kysely). */
export interface OrganizationsTable {
  id: string
  name: string
  plan: Plan
  /** JSON object of organization settings. */
  settings: string
  /** JSON array of IPs and CIDR ranges; `[]` = any address. */
  allowed_ips: string
  /** Live sessions a user may hold at once; null = unlimited. */
  max_concurrent_sessions: number | null
  session_limit_policy: SessionLimitPolicy
  /** 0 or 1 on SQLite, a boolean on PostgreSQL: read with Boolean(). */
  mfa_required: number | boolean
  /** Request rates set by `switchboard org set-limits` (Enterprise, or an override); null = the plan's. */
  rate_limit_per_minute: number | null
  rate_limit_per_day: number | null
  created_at: number
  updated_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    organizations: OrganizationsTable
  }
}
