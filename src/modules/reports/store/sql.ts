// What the reports' statements share: placeholders, and rows cut into statements of a bounded size.

/** Rows per multi-row statement: far under both engines' parameter limits (SQLite 32,766; PostgreSQL 65,535). */
const ROWS_PER_STATEMENT = 200

export function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT))
  return out
}

export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ')
