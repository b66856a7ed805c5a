// The reports_fold cron task (once per cluster): each organization's new events, in its stream order, in
// batches of one short transaction each, into facts and buckets. Rebuilding forgets what was folded and
// reads the whole log again: the same events give the same facts, so it can run any time, any number of times.
import type { AppContext } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import type { Schedule } from '../../lib/business-hours.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import type { ReportBucketsTable } from './table.ts'
import type { Agg } from './facts.ts'
import { mergeAgg } from './facts.ts'
import { factOfRow } from './facts.ts'
import { bucketDeltas, factsOfEvent, keptOut, parseLogRow, slotOf, stateKeysOf } from './fold.ts'
import { StateView } from './fold-state.ts'
import { histogramText, parseHistogram } from './histogram.ts'
import { SPREAD_STREAMS } from './registry.ts'
import {
  deletedAmong,
  eventsAfter,
  factsOfRecord,
  finishDeletion,
  bucketsAround,
  findReportSettings,
  forgetFolded,
  forgetFoldedSince,
  insertFacts,
  organizationIds,
  organizationsBehind,
  pendingDeletions,
  progressOf,
  saveBuckets,
  saveProgress,
} from './store.ts'

/** Events per transaction: short enough that the one SQLite writer is never held long. */
export const FOLD_BATCH = 400
const REBUILD_BATCH = 1000

export function scheduleOf(businessHours: string | null | undefined): Schedule | undefined {
  return businessHours ? (JSON.parse(businessHours) as Schedule) : undefined
}

/** Folds up to one batch of the organization's new events; how many it read. */
export async function foldBatch(app: Pick<AppContext, 'db' | 'clock'>, organizationId: string, batch = FOLD_BATCH): Promise<number> {
  return app.db.write('reports.fold', async (tx) => {
    // One fold of an organization at a time, whichever instance runs it.
    await tx.lock(`reports.fold:${organizationId}`)
    const progress = await progressOf(tx, organizationId)
    const rows = await eventsAfter(tx, organizationId, progress.foldedSeq, batch)
    const deltas = await takeOutDeleted(tx, organizationId)
    if (rows.length === 0) {
      await addToBuckets(tx, organizationId, deltas)
      return 0
    }
    const schedule = scheduleOf((await findReportSettings(tx, organizationId))?.business_hours)
    const state = new StateView(tx, organizationId)
    const events = rows.map(parseLogRow)
    await state.prefetch(events.flatMap(stateKeysOf))
    const made = []
    for (const event of events) made.push(...keptOut(progress, event.seq, await factsOfEvent(event, state, schedule)))
    // A record deleted before its events were folded is never counted.
    const deleted = await deletedAmong(tx, organizationId, [...new Set(made.map((fact) => fact.recordId))])
    const facts = made.filter((fact) => !deleted.has(fact.recordId))
    await insertFacts(
      tx,
      facts.map((fact) => ({
        organization_id: organizationId,
        metric: fact.stream,
        at: fact.at,
        record_type: fact.recordType,
        record_id: fact.recordId,
        seq: fact.seq,
        value: fact.value,
        started_at: fact.startedAt,
        business_value: fact.businessValue ?? null,
        dims: JSON.stringify(fact.dims),
      })),
    )
    await addToBuckets(tx, organizationId, bucketDeltas(facts, 1, deltas))
    await state.save(tx)
    await saveProgress(tx, organizationId, Number(rows.at(-1)!.seq), app.clock.now())
    return rows.length
  })
}

/** The deleted records' facts, out of the buckets (as deltas) and out of report_facts. */
async function takeOutDeleted(tx: Tx, organizationId: string): Promise<Map<string, Agg>> {
  const deltas = new Map<string, Agg>()
  for (const recordId of await pendingDeletions(tx, organizationId)) {
    bucketDeltas((await factsOfRecord(tx, organizationId, recordId)).map(factOfRow), -1, deltas)
    await finishDeletion(tx, organizationId, recordId)
  }
  return deltas
}

async function addToBuckets(tx: Tx, organizationId: string, deltas: Map<string, Agg>): Promise<void> {
  const keys = [...deltas.keys()].map((key) => {
    const [metric, dim, dimValue, slot] = key.split('\u0000') as [string, string, string, string]
    return { organization_id: organizationId, metric, dim, dim_value: dimValue, bucket_start: Number(slot), delta: deltas.get(key)! }
  })
  if (keys.length === 0) return
  // The buckets the batch adds to, in one read: a batch's facts lie close together in time.
  const slots = keys.map((key) => key.bucket_start)
  const streams = [...new Set(keys.map((key) => key.metric))]
  const dims = [...new Set(keys.map((key) => key.dim))]
  const existing = new Map<string, ReportBucketsTable>()
  for (const row of await bucketsAround(tx, organizationId, streams, dims, Math.min(...slots), Math.max(...slots)))
    existing.set(`${row.metric}\u0000${row.dim}\u0000${row.dim_value}\u0000${Number(row.bucket_start)}`, row)
  await saveBuckets(
    tx,
    keys.map((key) => {
      const row = existing.get(`${key.metric}\u0000${key.dim}\u0000${key.dim_value}\u0000${key.bucket_start}`)
      const agg = row
        ? {
            n: Number(row.n),
            total: Number(row.total),
            businessTotal: Number(row.business_total),
            hist: parseHistogram(row.hist),
            businessHist: parseHistogram(row.business_hist),
          }
        : { n: 0, total: 0, businessTotal: 0, hist: new Map(), businessHist: new Map() }
      mergeAgg(agg, key.delta)
      const { delta: _, ...id } = key
      return {
        ...id,
        n: agg.n,
        total: agg.total,
        business_total: agg.businessTotal,
        hist: histogramText(agg.hist),
        business_hist: histogramText(agg.businessHist),
      }
    }),
  )
}

/** Folds every organization's new events, at most `maxBatches` batches in all; how many events. */
export async function foldAll(app: Pick<AppContext, 'db' | 'clock'>, maxBatches = 50): Promise<number> {
  let folded = 0
  let batches = 0
  for (const { organization_id } of await organizationsBehind(app.db)) {
    while (batches < maxBatches) {
      batches += 1
      const n = await foldBatch(app, organization_id)
      folded += n
      if (n < FOLD_BATCH) break
    }
  }
  return folded
}

/** The organizations reports can be rebuilt for: `only` if it exists, else every one. */
export async function reportOrganizations(app: Pick<AppContext, 'db'>, only?: string): Promise<string[]> {
  const ids = await organizationIds(app.db)
  return only === undefined ? ids : ids.filter((id) => id === only)
}

/**
 * Forgets an organization's folded reports (from `from` on: the facts of earlier buckets stay) and
 * folds its log again from the first event.
 */
export async function rebuildReports(app: Pick<AppContext, 'db' | 'clock'>, organizationId: string, from?: number): Promise<number> {
  await app.db.write('reports.rebuild', async (tx) => {
    await tx.lock(`reports.fold:${organizationId}`)
    if (from === undefined) await forgetFolded(tx, organizationId)
    else await forgetFoldedSince(tx, organizationId, slotOf(from), [...SPREAD_STREAMS])
  })
  let folded = 0
  // Larger batches than the cron task's: a rebuild is asked for, and ends sooner so.
  for (let n = REBUILD_BATCH; n === REBUILD_BATCH; folded += n) n = await foldBatch(app, organizationId, REBUILD_BATCH)
  return folded
}

export function reportsFoldTask(app: AppContext, intervalMs: number): TaskDefinition {
  return {
    name: 'reports_fold',
    intervalMs,
    async run() {
      const folded = await foldAll(app)
      return { worked: folded > 0, events_folded: folded }
    },
  }
}
