// The fold: events of the log -> facts -> totals by hour and by day. Facts of intervals (an agent's time
// in a status) are split at every 15-minute edge they cross (every span's edge is one); a duration gets
// its business-time value from the organization's schedule when the fold reads the event (rebuild recomputes).
import { type Schedule, businessMs } from '../../lib/business-hours.ts'
import { QUARTER_HOUR_MS } from '../../lib/zoned-time.ts'
import { type Agg, addFact, dimValues, emptyAgg, type Fact } from './facts.ts'
import type { FoldEvent, FoldState } from './metric.ts'
import { FOLDERS, SPREAD_STREAMS } from './registry.ts'
import type { Span } from './spans.ts'
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

/** The instant a fact counts at: an interval piece's start, any other fact's time. */
export const factInstant = (fact: Pick<Fact, 'stream' | 'at' | 'startedAt'>) =>
  SPREAD_STREAMS.has(fact.stream) ? fact.startedAt! : fact.at

/** The 15-minute slot a fact counts in. */
export const factSlot = (fact: Pick<Fact, 'stream' | 'at' | 'startedAt'>) => slotOf(factInstant(fact))

/** An interval fact in pieces, one per 15-minute slot it crosses (value: the seconds of each piece). */
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

/** `${stream}\u0000${dim}\u0000${dimValue}\u0000${span}\u0000${start}` -> a key of the totals. */
export const totalKey = (stream: string, dim: string, dimValue: string, span: string, start: number) =>
  `${stream}\u0000${dim}\u0000${dimValue}\u0000${span}\u0000${start}`

/**
 * The facts summed into each total they count in (every span, every dimension; dim '' is the whole).
 * Totals starting before `from` are left alone: a rebuild from a date keeps them as they are.
 */
export function totalDeltas(
  facts: readonly Fact[],
  spans: readonly Span[],
  weight: 1 | -1 = 1,
  deltas = new Map<string, Agg>(),
  from = Number.NEGATIVE_INFINITY,
): Map<string, Agg> {
  // A batch's facts lie close together: each span's start is computed once per 15-minute slot.
  const starts = spans.map(() => new Map<number, number>())
  for (const fact of facts) {
    const slot = factSlot(fact)
    spans.forEach((span, i) => {
      let start = starts[i]!.get(slot)
      if (start === undefined) starts[i]!.set(slot, (start = span.startOf(slot)))
      if (start < from) return
      for (const dim of ['', ...Object.keys(fact.dims)])
        for (const value of dimValues(fact, dim)) {
          const key = totalKey(fact.stream, dim, value, span.name, start)
          let agg = deltas.get(key)
          if (!agg) deltas.set(key, (agg = emptyAgg()))
          addFact(agg, fact, weight)
        }
    })
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
  // A ticket's creation reads no state (metrics/tickets.ts).
  if (data.ticket && event.type !== 'ticket.created') keys.push(`t:${data.ticket.id}`)
  if (data.engagement) keys.push(`e:${data.engagement.id}`)
  if (data.agent) keys.push(`a:${data.agent.id}`, `l:${data.agent.id}`)
  return keys
}
