// Operator verbs behind `switchboard org set-plan` and `org set-limits`: change an organization's plan
// or its own request rates. The running server reads both on every request, so they apply at once.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/tx.ts'
import { audit, type AuditActor } from '../audit/record.ts'
import { organizations, type Plan } from '../organizations/table.ts'
import { organizationRates, type Rates } from './plans.ts'

export interface RatesView {
  organization_id: string
  plan: Plan
  /** Set by set-limits; null: the plan's. */
  rate_limit_per_minute: number | null
  rate_limit_per_day: number | null
  /** What one user gets; the organization's budget is these times ORG_LIMIT_FACTOR. */
  effective: { per_minute: number; per_day: number }
}

type OrgRates = Pick<typeof organizations.$inferSelect, 'id' | 'plan' | 'rateLimitPerMinute' | 'rateLimitPerDay'>

function view(org: OrgRates): RatesView {
  const rates: Rates = organizationRates(org.plan, org.rateLimitPerMinute, org.rateLimitPerDay)
  return {
    organization_id: org.id,
    plan: org.plan,
    rate_limit_per_minute: org.rateLimitPerMinute,
    rate_limit_per_day: org.rateLimitPerDay,
    effective: { per_minute: rates.perMinute, per_day: rates.perDay },
  }
}

const COLUMNS = { id: organizations.id, plan: organizations.plan, rateLimitPerMinute: organizations.rateLimitPerMinute, rateLimitPerDay: organizations.rateLimitPerDay }

export function findOrganizationRates(db: Db, organizationId: string): RatesView | undefined {
  const org = db.select(COLUMNS).from(organizations).where(eq(organizations.id, organizationId)).get()
  return org && view(org)
}

/**
 * Moves an organization to `plan`. Values set by set-limits are kept for Enterprise (whose rates they
 * are) and dropped for the other plans, whose own rates then apply.
 */
export function setPlan(tx: Db, organizationId: string, plan: Plan, actor: AuditActor, now: number): { before: RatesView; after: RatesView } | undefined {
  const before = findOrganizationRates(tx, organizationId)
  if (!before) return undefined
  const keep = plan === 'enterprise'
  const org = tx
    .update(organizations)
    .set({ plan, updatedAt: now, ...(keep ? {} : { rateLimitPerMinute: null, rateLimitPerDay: null }) })
    .where(eq(organizations.id, organizationId))
    .returning(COLUMNS)
    .get()!
  const after = view(org)
  audit(tx, { organizationId, actor, event: 'organization.plan_changed', target: { type: 'organization', id: organizationId }, details: changes(before, after), now })
  return { before, after }
}

/** Sets (a number), keeps (undefined) or clears (null: back to the plan's) each of the organization's rates. */
export function setRates(tx: Db, organizationId: string, input: { perMinute?: number | null; perDay?: number | null }, actor: AuditActor, now: number): RatesView | undefined {
  const before = findOrganizationRates(tx, organizationId)
  if (!before) return undefined
  const org = tx
    .update(organizations)
    .set({
      updatedAt: now,
      ...(input.perMinute === undefined ? {} : { rateLimitPerMinute: input.perMinute }),
      ...(input.perDay === undefined ? {} : { rateLimitPerDay: input.perDay }),
    })
    .where(eq(organizations.id, organizationId))
    .returning(COLUMNS)
    .get()!
  const after = view(org)
  audit(tx, { organizationId, actor, event: 'organization.rate_limits_changed', target: { type: 'organization', id: organizationId }, details: changes(before, after), now })
  return after
}

function changes(before: RatesView, after: RatesView): Record<string, unknown> {
  return { before: { plan: before.plan, ...before.effective }, after: { plan: after.plan, ...after.effective } }
}
