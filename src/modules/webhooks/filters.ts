// Event filters of a webhook: catalog names, `*` (everything) or a group prefix ending in `.*`
// (`ticket.*`, `crm.contact.*`) that covers at least one name. Checked once at registration; matched
// against each event type when an event is written.
import { memoize } from '../../lib/memo.ts'
import { EVENT_TYPES } from '../events/index.ts'

export const ALL_EVENT_TYPES: readonly string[] = Object.values(EVENT_TYPES).flat()
const KNOWN = new Set(ALL_EVENT_TYPES)

export const MAX_FILTERS = 200

/** The entries that are neither a known name, `*`, nor a prefix covering a known name. */
export function unknownFilters(filters: readonly string[]): string[] {
  return filters.filter(
    (f) => !(f === '*' || KNOWN.has(f) || (f.endsWith('.*') && f.length > 2 && ALL_EVENT_TYPES.some((t) => t.startsWith(f.slice(0, -1))))),
  )
}

export function subscribes(filters: readonly string[], type: string): boolean {
  for (const f of filters) {
    if (f === '*' || f === type) return true
    if (f.endsWith('.*') && type.startsWith(f.slice(0, -1))) return true
  }
  return false
}

/** A webhook's stored filters (JSON), parsed once per distinct text: the fan-out reads them for every event. */
export const filtersOf = memoize((column: string): readonly string[] => Object.freeze(JSON.parse(column) as string[]), 1000)
