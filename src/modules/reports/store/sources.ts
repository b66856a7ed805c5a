// The streams read from their own tables (an offer or a lead creation leaves no event; MRR is a state at
// an instant, read from the subscriptions' events).
import type { Queries, SqlValue } from '../../../db/database.ts'

// Each source query takes (organization, from, to) and answers facts' columns; `d_` columns are dimensions.
const SURVEY_SCORE = (type: string) =>
  `SELECT id AS record_id, 'survey_response' AS record_type, responded_at AS at, score AS value, agent_id AS d_agent, channel AS d_channel FROM survey_responses WHERE organization_id = ? AND survey_type = '${type}' AND score IS NOT NULL AND responded_at >= ? AND responded_at < ?`
export const SOURCE_QUERIES: Readonly<Record<string, { sql: string; params: (org: string, from: number, to: number) => SqlValue[] }>> = {
  'survey.offered': {
    sql: "SELECT id AS record_id, 'survey_response' AS record_type, offered_at AS at, CASE WHEN responded_at IS NULL THEN 0 ELSE 1 END AS value, agent_id AS d_agent, channel AS d_channel FROM survey_responses WHERE organization_id = ? AND offered_at >= ? AND offered_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'survey.csat': { sql: SURVEY_SCORE('csat'), params: (org, from, to) => [org, from, to] },
  'survey.nps': { sql: SURVEY_SCORE('nps'), params: (org, from, to) => [org, from, to] },
  'survey.ces': { sql: SURVEY_SCORE('ces'), params: (org, from, to) => [org, from, to] },
  'contact.created': {
    sql: "SELECT id AS record_id, 'contact' AS record_type, created_at AS at, NULL AS value, owner_id AS d_owner, contact_type AS d_contact_type FROM contacts WHERE organization_id = ? AND merged_into_id IS NULL AND created_at >= ? AND created_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'lead.created': {
    sql: "SELECT id AS record_id, 'lead' AS record_type, created_at AS at, CASE WHEN converted_at IS NULL THEN 0 ELSE 1 END AS value, owner_id AS d_owner, source AS d_source FROM leads WHERE organization_id = ? AND created_at >= ? AND created_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'lead.converted': {
    sql: "SELECT id AS record_id, 'lead' AS record_type, converted_at AS at, NULL AS value, owner_id AS d_owner, source AS d_source FROM leads WHERE organization_id = ? AND converted_at >= ? AND converted_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'subscription.created': {
    sql: "SELECT id AS record_id, 'subscription' AS record_type, created_at AS at, NULL AS value, currency AS d_currency FROM subscriptions WHERE organization_id = ? AND created_at >= ? AND created_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'subscription.canceled': {
    sql: "SELECT id AS record_id, 'subscription' AS record_type, canceled_at AS at, NULL AS value, currency AS d_currency FROM subscriptions WHERE organization_id = ? AND canceled_at >= ? AND canceled_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'payment.succeeded': {
    sql: "SELECT id AS record_id, 'payment' AS record_type, succeeded_at AS at, amount AS value, currency AS d_currency FROM payments WHERE organization_id = ? AND succeeded_at >= ? AND succeeded_at < ?",
    params: (org, from, to) => [org, from, to],
  },
  'refund.created': {
    sql: "SELECT id AS record_id, 'refund' AS record_type, created_at AS at, amount AS value, currency AS d_currency FROM refunds WHERE organization_id = ? AND created_at >= ? AND created_at < ? AND status <> 'failed'",
    params: (org, from, to) => [org, from, to],
  },
}

export function sourceRows(db: Queries, stream: string, organizationId: string, from: number, to: number) {
  const source = SOURCE_QUERIES[stream]!
  return db.raw.all<Record<string, SqlValue>>(source.sql, source.params(organizationId, from, to))
}

/** The subscriptions' events up to `to`, in order: each carries the whole subscription as it then was. */
export function subscriptionEventsBefore(db: Queries, organizationId: string, to: number) {
  return db.raw.all<{ body: string }>(
    "SELECT body FROM events WHERE organization_id = ? AND type IN ('subscription.created', 'subscription.updated', 'subscription.canceled') AND created_at < ? AND stream_seq IS NOT NULL ORDER BY stream_seq",
    [organizationId, to],
  )
}
