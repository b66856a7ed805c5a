// The plans' SQL: the four plans (their request rates) and their prices. A price row never changes but
// for deactivated_at (set when another price replaced it, or the operator withdrew it).
import type { Queries, Tx } from '../../../db/database.ts'
import type { BillingInterval, PlanId, PlanPricesTable, PlansTable } from '../table.ts'

export type PlanRow = PlansTable
export type PriceRow = PlanPricesTable

/** The request rates of `plan` as the plans table holds them now (0 and 0 for an unknown plan: never the case, the four are seeded). */
export async function findPlanRates(db: Queries, plan: PlanId): Promise<{ rate_limit_per_minute: number; rate_limit_per_day: number }> {
  const row = await db.raw.get<{ rate_limit_per_minute: number; rate_limit_per_day: number }>(
    'SELECT rate_limit_per_minute, rate_limit_per_day FROM plans WHERE id = ?',
    [plan],
  )
  return { rate_limit_per_minute: Number(row?.rate_limit_per_minute ?? 0), rate_limit_per_day: Number(row?.rate_limit_per_day ?? 0) }
}

const numbers = (row: PlanRow): PlanRow => ({
  ...row,
  rate_limit_per_minute: Number(row.rate_limit_per_minute),
  rate_limit_per_day: Number(row.rate_limit_per_day),
  updated_at: Number(row.updated_at),
})

const priceNumbers = (row: PriceRow): PriceRow => ({
  ...row,
  unit_amount: Number(row.unit_amount),
  created_at: Number(row.created_at),
  deactivated_at: row.deactivated_at === null ? null : Number(row.deactivated_at),
})

export async function findPlanRow(db: Queries, id: string): Promise<PlanRow | undefined> {
  const row = await db.raw.get<PlanRow>('SELECT * FROM plans WHERE id = ?', [id])
  return row && numbers(row)
}

/** The plan under its row lock (PostgreSQL FOR UPDATE) until the transaction ends: its change reads it first. */
export async function lockPlanRow(tx: Tx, id: string): Promise<PlanRow | undefined> {
  const row = await tx.raw.get<PlanRow>(`SELECT * FROM plans WHERE id = ?${tx.forUpdate}`, [id])
  return row && numbers(row)
}

export async function listPlanRows(db: Queries): Promise<PlanRow[]> {
  const rows = await db.raw.all<PlanRow>('SELECT * FROM plans')
  return rows.map(numbers)
}

export async function updatePlanRow(
  tx: Tx,
  id: string,
  patch: Partial<Pick<PlanRow, 'name' | 'rate_limit_per_minute' | 'rate_limit_per_day'>> & { updated_at: number },
): Promise<PlanRow | undefined> {
  const row = await tx.kysely
    .updateTable('plans')
    .set(patch)
    .where('id', '=', id as PlanId)
    .returningAll()
    .executeTakeFirst()
  return row && numbers(row)
}

/** The active prices: every one (`scope` 'all'), the public ones and one organization's own, or the public ones only (`null`). */
export async function listActivePrices(db: Queries, scope: 'all' | string | null): Promise<PriceRow[]> {
  let query = db.kysely.selectFrom('plan_prices').selectAll().where('deactivated_at', 'is', null)
  if (scope === null) query = query.where('organization_id', 'is', null)
  else if (scope !== 'all') query = query.where((eb) => eb.or([eb('organization_id', 'is', null), eb('organization_id', '=', scope)]))
  const rows = await query.orderBy('created_at').orderBy('id').execute()
  return rows.map(priceNumbers)
}

/** The active prices of one plan offered to `organizationId` (the public ones and its own). */
export async function listOfferedPlanPrices(db: Queries, organizationId: string, plan: PlanId): Promise<PriceRow[]> {
  const rows = await db.raw.all<PriceRow>(
    'SELECT * FROM plan_prices WHERE plan_id = ? AND deactivated_at IS NULL AND (organization_id IS NULL OR organization_id = ?) ORDER BY created_at, id',
    [plan, organizationId],
  )
  return rows.map(priceNumbers)
}

export async function findPriceRow(db: Queries, id: string): Promise<PriceRow | undefined> {
  const row = await db.raw.get<PriceRow>('SELECT * FROM plan_prices WHERE id = ?', [id])
  return row && priceNumbers(row)
}

/** The active price of a plan in a currency and interval: the public one (`organizationId` null) or that organization's. */
export async function findActivePrice(
  db: Queries,
  key: { plan: PlanId; organizationId: string | null; currency: string; interval: BillingInterval },
): Promise<PriceRow | undefined> {
  const owner = key.organizationId === null ? 'organization_id IS NULL' : 'organization_id = ?'
  const params = [key.plan, key.currency, key.interval, ...(key.organizationId === null ? [] : [key.organizationId])]
  const row = await db.raw.get<PriceRow>(
    `SELECT * FROM plan_prices WHERE plan_id = ? AND currency = ? AND billing_interval = ? AND deactivated_at IS NULL AND ${owner}`,
    params,
  )
  return row && priceNumbers(row)
}

export async function insertPriceRow(tx: Tx, row: PriceRow): Promise<void> {
  await tx.kysely.insertInto('plan_prices').values(row).execute()
}

/** Deactivates an active price; undefined when there is no such active price. */
export async function deactivatePriceRow(tx: Tx, id: string, now: number): Promise<PriceRow | undefined> {
  const row = await tx.kysely
    .updateTable('plan_prices')
    .set({ deactivated_at: now })
    .where('id', '=', id)
    .where('deactivated_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
  return row && priceNumbers(row)
}
