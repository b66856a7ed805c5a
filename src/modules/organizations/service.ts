// TRANSITIONAL (issue 13): the synchronous (drizzle) createOrganization for test seeding until it is
// ported; the new one is in create-organization.ts, through index.ts. Removed with drizzle.
import type { Db } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import { organizations, type Plan } from './table.ts'

/** @deprecated TRANSITIONAL (issue 13): the drizzle row; use OrganizationRow from index.ts (snake_case). */
export type OrganizationRow = typeof organizations.$inferSelect

/** @deprecated TRANSITIONAL (issue 13): use createOrganization from index.ts (async). */
export function createOrganization(db: Db, input: { name: string; plan: Plan }, now: number): OrganizationRow {
  const row: OrganizationRow = {
    id: prefixedId('org'),
    name: input.name,
    plan: input.plan,
    settings: {},
    allowedIps: [],
    maxConcurrentSessions: null,
    sessionLimitPolicy: 'evict_oldest',
    mfaRequired: false,
    rateLimitPerMinute: null,
    rateLimitPerDay: null,
    createdAt: now,
    updatedAt: now,
  }
  db.insert(organizations).values(row).run()
  return row
}
