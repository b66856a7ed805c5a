// Pages of a report's rows (agents, records), keyset-style: a signed page token holds the sort key of the
// last row given and is bound to the organization and to the report's other parameters.
import { createHash } from 'node:crypto'
import type { Ctx, UserActor } from '../../context.ts'

export const PAGE_SIZE_DEFAULT = 100

export interface Page<T> {
  items: T[]
  nextPageToken: string | null
}

/** The query with the paging parameters left out, as the page token's binding. */
export function queryDigest(path: string, query: Record<string, unknown>): string {
  const { page_token: _, page_size: __, ...rest } = query
  const sorted = Object.keys(rest)
    .sort()
    .map((key) => [key, rest[key]])
  return createHash('sha256')
    .update(`${path}?${JSON.stringify(sorted)}`)
    .digest('base64url')
}

/** `rows` sorted by `keyOf` (strictly increasing): the page after the token's position. */
export function pageOf<T>(
  ctx: Ctx<UserActor>,
  rows: readonly T[],
  keyOf: (row: T) => [number, string],
  input: { pageSize?: number; pageToken?: string; digest: string },
): Page<T> {
  const binding = { organizationId: ctx.actor.organizationId, query: input.digest }
  let start = 0
  if (input.pageToken !== undefined) {
    const [sort, id] = ctx.pageTokens.decode(input.pageToken, binding).after as [number, string]
    start = rows.findIndex((row) => {
      const [s, i] = keyOf(row)
      return s > sort || (s === sort && i > id)
    })
    if (start === -1) start = rows.length
  }
  const size = input.pageSize ?? PAGE_SIZE_DEFAULT
  const items = rows.slice(start, start + size)
  const more = start + size < rows.length
  return { items, nextPageToken: more ? ctx.pageTokens.encode(binding, { after: keyOf(items.at(-1)!) }) : null }
}
