// The contacts part's SQL: contacts (merged ones stay as rows but are never found or listed), their tag
// index, the list's conditions, and the CRM's own links to a contact (leads.converted_contact_id,
// contacts.merged_into_id), moved with it. Other modules move theirs (src/references.ts).
import type { Queries, Tx } from '../../../db/database.ts'
import { type Condition, defineList, likePrefix } from '../../../db/list.ts'
import { searchKey } from '../../../lib/search-key.ts'
import { keyShare } from '../key-share.ts'
import type { ContactsTable, ContactType } from '../table.ts'

export type ContactRow = ContactsTable
export type UniqueField = 'email' | 'phone' | 'external_id'

export const CONTACT_LIST = defineList('contacts', {
  sorts: { created_at: 'created_at', updated_at: 'updated_at', name: 'name_key', last_activity_at: 'last_activity_at' },
})

const LIVE = 'merged_into_id IS NULL'

/** A contact of the organization that was not merged away; in a transaction, held until it ends (keyShare). */
export function findContact(db: Queries, organizationId: string, id: string): Promise<ContactRow | undefined> {
  return db.raw.get<ContactRow>(`SELECT * FROM contacts WHERE id = ? AND organization_id = ? AND ${LIVE}${keyShare(db)}`, [
    id,
    organizationId,
  ])
}

/** By a normalized identifier (e-mail lowercased, phone in E.164, external id as given); held as findContact. */
export function findContactBy(db: Queries, organizationId: string, field: UniqueField, value: string): Promise<ContactRow | undefined> {
  return db.raw.get<ContactRow>(`SELECT * FROM contacts WHERE organization_id = ? AND ${field} = ? AND ${LIVE}${keyShare(db)}`, [
    organizationId,
    value,
  ])
}

/**
 * The live contacts among `ids`, locked FOR UPDATE in id order (two merges of one pair never deadlock),
 * by id. Invariant: a contact is changed from what it is, not what it was when read (no lost update of a
 * PATCH, a merge or a delete racing another), and a record naming it is counted or refused (keyShare).
 */
export async function lockContacts(tx: Tx, organizationId: string, ids: readonly string[]): Promise<Map<string, ContactRow>> {
  const found = new Map<string, ContactRow>()
  for (const id of [...new Set(ids)].sort()) {
    const row = await tx.raw.get<ContactRow>(`SELECT * FROM contacts WHERE id = ? AND organization_id = ? AND ${LIVE}${tx.forUpdate}`, [
      id,
      organizationId,
    ])
    if (row) found.set(id, row)
  }
  return found
}

export async function insertContact(tx: Tx, row: ContactRow): Promise<void> {
  await tx.kysely.insertInto('contacts').values(row).execute()
  await replaceContactTags(tx, row)
}

/** Saves every column; the tag index follows when `tagsChanged`. */
export async function saveContact(tx: Tx, row: ContactRow, tagsChanged: boolean): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('contacts').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
  if (tagsChanged) await replaceContactTags(tx, row)
}

/**
 * A conversion links a contact it found to the account: that column alone, in one statement, so what
 * changed since the read (its last activity, another conversion's link) is not written back stale.
 */
export async function linkContactToAccount(tx: Tx, row: ContactRow, accountId: string, now: number): Promise<ContactRow> {
  const key = [row.id, row.organization_id]
  await tx.raw.run('UPDATE contacts SET account_id = ?, updated_at = ? WHERE id = ? AND organization_id = ?', [accountId, now, ...key])
  return (await tx.raw.get<ContactRow>('SELECT * FROM contacts WHERE id = ? AND organization_id = ?', key)) ?? row
}

async function replaceContactTags(tx: Tx, row: ContactRow): Promise<void> {
  await tx.raw.run('DELETE FROM contact_tags WHERE contact_id = ?', [row.id])
  const tags = JSON.parse(row.tags) as string[]
  if (tags.length === 0) return
  await tx.kysely
    .insertInto('contact_tags')
    .values(tags.map((tag) => ({ contact_id: row.id, organization_id: row.organization_id, tag })))
    .execute()
}

/** A ticket of theirs was created: activity, not a change of the record (updated_at stays). */
export async function touchContactActivity(tx: Tx, contact: Pick<ContactRow, 'id' | 'organization_id'>, now: number): Promise<void> {
  await tx.raw.run('UPDATE contacts SET last_activity_at = ? WHERE id = ? AND organization_id = ?', [
    now,
    contact.id,
    contact.organization_id,
  ])
}

/** Its tags go with it (ON DELETE CASCADE); other modules' records let go of it first (src/references.ts). */
export async function deleteContactRow(tx: Tx, row: ContactRow): Promise<void> {
  await tx.raw.run('DELETE FROM contacts WHERE id = ? AND organization_id = ?', [row.id, row.organization_id])
}

/** Merge: the leads converted into `from` and the contacts merged into it before now point at `to`. */
export async function moveContactLinks(tx: Tx, organizationId: string, from: string, to: string): Promise<void> {
  await tx.raw.run('UPDATE contacts SET merged_into_id = ? WHERE organization_id = ? AND merged_into_id = ?', [to, organizationId, from])
  await tx.raw.run('UPDATE leads SET converted_contact_id = ? WHERE organization_id = ? AND converted_contact_id = ?', [
    to,
    organizationId,
    from,
  ])
}

export function liveContactsOfAccount(db: Queries, organizationId: string, accountId: string): Promise<ContactRow[]> {
  return db.raw.all<ContactRow>(`SELECT * FROM contacts WHERE organization_id = ? AND account_id = ? AND ${LIVE} ORDER BY id`, [
    organizationId,
    accountId,
  ])
}

/** Every contact of the account loses it; merged ones too (silently: they are gone for the API), or the account could not be deleted. */
export async function detachContacts(tx: Tx, organizationId: string, accountId: string, now: number): Promise<void> {
  await tx.raw.run(`UPDATE contacts SET account_id = NULL, updated_at = ? WHERE organization_id = ? AND account_id = ? AND ${LIVE}`, [
    now,
    organizationId,
    accountId,
  ])
  await tx.raw.run('UPDATE contacts SET account_id = NULL WHERE organization_id = ? AND account_id = ?', [organizationId, accountId])
}

export interface ContactFilterValues {
  accountId?: string
  ownerId?: string
  contactType?: ContactType
  tag?: string
  blocked?: boolean
  q?: string
  createdAfter?: number
  createdBefore?: number
}

// A search that looks like a phone number: digits with the usual separators.
const PHONE_LIKE = /^\+?[\d\s().-]+$/

/** `q`: prefix of the name (folded), the e-mail or the phone's digits, or of the external id (exactly as written). */
export function searchCondition(q: string): Condition {
  const parts = ["contacts.name_key LIKE ? ESCAPE '\\'", "contacts.email LIKE ? ESCAPE '\\'"]
  const params = [likePrefix(searchKey(q)), likePrefix(q.toLowerCase())]
  const digits = q.replace(/\D/g, '')
  if (PHONE_LIKE.test(q) && digits !== '') {
    parts.push('contacts.phone LIKE ?')
    params.push(`+${digits}%`)
  }
  // External ids keep their case: a range of the byte order (LIKE ignores ASCII case on SQLite only).
  parts.push('(contacts.external_id >= ? AND contacts.external_id < ?)')
  params.push(q, `${q}\u{10FFFF}`)
  return { sql: parts.join(' OR '), params }
}

/** At most this many candidates are looked up by id; a search matching more walks the list's sort instead. */
export const SEARCH_CANDIDATES_MAX = 200

/**
 * The ids of the contacts `q` may match (searchCondition still decides, and LIVE), found through the
 * indexes of name, external id, phone and e-mail, one after another, stopping as soon as there are
 * more candidates than SEARCH_CANDIDATES_MAX, or more than a quarter of that by one of the last three.
 * Undefined then: the matches are common, and walking the sort's index meets 21 of them soon; when
 * they are few, that walk would read the whole organization to find them.
 */
export async function searchCandidates(db: Queries, organizationId: string, q: string): Promise<string[] | undefined> {
  // The name first: (organization_id, name_key, id) answers it from the index alone, and a common name
  // ends the search there. The partial unique indexes hold no id: those arms read their rows.
  const arms: [string, string][] = [
    ['name_key', searchKey(q)],
    ['external_id', q],
  ]
  const digits = q.replace(/\D/g, '')
  if (PHONE_LIKE.test(q) && digits !== '') arms.push(['phone', `+${digits}`])
  arms.push(['email', q.toLowerCase()])
  const ids = new Set<string>()
  for (const [column, prefix] of arms) {
    // The prefix's range of the index, up to the largest code point after it.
    const byName = column === 'name_key'
    // The partial indexes are of live contacts only: a query must say so to be allowed them.
    const live = byName ? '' : ` AND ${LIVE}`
    // Their rows cost a read each: past a quarter of the cap, such a prefix counts as common.
    const limit = byName ? SEARCH_CANDIDATES_MAX : SEARCH_CANDIDATES_MAX / 4
    const rows = await db.raw.all<{ id: string }>(
      `SELECT id FROM contacts WHERE organization_id = ? AND ${column} >= ? AND ${column} < ?${live} LIMIT ?`,
      [organizationId, prefix, `${prefix}\u{10FFFF}`, limit + 1],
    )
    for (const row of rows) ids.add(row.id)
    if (rows.length > limit || ids.size > SEARCH_CANDIDATES_MAX) return undefined
  }
  return [...ids]
}

/** The condition of a search's few candidates (searchCandidates), for a list with `fewRows`. */
export function candidatesCondition(ids: readonly string[]): Condition {
  return ids.length === 0 ? { sql: '1 = 0', params: [] } : { sql: `contacts.id IN (${ids.map(() => '?').join(', ')})`, params: [...ids] }
}

export function contactConditions(filters: ContactFilterValues): Condition[] {
  const where: Condition[] = [{ sql: `contacts.${LIVE}`, params: [] }]
  if (filters.accountId === 'none') where.push({ sql: 'contacts.account_id IS NULL', params: [] })
  else if (filters.accountId !== undefined) where.push({ sql: 'contacts.account_id = ?', params: [filters.accountId] })
  if (filters.ownerId === 'none') where.push({ sql: 'contacts.owner_id IS NULL', params: [] })
  else if (filters.ownerId !== undefined) where.push({ sql: 'contacts.owner_id = ?', params: [filters.ownerId] })
  if (filters.contactType !== undefined) where.push({ sql: 'contacts.contact_type = ?', params: [filters.contactType] })
  if (filters.blocked !== undefined) where.push({ sql: 'contacts.blocked = ?', params: [filters.blocked] })
  if (filters.tag !== undefined)
    where.push({
      sql: 'contacts.id IN (SELECT contact_id FROM contact_tags WHERE organization_id = contacts.organization_id AND tag = ?)',
      params: [filters.tag],
    })
  if (filters.q !== undefined) where.push(searchCondition(filters.q))
  if (filters.createdAfter !== undefined) where.push({ sql: 'contacts.created_at > ?', params: [filters.createdAfter] })
  if (filters.createdBefore !== undefined) where.push({ sql: 'contacts.created_at < ?', params: [filters.createdBefore] })
  return where
}
