// defineList: the one list mechanism. A list is declared by its table and sortable columns; it selects
// the table's own columns, adds the organization condition itself, applies the filters before a keyset
// (seek) on (sort column, id) — page 5,000 costs what page 1 costs — and signs the next page token,
// which binds the organization, the filters and the sort. Runs as raw SQL: this is the hottest read path.
import { validationError } from '../errors.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../lib/date-time.ts'
import { queryDigest } from '../lib/page-token.ts'
import type { Queries, SqlValue, Tables } from './database.ts'
import type { PageTokens } from './page-tokens.ts'

export type Direction = 'asc' | 'desc'

/** A piece of a WHERE clause with its bound values; written with `?` placeholders (portable). */
export interface Condition {
  sql: string
  params: SqlValue[]
}

/**
 * The conditions of a list's time-window filters: each given value (RFC 3339) bound into its SQL
 * (`'calls.created_at > ?'`); a malformed one is 400 naming its field.
 */
export function timeWindowConditions<F extends string>(
  filters: Partial<Record<NoInfer<F>, string>>,
  sqlOf: Record<F, string>,
): Condition[] {
  const where: Condition[] = []
  for (const field of Object.keys(sqlOf) as F[]) {
    const text = filters[field]
    if (text === undefined) continue
    const ms = parseDateTime(text)
    if (ms === undefined) throw validationError([{ field, message: DATE_TIME_EXPECTED }])
    where.push({ sql: sqlOf[field], params: [ms] })
  }
  return where
}

export interface ListRequest {
  pageSize: number
  pageToken?: string
  /** `field:direction`, already validated against the list's sorts. */
  sort: string
  includeTotal: boolean
}

export interface ListScope {
  organizationId: string
  /** The filters as the client gave them (bound into the token). */
  filters: Record<string, unknown>
  /** Their SQL and any visibility rules; the organization condition is added by the list. */
  where?: Condition[]
  /**
   * The where already narrows the list to a few rows by id (a search's candidates): the organization
   * condition is then written so that no index can serve it, or the planners would walk the sort's
   * index through the whole organization, testing each row against the ids, rather than look the few up.
   */
  fewRows?: boolean
}

export interface Page<Row> {
  rows: Row[]
  nextPageToken: string
  totalCount?: number
}

type TableName = keyof Tables & string
type RowOf<T extends TableName> = Tables[T]
type ColumnOf<T extends TableName> = keyof RowOf<T> & string

export interface ListSpec<T extends TableName> {
  /** Binds tokens to this list (a token of another list is "other query"); default: the table name. */
  resource?: string
  /**
   * What a client may sort by: columns (the sort field is the column's name), or sort fields mapped to
   * the column that orders them (e.g. `name` by a folded `name_key`). Each needs an index on
   * (organization_id, column, id), or on (organization_id, column) for a `unique` one.
   */
  sorts: readonly ColumnOf<T>[] | Readonly<Record<string, ColumnOf<T>>>
  /**
   * Sort fields whose column is unique within an organization (a ticket's number): ordered and sought by
   * the column alone, on an index of (organization_id, column). An id after it would order nothing, yet
   * PostgreSQL, which does not infer that from the unique index as SQLite does, would add a sort step.
   */
  unique?: readonly string[]
}

export interface List<T extends TableName> {
  readonly resource: string
  /** The sort fields a client may name. */
  readonly sorts: readonly string[]
  page(db: Queries, tokens: PageTokens, request: ListRequest, scope: ListScope): Promise<Page<RowOf<T>>>
  /**
   * Every row the scope selects, in `sort` order, `batchSize` at a time: an export's walk. Each batch is
   * its own keyset query (no transaction stays open while a client reads), so memory stays one batch.
   */
  walk(db: Queries, sort: string, scope: Omit<ListScope, 'filters'>, batchSize: number): AsyncGenerator<RowOf<T>[]>
  /** The statement of one page (for plan checks): rows after `after` in `sort` order. */
  statement(
    sort: string,
    organizationId: string,
    where: Condition[],
    after: readonly [string | number, string] | undefined,
    limit: number,
    fewRows?: boolean,
  ): Condition
}

// Each condition in brackets: one written as `a OR b` must not escape the organization scope.
function whereClause(conditions: readonly Condition[]): Condition {
  return {
    sql: conditions.length === 0 ? '' : ` WHERE ${conditions.map((c) => `(${c.sql})`).join(' AND ')}`,
    params: conditions.flatMap((c) => c.params),
  }
}

export function defineList<T extends TableName>(table: T, spec: ListSpec<T>): List<T> {
  const resource = spec.resource ?? table
  const columns: Record<string, ColumnOf<T>> = Array.isArray(spec.sorts)
    ? Object.fromEntries((spec.sorts as readonly ColumnOf<T>[]).map((c) => [c, c]))
    : { ...(spec.sorts as Record<string, ColumnOf<T>>) }
  const orgCondition = `${table}.organization_id = ?`
  function statement(
    sort: string,
    organizationId: string,
    where: Condition[],
    after: readonly [string | number, string] | undefined,
    limit: number,
    fewRows = false,
  ): Condition {
    const [field, direction] = sort.split(':') as [string, Direction]
    const column = columns[field]
    if (!column) throw new Error(`${resource} cannot be sorted by ${field}`)
    const sortExpr = `${table}.${column}`
    const op = direction === 'desc' ? '<' : '>'
    const unique = spec.unique?.includes(field) ?? false
    // `|| ''` keeps the same test (on both engines) out of every index's reach.
    const conditions: Condition[] = [
      { sql: fewRows ? `${table}.organization_id || '' = ?` : orgCondition, params: [organizationId] },
      ...where,
    ]
    if (after && unique) conditions.push({ sql: `${sortExpr} ${op} ?`, params: [after[0]] })
    else if (after) conditions.push({ sql: `(${sortExpr}, ${table}.id) ${op} (?, ?)`, params: [after[0], after[1]] })
    const clause = whereClause(conditions)
    const order = unique ? `${sortExpr} ${direction}` : `${sortExpr} ${direction}, ${table}.id ${direction}`
    return {
      sql: `SELECT ${table}.* FROM ${table}${clause.sql} ORDER BY ${order} LIMIT ?`,
      params: [...clause.params, limit],
    }
  }

  return {
    resource,
    sorts: Object.keys(columns),
    statement,
    async page(db, tokens, request, scope) {
      const column = columns[request.sort.split(':')[0]!]!
      const binding = { organizationId: scope.organizationId, query: queryDigest(resource, scope.filters, request.sort) }
      const after = request.pageToken ? tokens.decode(request.pageToken, binding).after : undefined
      const where = scope.where ?? []
      // One row more than asked tells whether another page follows.
      const query = statement(request.sort, scope.organizationId, where, after, request.pageSize + 1, scope.fewRows)
      const rows = await db.raw.all<RowOf<T>>(query.sql, query.params)
      const more = rows.length > request.pageSize
      if (more) rows.pop()
      const last = rows.at(-1) as Record<string, unknown> | undefined
      const page: Page<RowOf<T>> = {
        rows,
        nextPageToken: more && last ? tokens.encode(binding, { after: [last[column] as string | number, last.id as string] }) : '',
      }
      if (request.includeTotal) {
        const filtered = whereClause([{ sql: orgCondition, params: [scope.organizationId] }, ...where])
        const count = await db.raw.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}${filtered.sql}`, filtered.params)
        page.totalCount = Number(count?.n ?? 0)
      }
      return page
    },
    async *walk(db, sort, scope, batchSize) {
      const column = columns[sort.split(':')[0]!]!
      let after: readonly [string | number, string] | undefined
      for (;;) {
        const query = statement(sort, scope.organizationId, scope.where ?? [], after, batchSize, scope.fewRows)
        const rows = await db.raw.all<RowOf<T>>(query.sql, query.params)
        if (rows.length > 0) yield rows
        if (rows.length < batchSize) return
        const last = rows.at(-1) as Record<string, unknown>
        after = [last[column] as string | number, last.id as string]
      }
    },
  }
}

/** The body of a list response: `{ <key>: items, next_page_token, total_count? }`. */
export function listBody<K extends string, Row, Item>(key: K, page: Page<Row>, toItem: (row: Row) => Item) {
  const body = { [key]: page.rows.map(toItem), next_page_token: page.nextPageToken } as Record<K, Item[]> & {
    next_page_token: string
    total_count?: number
  }
  if (page.totalCount !== undefined) body.total_count = page.totalCount
  return body
}

/** Escapes a user-given prefix for `LIKE ? ESCAPE '\'`. */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
