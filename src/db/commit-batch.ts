// The commit pipeline of a PostgreSQL write transaction as one simple-protocol query: the keyed locks,
// the deferred statements and COMMIT, separated by semicolons, sent in one message. Bun.SQL pipelines
// statements with parameters but sends one without (COMMIT) only once everything before it has been
// answered, which would hold the organization's locks across a network round trip; a multi-statement
// simple query is executed by the server in one go. Its values are written as SQL literals here (the
// simple protocol takes none apart), with standard_conforming_strings on (set on every connection):
// a string is quoted with its quotes doubled, a number must be finite, bytes are hex.
import type { SqlValue } from './database.ts'

/** One statement of the batch and how to settle its caller's promise. */
export interface BatchedStatement {
  text: string
  params: readonly SqlValue[]
  resolve(result: { rows: Record<string, unknown>[]; count: number }): void
  reject(error: unknown): void
}

/** A value as a SQL literal of the same type a bound parameter would get. */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL'
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (typeof value === 'bigint') return `(${value.toString()})`
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`a batched statement cannot carry ${value}`)
    return `(${String(value)})`
  }
  if (value instanceof Uint8Array) return `'\\x${Buffer.from(value).toString('hex')}'::bytea`
  // PostgreSQL text holds no NUL character: refused here as the server would refuse the parameter.
  if (value.includes('\u0000')) throw new Error('a string with a NUL character cannot be stored')
  return `'${value.replaceAll("'", "''")}'`
}

/** The statement with each `?` outside a string literal replaced by its value's literal. */
export function inlined(text: string, params: readonly SqlValue[]): string {
  let n = 0
  let quoted = false
  let out = ''
  for (const c of text) {
    if (c === "'") quoted = !quoted
    if (c === '?' && !quoted) {
      if (n >= params.length) throw new Error(`a batched statement has more placeholders than values: ${text}`)
      out += sqlLiteral(params[n++]!)
    } else out += c
  }
  if (n !== params.length) throw new Error(`a batched statement has fewer placeholders than values: ${text}`)
  return out
}

/** The batch's text: every statement, then COMMIT. */
export function batchText(statements: readonly BatchedStatement[]): string {
  return `${statements.map((s) => inlined(s.text, s.params)).join(';\n')};\nCOMMIT`
}
