// planStable(sql): the same statement with each bound parameter written `+?`, for SQLite. When SQLite's
// planner reads a parameter's value (an equality before ORDER BY, LIMIT ?, a keyset comparison), it marks
// the statement to be prepared again whenever that parameter is bound, which bun:sqlite does on every
// execution: the tickets list paid 9 µs a page for it, an empty table 3 µs a statement. `+?` is the same
// value with the same (absent) affinity and collation, which the planner does not read, so the plan is
// made once and kept (test/db/plan-stable.test.ts shows both). LIKE and GLOB keep a bare `?`: their prefix
// optimisation needs the pattern's value, and is worth a new plan.

const KEEPS_VALUE = new Set(['LIKE', 'GLOB', 'MATCH', 'REGEXP', 'ESCAPE'])
const CACHE_LIMIT = 2000
const cache = new Map<string, string>()

/** The word that ends just before `end` in `sql` (skipping spaces), upper-cased; '' if a symbol comes first. */
function wordBefore(sql: string, end: number): string {
  let i = end - 1
  while (i >= 0 && /\s/.test(sql[i]!)) i--
  const last = i
  while (i >= 0 && /[A-Za-z_]/.test(sql[i]!)) i--
  return sql.slice(i + 1, last + 1).toUpperCase()
}

function rewrite(sql: string): string {
  let out = ''
  let from = 0
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!
    // Quoted text and names, and comments, are copied as they are.
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c
      const end = sql.indexOf(close, i + 1)
      if (end === -1) return sql
      i = end
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      if (end === -1) break
      i = end
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      if (end === -1) return sql
      i = end + 1
    } else if (c === '?' && !KEEPS_VALUE.has(wordBefore(sql, i))) {
      out += `${sql.slice(from, i)}+`
      from = i
    }
  }
  return out + sql.slice(from)
}

/** `sql` with its `?` parameters written `+?` (outside quotes, comments and LIKE/GLOB patterns); memoised. */
export function planStable(sql: string): string {
  let stable = cache.get(sql)
  if (stable === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear()
    stable = rewrite(sql)
    cache.set(sql, stable)
  }
  return stable
}
