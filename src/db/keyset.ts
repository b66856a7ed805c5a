// Keyset (seek) pagination SQL: rows after (sort value, id) in a total order, never OFFSET, so page
// 5,000 costs what page 1 costs. Plain SQL text: bun:sqlite caches one compiled statement per text.
import type { SQLQueryBindings } from 'bun:sqlite'

export type Direction = 'asc' | 'desc'

/** A piece of a WHERE clause with its bound values. */
export interface Condition {
  sql: string
  params: SQLQueryBindings[]
}

export interface KeysetQuery {
  /** Columns to select. */
  columns: string
  /** Table (or join) to select from. */
  from: string
  /** All must hold (organization scope first). */
  where: Condition[]
  /** Expression of the sort key; an index on (organization, key, id) makes the seek cheap. */
  sortExpr: string
  direction: Direction
  idExpr: string
  /** Sort value and id of the last row already seen. */
  after?: readonly [string | number, string]
  limit: number
}

// Each condition in brackets: one written as `a OR b` must not escape the organization scope.
function whereClause(conditions: Condition[]): Condition {
  return { sql: conditions.length === 0 ? '' : ` WHERE ${conditions.map((c) => `(${c.sql})`).join(' AND ')}`, params: conditions.flatMap((c) => c.params) }
}

export function keysetSql(q: KeysetQuery): Condition {
  const op = q.direction === 'desc' ? '<' : '>'
  const conditions = q.after ? [...q.where, { sql: `(${q.sortExpr}, ${q.idExpr}) ${op} (?, ?)`, params: [q.after[0], q.after[1]] }] : q.where
  const where = whereClause(conditions)
  return {
    sql: `SELECT ${q.columns} FROM ${q.from}${where.sql} ORDER BY ${q.sortExpr} ${q.direction}, ${q.idExpr} ${q.direction} LIMIT ?`,
    params: [...where.params, q.limit],
  }
}

/** How many rows the filters select, ignoring the page position. */
export function countSql(q: Pick<KeysetQuery, 'from' | 'where'>): Condition {
  const where = whereClause(q.where)
  return { sql: `SELECT count(*) AS n FROM ${q.from}${where.sql}`, params: where.params }
}

/** Escapes a user-given prefix for `LIKE ? ESCAPE '\'`. */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
