// The call settings' SQL: one organization's row (absent until a default is changed), its upsert, and
// the organization of a Twilio account (AccountSid is unique across organizations).
import type { Queries, Tx } from '../../../db/database.ts'
import type { CallSettingsTable } from '../table.ts'

export type CallSettingsRow = CallSettingsTable

export const DEFAULT_RETENTION_DAYS = 90

export function findCallSettings(db: Queries, organizationId: string): Promise<CallSettingsRow | undefined> {
  return db.raw.get<CallSettingsRow>('SELECT * FROM call_settings WHERE organization_id = ?', [organizationId])
}

function defaults(organizationId: string): CallSettingsRow {
  return {
    organization_id: organizationId,
    recording_retention_days: DEFAULT_RETENTION_DAYS,
    twilio_account_sid: null,
    twilio_auth_token_encrypted: null,
    updated_at: 0,
  }
}

/** The organization's settings, its defaults when it never changed them. */
export async function callSettingsOf(db: Queries, organizationId: string): Promise<CallSettingsRow> {
  return (await findCallSettings(db, organizationId)) ?? defaults(organizationId)
}

/**
 * As callSettingsOf, the row locked until the transaction ends (a change writes the whole row back). With
 * no row yet, two first changes both insert: the loser breaks the primary key and its re-run locks the row.
 */
export async function lockCallSettings(tx: Tx, organizationId: string): Promise<CallSettingsRow> {
  const row = await tx.raw.get<CallSettingsRow>(`SELECT * FROM call_settings WHERE organization_id = ?${tx.forUpdate}`, [organizationId])
  return row ?? defaults(organizationId)
}

export function findSettingsByTwilioAccount(db: Queries, accountSid: string): Promise<CallSettingsRow | undefined> {
  return db.raw.get<CallSettingsRow>('SELECT * FROM call_settings WHERE twilio_account_sid = ?', [accountSid])
}

export async function saveCallSettings(tx: Tx, row: CallSettingsRow): Promise<void> {
  const { organization_id, ...columns } = row
  const changed = await tx.kysely
    .updateTable('call_settings')
    .set(columns)
    .where('organization_id', '=', organization_id)
    .executeTakeFirst()
  if (Number(changed.numUpdatedRows) === 0) await tx.kysely.insertInto('call_settings').values(row).execute()
}
