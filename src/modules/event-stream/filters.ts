// The `types=` filter of a stream: catalog names, `*`, or a group prefix ending in `.*` (`ticket.*`,
// `crm.contact.*`) that covers at least one name — the rules of a webhook's events filter (the webhooks
// module does not export its matcher, so it is written again here, the same way).
import { AppError } from '../../errors.ts'
import { EVENT_TYPES } from '../events/index.ts'

const ALL: readonly string[] = Object.values(EVENT_TYPES).flat()
const KNOWN = new Set(ALL)
export const MAX_TYPES = 200

const known = (f: string) =>
  f === '*' || KNOWN.has(f) || (f.endsWith('.*') && f.length > 2 && ALL.some((t) => t.startsWith(f.slice(0, -1))))

/** The filters of a `types` query (comma-separated); null (everything) when absent; 400 for an unknown one. */
export function parseTypes(query: string | undefined): readonly string[] | null {
  if (query === undefined) return null
  const filters = [
    ...new Set(
      query
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== ''),
    ),
  ]
  if (filters.length === 0) throw new AppError('VALIDATION_FAILED', 'types names no event type: leave it out to receive every type')
  if (filters.length > MAX_TYPES) throw new AppError('VALIDATION_FAILED', `types names more than ${MAX_TYPES} filters`)
  const unknown = filters.filter((f) => !known(f))
  if (unknown.length > 0)
    throw new AppError(
      'VALIDATION_FAILED',
      `Unknown event types in types: ${unknown.join(', ')} (catalog names, "*", or a prefix such as "ticket.*")`,
    )
  return filters
}

export function matches(filters: readonly string[] | null, type: string): boolean {
  if (filters === null) return true
  for (const f of filters) {
    if (f === '*' || f === type) return true
    if (f.endsWith('.*') && type.startsWith(f.slice(0, -1))) return true
  }
  return false
}
