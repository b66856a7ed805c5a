// The reports_fold cron task (once per cluster): each organization's new events, in its stream order, in
// batches of one short transaction each, into facts and totals. Rebuilding forgets what was folded and
// reads the whole log again: the same events give the same facts, so it can run any time, any number of times.
import type { AppContext } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import type { Schedule } from '../../lib/business-hours.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { type Agg, type Fact, factOfRow } from './facts.ts'
import { factsOfEvent, keptOut, parseLogRow, slotOf, stateKeysOf, totalDeltas } from './fold.ts'
import { StateView } from './fold-state.ts'
import { SPREAD_STREAMS } from './registry.ts'
import { type Span, spansOf } from './spans.ts'
import { addToTotals } from './totals.ts'
import {
  deletedAmong,
  eventsAfter,
  factsOfRecord,
  finishDeletion,
  findReportSettings,
  forgetFolded,
  forgetFoldedSince,
  insertFacts,
  organizationIds,
  organizationsBehind,
  pendingDeletions,
  progressOf,
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
    const settings = await findReportSettings(tx, organizationId)
    // The day totals stay in the zone they were begun in (a whole rebuild takes the organization's current one).
    const dayZone = progress.dayZone ?? settings?.time_zone ?? 'UTC'
    const spans = spansOf(dayZone)
    const deltas = await takeOutDeleted(tx, organizationId, spans)
    if (rows.length === 0) {
      await addToTotals(tx, organizationId, deltas)
      return 0
    }
    const schedule = scheduleOf(settings?.business_hours)
    const state = new StateView(tx, organizationId)
    const events = rows.map(parseLogRow)
    await state.prefetch(events.flatMap(stateKeysOf))
    const made: Fact[] = []
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
    // Events read again by a rebuild from a date add only to the totals it forgot (from keepBefore on).
    const again = (fact: Fact) => progress.keepBefore !== null && fact.seq <= progress.keepUntilSeq
    totalDeltas(facts.filter(again), spans, 1, deltas, progress.keepBefore ?? undefined)
    totalDeltas(
      facts.filter((fact) => !again(fact)),
      spans,
      1,
      deltas,
    )
    await addToTotals(tx, organizationId, deltas)
    await state.save(tx)
    await saveProgress(tx, organizationId, Number(rows.at(-1)!.seq), app.clock.now(), dayZone)
    return rows.length
  })
}

/** The deleted records' facts, out of the totals (as deltas) and out of report_facts. */
async function takeOutDeleted(tx: Tx, organizationId: string, spans: readonly Span[]): Promise<Map<string, Agg>> {
  const deltas = new Map<string, Agg>()
  for (const recordId of await pendingDeletions(tx, organizationId)) {
    totalDeltas((await factsOfRecord(tx, organizationId, recordId)).map(factOfRow), spans, -1, deltas)
    await finishDeletion(tx, organizationId, recordId)
  }
  return deltas
}

/**
 * Folds every organization's new events, a batch of each in turn, until all are read, `budgetMs` of
 * real time has passed or `signal` aborts; how many events. Each batch is its own short transaction.
 */
export async function foldAll(app: Pick<AppContext, 'db' | 'clock'>, budgetMs = 5_000, signal?: AbortSignal): Promise<number> {
  const deadline = performance.now() + budgetMs
  let folded = 0
  let behind = (await organizationsBehind(app.db)).map((row) => row.organization_id)
  while (behind.length > 0) {
    const still: string[] = []
    for (const organizationId of behind) {
      const n = await foldBatch(app, organizationId)
      folded += n
      if (n === FOLD_BATCH) still.push(organizationId)
      if (performance.now() > deadline || signal?.aborted) return folded
    }
    behind = still
  }
  return folded
}

/** The organizations reports can be rebuilt for: `only` if it exists, else every one. */
export async function reportOrganizations(app: Pick<AppContext, 'db'>, only?: string): Promise<string[]> {
  const ids = await organizationIds(app.db)
  return only === undefined ? ids : ids.filter((id) => id === only)
}

/**
 * Forgets an organization's folded reports (from `from` on: earlier facts and totals stay) and
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
    async run({ signal }) {
      // Until caught up, within half the interval: a large backlog is read over a few runs.
      const folded = await foldAll(app, Math.max(1_000, intervalMs / 2), signal)
      return { worked: folded > 0, events_folded: folded }
    },
  }
}
