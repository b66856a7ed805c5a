// createOrganization (first start, CLI) and the organization lookups with their 404.
import type { Queries, Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { isoTime } from '../../lib/clock.ts'
import { prefixedId } from '../../lib/ids.ts'
import { findOrganization, insertOrganization, type OrganizationRow } from './store.ts'
import type { Plan } from './table.ts'

/** Inside the caller's transaction: a new organization with the default security settings. */
export async function createOrganization(tx: Tx, input: { name: string; plan: Plan }, now: number): Promise<OrganizationRow> {
  const row: OrganizationRow = {
    id: prefixedId('org'),
    name: input.name,
    plan: input.plan,
    settings: '{}',
    allowed_ips: '[]',
    max_concurrent_sessions: null,
    session_limit_policy: 'evict_oldest',
    mfa_required: false,
    rate_limit_per_minute: null,
    rate_limit_per_day: null,
    created_at: now,
    updated_at: now,
  }
  await insertOrganization(tx, row)
  return row
}

/** The organization, or 404 "No such organization". */
export async function getOrganization(db: Queries, id: string): Promise<OrganizationRow> {
  const org = await findOrganization(db, id)
  if (!org) throw new AppError('NOT_FOUND', 'No such organization')
  return org
}

export function organizationJson(row: OrganizationRow) {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
  }
}
