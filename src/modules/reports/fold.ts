// The fold: events of the log -> facts -> 15-minute UTC buckets. Facts of intervals (an agent's time in a
// status) are split at the bucket edges they cross; a duration gets its business-time value from the
// organization's schedule as it stands when the fold reads the event (reports rebuild recomputes).
import { type Schedule, businessMs } from '../../lib/business-hours.ts'
import { QUARTER_HOUR_MS } from '../../lib/zoned-time.ts'
import { type Agg, addFact, dimValues, emptyAgg, type Fact } from './facts.ts'
import type { FoldEvent, FoldState } from './metric.ts'
import { FOLDERS, SPREAD_STREAMS } from './registry.ts'
import type { LogRow, Progress } from './store.ts'

export function parseLogRow(row: LogRow): FoldEvent {
  const body = JSON.parse(row.body) as { data: unknown }
  return { seq: Number(row.seq), type: row.type, createdAt: Number(row.created_at), actorKind: row.actor_kind, data: body.data }
}

/** The facts of one event, every family's, split and valued as they are stored. */
export async function factsOfEvent(event: FoldEvent, state: FoldState, schedule: Schedule | undefined): Promise<Fact[]> {
  const facts: Fact[] = []
  for (const folder of FOLDERS.get(event.type) ?? []) facts.push(...(await folder(event, state)))
  return facts.flatMap(pieces).map((fact) => withBusinessValue(fact, schedule))
}

export const slotOf = (instant: number) => Math.floor(instant / QUARTER_HOUR_MS) * QUARTER_HOUR_MS

/** The bucket a fact counts in: an interval piece's by its start, any other by its time. */
export const factSlot = (fact: Pick<Fact, 'stream' | 'at' | 'startedAt'>) =>
  slotOf(SPREAD_STREAMS.has(fact.stream) ? fact.startedAt! : fact.at)

/** An interval fact in pieces, one per 15-minute bucket it crosses (value: the seconds of each piece). */
function pieces(fact: Fact): Fact[] {
  if (!SPREAD_STREAMS.has(fact.stream) || fact.startedAt === null) return [fact]
  const out: Fact[] = []
  for (let start = fact.startedAt; start < fact.at; ) {
    const end = Math.min(fact.at, slotOf(start) + QUARTER_HOUR_MS)
    out.push({ ...fact, startedAt: start, at: end, value: (end - start) / 1000 })
    start = end
  }
  return out
}

function withBusinessValue(fact: Fact, schedule: Schedule | undefined): Fact {
  if (schedule === undefined || fact.value === null || fact.startedAt === null) return fact
  // A duration is business time between its start and its end; an interval piece is its own span.
  const end = SPREAD_STREAMS.has(fact.stream) ? fact.at : fact.startedAt + fact.value * 1000
  return { ...fact, businessValue: Math.round(businessMs(schedule, fact.startedAt, end) / 1000) }
}

/** `${stream}\u0000${dim}\u0000${dimValue}\u0000${slot}` -> the sum of the facts in it (dim '' is the total). */
export function bucketDeltas(facts: readonly Fact[], weight: 1 | -1 = 1, deltas = new Map<string, Agg>()): Map<string, Agg> {
  for (const fact of facts) {
    const slot = factSlot(fact)
    for (const dim of ['', ...Object.keys(fact.dims)])
      for (const value of dimValues(fact, dim)) {
        const key = `${fact.stream}\u0000${dim}\u0000${value}\u0000${slot}`
        let agg = deltas.get(key)
        if (!agg) deltas.set(key, (agg = emptyAgg()))
        addFact(agg, fact, weight)
      }
  }
  return deltas
}

/** An event's facts less those a rebuild from a date kept (it reads the log again only for the state). */
export function keptOut(progress: Progress, seq: number, facts: Fact[]): Fact[] {
  if (progress.keepBefore === null || Number(seq) > progress.keepUntilSeq) return facts
  return facts.filter((fact) => factSlot(fact) >= progress.keepBefore!)
}

/** The state keys the folders may read for an event (fetched for a whole batch at once). */
export function stateKeysOf(event: FoldEvent): string[] {
  const data = event.data as { ticket?: { id: string }; engagement?: { id: string }; agent?: { id: string } }
  const keys: string[] = []
  if (data.ticket) keys.push(`t:${data.ticket.id}`)
  if (data.engagement) keys.push(`e:${data.engagement.id}`)
  if (data.agent) keys.push(`a:${data.agent.id}`, `l:${data.agent.id}`)
  return keys
}
