// organizations: the tenants; every other tenant table points here.

export const PLANS = ['free', 'starter', 'professional', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

export const SESSION_LIMIT_POLICIES = ['deny_new', 'evict_oldest'] as const
export type SessionLimitPolicy = (typeof SESSION_LIMIT_POLICIES)[number]

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
