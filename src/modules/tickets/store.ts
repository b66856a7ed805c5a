// The tickets module's SQL: tickets, their per-organization number counter, the tag index and the
// comments. Lookups and lists are raw statements (hot paths); the rest is Kysely.
import type { Queries, Tx } from '../../db/database.ts'
import { findInOrg } from '../../db/get-in-org.ts'
import { type Condition, defineList } from '../../db/list.ts'
import type { TicketCommentsTable, TicketsTable } from './table.ts'

export type TicketRow = TicketsTable
export type CommentRow = TicketCommentsTable

// Numbers are unique within an organization (tickets_org_number): that sort needs no id after it.
export const TICKET_LIST = defineList('tickets', { sorts: ['created_at', 'updated_at', 'priority', 'number'], unique: ['number'] })
export const COMMENT_LIST = defineList('ticket_comments', { sorts: ['created_at'] })

export async function findTicket(db: Queries, organizationId: string, id: string): Promise<TicketRow | undefined> {
  return findInOrg(db, 'tickets', organizationId, id)
}

const TAKE_NUMBER =
  'INSERT INTO ticket_counters (organization_id, last_number) VALUES (?, 1) ' +
  'ON CONFLICT (organization_id) DO UPDATE SET last_number = ticket_counters.last_number + 1 RETURNING last_number'

/**
 * Gives a ticket inserted with a placeholder number the organization's next one: numbers are gap-free
 * and never reused, even after a delete. Run in the commit pipeline (Tx.atCommit): the counter row stays
 * locked from here to COMMIT, so the organization's creations are serialized for the server's execution
 * of the pipeline only. PostgreSQL in one statement; SQLite (one writer) in two.
 */
export async function assignTicketNumber(tx: Tx, ticket: Pick<TicketRow, 'id' | 'organization_id'>): Promise<number> {
  if (tx.engine === 'postgres') {
    const row = await tx.raw.get<{ number: number }>(
      `WITH counter AS (${TAKE_NUMBER}) UPDATE tickets SET number = counter.last_number FROM counter WHERE tickets.id = ? RETURNING tickets.number`,
      [ticket.organization_id, ticket.id],
    )
    return Number(row!.number)
  }
  const row = await tx.raw.get<{ last_number: number }>(TAKE_NUMBER, [ticket.organization_id])
  await tx.raw.run('UPDATE tickets SET number = ? WHERE id = ?', [row!.last_number, ticket.id])
  return Number(row!.last_number)
}

/** A ticket's number in SQL, for an event's text written in the same commit pipeline (Change.late). */
export const TICKET_NUMBER_SQL = `'"number":' || CAST((SELECT number FROM tickets WHERE id = ?) AS TEXT)`

// Raw, in the column order of TicketsTable: the create path's statements are started together (one
// pipeline on PostgreSQL), and only raw statements go down the connection in the order they are started.
const INSERT_TICKET =
  'INSERT INTO tickets (id, organization_id, number, subject, description, status, priority, type, channel, requester_name, ' +
  'requester_email, contact_id, assignee_id, tags, custom_fields, upload_ids, created_at, updated_at, solved_at, closed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'

export function insertTicket(tx: Tx, r: TicketRow): Promise<number> {
  return tx.raw.run(INSERT_TICKET, [
    r.id,
    r.organization_id,
    r.number,
    r.subject,
    r.description,
    r.status,
    r.priority,
    r.type,
    r.channel,
    r.requester_name,
    r.requester_email,
    r.contact_id,
    r.assignee_id,
    r.tags,
    r.custom_fields,
    r.upload_ids,
    r.created_at,
    r.updated_at,
    r.solved_at,
    r.closed_at,
  ])
}

const TAG_ROWS: string[] = []

/** The tags of a ticket just inserted (it has none yet): one statement, started after the ticket's own insert. */
export async function insertTags(tx: Tx, ticket: Pick<TicketRow, 'id' | 'organization_id'>, tags: readonly string[]): Promise<void> {
  if (tags.length === 0) return
  const rows = (TAG_ROWS[tags.length] ??= Array.from({ length: tags.length }, () => '(?, ?, ?)').join(', '))
  await tx.raw.run(
    `INSERT INTO ticket_tags (ticket_id, organization_id, tag) VALUES ${rows}`,
    tags.flatMap((tag) => [ticket.id, ticket.organization_id, tag]),
  )
}

export async function saveTicket(tx: Tx, row: TicketRow): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('tickets').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
}

export async function touchTicket(tx: Tx, ticket: Pick<TicketRow, 'id'>, now: number): Promise<void> {
  await tx.raw.run('UPDATE tickets SET updated_at = ? WHERE id = ?', [now, ticket.id])
}

/** Comments and tags go with it (ON DELETE CASCADE). */
/** The ids of a ticket's comments (their attachments go with the ticket). */
export async function commentIdsOf(tx: Tx, ticket: Pick<TicketRow, 'id' | 'organization_id'>): Promise<string[]> {
  const rows = await tx.raw.all<{ id: string }>('SELECT id FROM ticket_comments WHERE ticket_id = ? AND organization_id = ?', [
    ticket.id,
    ticket.organization_id,
  ])
  return rows.map((row) => row.id)
}

/** The tickets of a contact (index tickets_org_contact_created), to move or let go with it. */
export function ticketsOfContact(tx: Tx, organizationId: string, contactId: string): Promise<TicketRow[]> {
  return tx.raw.all<TicketRow>('SELECT * FROM tickets WHERE organization_id = ? AND contact_id = ? ORDER BY id', [
    organizationId,
    contactId,
  ])
}

export async function deleteTicketRow(tx: Tx, ticket: Pick<TicketRow, 'id' | 'organization_id'>): Promise<void> {
  await tx.raw.run('DELETE FROM tickets WHERE id = ? AND organization_id = ?', [ticket.id, ticket.organization_id])
}

export async function replaceTags(tx: Tx, ticket: Pick<TicketRow, 'id' | 'organization_id'>, tags: readonly string[]): Promise<void> {
  await tx.raw.run('DELETE FROM ticket_tags WHERE ticket_id = ?', [ticket.id])
  if (tags.length === 0) return
  await tx.kysely
    .insertInto('ticket_tags')
    .values(tags.map((tag) => ({ ticket_id: ticket.id, organization_id: ticket.organization_id, tag })))
    .execute()
}

export async function insertComment(tx: Tx, comment: CommentRow): Promise<void> {
  await tx.kysely.insertInto('ticket_comments').values(comment).execute()
}

/** Tickets solved at or before `solvedBefore`, oldest first (the auto-close batch). */
export async function solvedTicketsDue(tx: Tx, solvedBefore: number, limit: number): Promise<TicketRow[]> {
  return tx.kysely
    .selectFrom('tickets')
    .selectAll()
    .where('status', '=', 'solved')
    .where('solved_at', '<=', solvedBefore)
    .orderBy('solved_at')
    .limit(limit)
    .execute()
}

/** Tickets carrying `tag` (the tag filter of the list). */
export function taggedCondition(tag: string): Condition {
  return {
    sql: 'tickets.id IN (SELECT ticket_id FROM ticket_tags WHERE organization_id = tickets.organization_id AND tag = ?)',
    params: [tag],
  }
}
