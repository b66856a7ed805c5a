// Whether an error says the database server cannot be reached now (PostgreSQL down, restarting, out of
// connections), as opposed to a bug or a bad statement: the client gets 503 and tries again, and the
// instance carries on (Bun.SQL reconnects by itself when the server is back).

/** SQLSTATE classes 08 (connection exception) and the 57P0x/53300 codes of a server going away or full. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006'])

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, errno } = error as { code?: unknown; errno?: unknown }
  if (typeof code === 'string' && code.startsWith('ERR_POSTGRES_CONNECTION')) return true
  if (code === 'ERR_POSTGRES_IDLE_TIMEOUT' || code === 'ERR_POSTGRES_LIFETIME_TIMEOUT') return true
  return (typeof errno === 'string' && UNAVAILABLE_STATES.has(errno)) || (typeof code === 'string' && UNAVAILABLE_STATES.has(code))
}
