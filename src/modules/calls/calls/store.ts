// The calls' SQL: one row by id or by provider id, insert, save, the keyset list, the lookup of other
// modules' tables a call's references need (a ticket of the organization), and the calls naming a
// contact or a ticket (moved or let go when it is merged or deleted).
import { keyShareIn, type Queries, type Tx } from '../../../db/database.ts'
import { findInOrg } from '../../../db/get-in-org.ts'
import { defineList } from '../../../db/list.ts'
import type { CallProvider, CallsTable } from '../table.ts'

export type CallRow = CallsTable

// Each sort has its index on (organization_id, column, id) in 0018_calls.sql.
export const CALL_LIST = defineList('calls', { sorts: ['created_at', 'initialized_at', 'updated_at'] })

export function findCall(db: Queries, organizationId: string, id: string): Promise<CallRow | undefined> {
  return findInOrg(db, 'calls', organizationId, id)
}

/** The call, its row locked until the transaction ends: its lifecycle steps, transfers and changes take turns. */
export function lockCall(tx: Tx, organizationId: string, id: string): Promise<CallRow | undefined> {
  return tx.raw.get<CallRow>(`SELECT * FROM calls WHERE id = ? AND organization_id = ?${tx.forUpdate}`, [id, organizationId])
}

const BY_PROVIDER_ID = 'SELECT * FROM calls WHERE organization_id = ? AND provider = ? AND provider_call_id = ?'

export function findCallByProviderId(
  db: Queries,
  organizationId: string,
  provider: CallProvider,
  providerCallId: string,
): Promise<CallRow | undefined> {
  return db.raw.get<CallRow>(BY_PROVIDER_ID, [organizationId, provider, providerCallId])
}

/** As findCallByProviderId, the row locked as lockCall locks it. */
export function lockCallByProviderId(tx: Tx, organizationId: string, provider: CallProvider, providerCallId: string) {
  return tx.raw.get<CallRow>(`${BY_PROVIDER_ID}${tx.forUpdate}`, [organizationId, provider, providerCallId])
}

export async function insertCall(tx: Tx, row: CallRow): Promise<void> {
  await tx.kysely.insertInto('calls').values(row).execute()
}

export async function saveCall(tx: Tx, row: CallRow): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('calls').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
}

/**
 * True when the ticket exists in the organization. The tickets module exports no lookup, so this reads
 * its table by primary key (the one read of another module's table here, like the agents module's of calls).
 */
export async function ticketExists(db: Queries, organizationId: string, ticketId: string): Promise<boolean> {
  // Inside a write transaction the row is kept until commit (a delete waits): the call that names it never fails on the foreign key.
  const row = await db.raw.get<{ id: string }>(`SELECT id FROM tickets WHERE id = ? AND organization_id = ?${keyShareIn(db)}`, [
    ticketId,
    organizationId,
  ])
  return row !== undefined
}

/** A column of calls naming another module's record: a contact or a ticket. */
export type CallReference = 'contact_id' | 'ticket_id'

/** The ids of the calls naming `id` in `column` (index calls_contact / calls_ticket). */
export async function callsNaming(db: Queries, organizationId: string, column: CallReference, id: string): Promise<string[]> {
  const rows = await db.raw.all<{ id: string }>(`SELECT id FROM calls WHERE ${column} = ? AND organization_id = ? ORDER BY id`, [
    id,
    organizationId,
  ])
  return rows.map((row) => row.id)
}

/** Every call naming `from` in `column` names `to` instead (null: none); their updated_at moves. */
export function repointCalls(tx: Tx, organizationId: string, column: CallReference, from: string, to: string | null, now: number) {
  return tx.raw.run(`UPDATE calls SET ${column} = ?, updated_at = ? WHERE ${column} = ? AND organization_id = ?`, [
    to,
    now,
    from,
    organizationId,
  ])
}
