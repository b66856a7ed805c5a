// The engagements' SQL: sessions and messages (one row, insert, save, the keyset lists), the cron loop's
// batches, the reads of other modules' tables a session needs (documented in the README): a ticket or
// call of the organization, and the agents' routing fields (agents, agent_labels, users) for the
// automatic assignment; and the sessions naming a contact or ticket, for its delete or merge.
import { keyShareIn, type Queries, type Tx } from '../../db/database.ts'
import { findInOrg } from '../../db/get-in-org.ts'
import { defineList } from '../../db/list.ts'
import type { EngagementMessagesTable, EngagementsTable } from './table.ts'

export type EngagementRow = EngagementsTable
export type MessageRow = EngagementMessagesTable

// Each sort has its index on (organization_id, column, id) in 0020_engagements.sql.
export const ENGAGEMENT_LIST = defineList('engagements', { sorts: ['created_at'] })
// Messages are listed per session: the where names the session (index on engagement_id, created_at, id).
export const MESSAGE_LIST = defineList('engagement_messages', { sorts: ['created_at'] })

export function findEngagement(db: Queries, organizationId: string, id: string): Promise<EngagementRow | undefined> {
  return findInOrg(db, 'engagements', organizationId, id)
}

/** The session, its row locked until the transaction ends: its moves, assignments and messages take turns. */
export function lockEngagement(tx: Tx, organizationId: string, id: string): Promise<EngagementRow | undefined> {
  return tx.raw.get<EngagementRow>(`SELECT * FROM engagements WHERE id = ? AND organization_id = ?${tx.forUpdate}`, [id, organizationId])
}

export async function insertEngagement(tx: Tx, row: EngagementRow): Promise<void> {
  await tx.kysely.insertInto('engagements').values(row).execute()
}

export async function saveEngagement(tx: Tx, row: EngagementRow): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('engagements').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
}

export async function insertMessage(tx: Tx, row: MessageRow): Promise<void> {
  await tx.kysely.insertInto('engagement_messages').values(row).execute()
}

/** True when the row exists in the organization (tickets, calls: read by primary key). */
export async function existsInOrg(db: Queries, table: 'tickets' | 'calls', organizationId: string, id: string): Promise<boolean> {
  // Inside a write transaction the row is kept until commit (a delete waits): the session that names it never fails on the foreign key.
  const row = await db.raw.get<{ id: string }>(`SELECT id FROM ${table} WHERE id = ? AND organization_id = ?${keyShareIn(db)}`, [
    id,
    organizationId,
  ])
  return row !== undefined
}

/**
 * The automatic assignment's candidate: an active user's agent profile, logged in, in an available
 * activity, under its capacity, holding `skill` (when given), none of `passed`; the lowest load first,
 * ties by id. Unlocked: the caller claims the place on the agent's locked row (assign.ts).
 */
export async function pickAgent(
  db: Queries,
  organizationId: string,
  skill: string | null,
  passed: readonly string[] = [],
): Promise<string | undefined> {
  const row = await db.raw.get<{ id: string }>(
    `SELECT agents.id FROM agents JOIN users ON users.id = agents.id AND users.organization_id = agents.organization_id
      WHERE agents.organization_id = ? AND agents.session_id IS NOT NULL AND agents.available = ? AND users.status = 'active'
        AND (agents.max_concurrent IS NULL OR agents.current_load < agents.max_concurrent)
        ${skill === null ? '' : "AND EXISTS (SELECT 1 FROM agent_labels WHERE agent_labels.organization_id = agents.organization_id AND agent_labels.agent_id = agents.id AND agent_labels.kind = 'skill' AND agent_labels.value = ?)"}
        ${passed.length === 0 ? '' : `AND agents.id NOT IN (${passed.map(() => '?').join(', ')})`}
      ORDER BY agents.current_load, agents.id LIMIT 1`,
    [organizationId, true, ...(skill === null ? [] : [skill]), ...passed],
  )
  return row?.id
}

// The cron loop's batches, across organizations (indexes engagements_snoozed, engagements_status_activity).

export function snoozedDue(db: Queries, now: number, limit: number): Promise<EngagementRow[]> {
  return db.raw.all<EngagementRow>(
    "SELECT * FROM engagements WHERE snoozed_until IS NOT NULL AND snoozed_until <= ? AND status = 'snoozed' ORDER BY snoozed_until, id LIMIT ?",
    [now, limit],
  )
}

export function inactiveSince(db: Queries, before: number, limit: number): Promise<EngagementRow[]> {
  return db.raw.all<EngagementRow>(
    "SELECT * FROM engagements WHERE status = 'active' AND last_activity_at <= ? ORDER BY last_activity_at, id LIMIT ?",
    [before, limit],
  )
}

// The sessions naming a contact or a ticket (moved or let go when it is merged or deleted; indexes
// engagements_contact, engagements_ticket).

/** A column of engagements naming another module's record. */
export type EngagementReference = 'contact_id' | 'ticket_id'

export async function engagementsNaming(db: Queries, organizationId: string, column: EngagementReference, id: string): Promise<string[]> {
  const rows = await db.raw.all<{ id: string }>(`SELECT id FROM engagements WHERE ${column} = ? AND organization_id = ? ORDER BY id`, [
    id,
    organizationId,
  ])
  return rows.map((row) => row.id)
}

/** Every session naming `from` in `column` names `to` instead (null: none); their updated_at moves. */
export function repointEngagements(
  tx: Tx,
  organizationId: string,
  column: EngagementReference,
  from: string,
  to: string | null,
  now: number,
) {
  return tx.raw.run(`UPDATE engagements SET ${column} = ?, updated_at = ? WHERE ${column} = ? AND organization_id = ?`, [
    to,
    now,
    from,
    organizationId,
  ])
}

/** A merge, once the sessions moved: the inbound messages the merged-away contact wrote in them are the survivor's. */
export function moveContactMessages(tx: Tx, organizationId: string, from: string, to: string) {
  return tx.raw.run(
    `UPDATE engagement_messages SET author_id = ? WHERE author_type = 'contact' AND author_id = ?
      AND engagement_id IN (SELECT id FROM engagements WHERE contact_id = ? AND organization_id = ?)`,
    [to, from, to, organizationId],
  )
}
