// The metric registry: every metric of every family, in the order `GET /api/v1/reports/metrics` lists
// them, and which fact streams come from the event log (folded) and which from their tables (sources).
import type { Folder, MetricDef, MetricFamily } from './metric.ts'
import { AGENTS, SPREAD_STREAMS } from './metrics/agents.ts'
import { BILLING } from './metrics/billing.ts'
import { CALLS } from './metrics/calls.ts'
import { CRM } from './metrics/crm.ts'
import { ENGAGEMENTS } from './metrics/engagements.ts'
import { SURVEYS } from './metrics/surveys.ts'
import { TICKETS } from './metrics/tickets.ts'

export { SPREAD_STREAMS }

const FAMILIES: readonly MetricFamily[] = [TICKETS, CALLS, AGENTS, ENGAGEMENTS, SURVEYS, CRM, BILLING]

export const METRICS: readonly MetricDef[] = FAMILIES.flatMap((family) => family.metrics)
const BY_ID = new Map(METRICS.map((metric) => [metric.id, metric]))

/** The version of the definitions as a whole: the sum of the metrics' versions and their number. */
export const DEFINITIONS_VERSION = `${METRICS.length}.${METRICS.reduce((sum, metric) => sum + metric.version, 0)}`

export function findMetric(id: string): MetricDef | undefined {
  return BY_ID.get(id)
}

/** The folders of each event type (several families may read one type). */
export const FOLDERS: ReadonlyMap<string, readonly Folder[]> = (() => {
  const folders = new Map<string, Folder[]>()
  for (const family of FAMILIES)
    for (const [type, folder] of Object.entries(family.folders)) folders.set(type, [...(folders.get(type) ?? []), folder])
  return folders
})()

/** Streams read from their own tables at report time (store.ts: SOURCE_QUERIES), never folded. */
export const SOURCE_STREAMS = new Set([
  'survey.offered',
  'survey.csat',
  'survey.nps',
  'survey.ces',
  'contact.created',
  'lead.created',
  'lead.converted',
  'subscription.active',
  'subscription.created',
  'subscription.canceled',
  'payment.succeeded',
  'refund.created',
])
