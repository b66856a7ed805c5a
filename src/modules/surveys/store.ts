// The surveys' SQL: a response by id or by its link's token, insert, save, the expiring batch, the
// keyset list, the metrics' counts and the settings row. Subjects are read through their own modules
// (subject.ts), never here.
import type { Queries, Tx } from '../../db/database.ts'
import { type Condition, defineList } from '../../db/list.ts'
import type { SubjectType, SurveyResponsesTable, SurveySettingsTable } from './table.ts'

export type SurveyResponseRow = SurveyResponsesTable
export type SurveySettingsRow = SurveySettingsTable

// offered_at has its index on (organization_id, offered_at, id) in 0020_engagements.sql.
export const SURVEY_LIST = defineList('survey_responses', { resource: 'survey_responses', sorts: ['offered_at'] })

export function findSurvey(db: Queries, organizationId: string, id: string): Promise<SurveyResponseRow | undefined> {
  return db.raw.get<SurveyResponseRow>('SELECT * FROM survey_responses WHERE id = ? AND organization_id = ?', [id, organizationId])
}

export function findSurveyByToken(db: Queries, tokenHash: string): Promise<SurveyResponseRow | undefined> {
  return db.raw.get<SurveyResponseRow>('SELECT * FROM survey_responses WHERE token_hash = ?', [tokenHash])
}

/**
 * The response locked FOR UPDATE until the transaction ends, by its link's token or by id. Invariants: a
 * link answered by many at once records one first answer (one `completed`, the others `updated` after
 * it), and a new link and an answer (or two new links) never overwrite each other's row.
 */
export function lockSurvey(
  tx: Tx,
  by: { tokenHash: string } | { organizationId: string; id: string },
): Promise<SurveyResponseRow | undefined> {
  if ('tokenHash' in by)
    return tx.raw.get<SurveyResponseRow>(`SELECT * FROM survey_responses WHERE token_hash = ?${tx.forUpdate}`, [by.tokenHash])
  return tx.raw.get<SurveyResponseRow>(`SELECT * FROM survey_responses WHERE id = ? AND organization_id = ?${tx.forUpdate}`, [
    by.id,
    by.organizationId,
  ])
}

export function findSurveyOfSubject(
  db: Queries,
  organizationId: string,
  subject: { type: SubjectType; id: string },
  surveyType: string,
): Promise<SurveyResponseRow | undefined> {
  return db.raw.get<SurveyResponseRow>(
    'SELECT * FROM survey_responses WHERE organization_id = ? AND subject_type = ? AND subject_id = ? AND survey_type = ?',
    [organizationId, subject.type, subject.id, surveyType],
  )
}

export async function insertSurvey(tx: Tx, row: SurveyResponseRow): Promise<void> {
  await tx.kysely.insertInto('survey_responses').values(row).execute()
}

export async function saveSurvey(tx: Tx, row: SurveyResponseRow): Promise<void> {
  const { id, organization_id, ...columns } = row
  await tx.kysely.updateTable('survey_responses').set(columns).where('id', '=', id).where('organization_id', '=', organization_id).execute()
}

/** Offers past their expiry, oldest first (the partial index survey_responses_expiring). */
export function expiringSurveys(db: Queries, now: number, limit: number): Promise<SurveyResponseRow[]> {
  return db.raw.all<SurveyResponseRow>(
    "SELECT * FROM survey_responses WHERE status = 'offered' AND expires_at <= ? ORDER BY expires_at, id LIMIT ?",
    [now, limit],
  )
}

/** Marks the given offers expired, if still offered; returns how many moved. */
export function expireSurveys(tx: Tx, ids: readonly string[], now: number): Promise<number> {
  return tx.raw.run(
    `UPDATE survey_responses SET status = 'expired', updated_at = ? WHERE status = 'offered' AND id IN (${ids.map(() => '?').join(', ')})`,
    [now, ...ids],
  )
}

export interface TypeCounts {
  survey_type: string
  offered: number
  responded: number
  satisfied: number
  promoters: number
  detractors: number
  score_sum: number
}

/** The metrics' counts per survey type over the rows the conditions select. */
export function surveyCounts(db: Queries, organizationId: string, where: readonly Condition[]): Promise<TypeCounts[]> {
  const clauses = ['organization_id = ?', ...where.map((c) => c.sql)].join(' AND ')
  return db.raw.all<TypeCounts>(
    'SELECT survey_type, count(*) AS offered, ' +
      "sum(CASE WHEN status = 'responded' THEN 1 ELSE 0 END) AS responded, " +
      "sum(CASE WHEN status = 'responded' AND score >= 4 THEN 1 ELSE 0 END) AS satisfied, " +
      "sum(CASE WHEN status = 'responded' AND score >= 9 THEN 1 ELSE 0 END) AS promoters, " +
      "sum(CASE WHEN status = 'responded' AND score <= 6 THEN 1 ELSE 0 END) AS detractors, " +
      "coalesce(sum(CASE WHEN status = 'responded' THEN score ELSE 0 END), 0) AS score_sum " +
      `FROM survey_responses WHERE ${clauses} GROUP BY survey_type`,
    [organizationId, ...where.flatMap((c) => c.params)],
  )
}

/**
 * The settings row; in a write transaction locked FOR UPDATE until it ends. Invariant: PATCHes at once
 * (each naming other channels) all apply, none overwriting another's; when there is no row yet, the
 * primary key makes the second insert fail and run again (src/db/retry.ts), then it finds the first's.
 */
export function findSurveySettings(
  db: Queries,
  organizationId: string,
  lock: Tx['forUpdate'] = '',
): Promise<SurveySettingsRow | undefined> {
  return db.raw.get<SurveySettingsRow>(`SELECT * FROM survey_settings WHERE organization_id = ?${lock}`, [organizationId])
}

export async function saveSurveySettings(tx: Tx, row: SurveySettingsRow): Promise<void> {
  const { organization_id, ...columns } = row
  const changed = await tx.kysely
    .updateTable('survey_settings')
    .set(columns)
    .where('organization_id', '=', organization_id)
    .executeTakeFirst()
  if (Number(changed.numUpdatedRows) === 0) await tx.kysely.insertInto('survey_settings').values(row).execute()
}

/** What an offer captures of its subject. */
export interface SubjectFacts {
  contact_id: string | null
  agent_id: string | null
  team: string | null
  channel: string | null
}

/**
 * The responses that captured contact `from` name `to` instead (null: none), their updated_at moved: the
 * contact was merged into `to`, or deleted (index survey_responses_contact). Returns how many.
 */
export function repointSurveyContacts(tx: Tx, organizationId: string, from: string, to: string | null, now: number): Promise<number> {
  return tx.raw.run('UPDATE survey_responses SET contact_id = ?, updated_at = ? WHERE contact_id = ? AND organization_id = ?', [
    to,
    now,
    from,
    organizationId,
  ])
}
