// Whether an error says the file storage (an S3-compatible bucket) cannot be reached or cannot answer now,
// as opposed to a bug or a refused request: the client gets 503 and tries again, as when the database is
// away. Bun's S3Client names connection failures in `code` (ConnectionRefused, ConnectionReset, …) and
// passes on S3's own codes for an overloaded or failing service.

/** S3's codes for a service that is busy or failing for the moment. */
const BUSY_CODES = new Set(['SlowDown', 'ServiceUnavailable', 'InternalError', 'RequestTimeout', 'Timeout', 'Throttling'])

export function isStorageUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { name, code } = error as { name?: unknown; code?: unknown }
  if (name !== 'S3Error' || typeof code !== 'string') return false
  return code.startsWith('Connection') || BUSY_CODES.has(code)
}
