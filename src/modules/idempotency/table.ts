// Idempotency keys (Stripe's rules): the first answer to a key, replayed to the same caller's retries for 24 h.

/** A row of idempotency_keys (Kysely). */
export interface IdempotencyKeysTable {
  /** Who may replay it: the credential's user (`usr_…`), or the client address of a route without one. */
  scope: string
  idempotency_key: string
  organization_id: string | null
  /** SHA-256 (hex) of the method, the path and the body: the same key with other parameters is refused. */
  request_hash: string
  status: 'in_progress' | 'done'
  response_status: number | null
  /** JSON object of the headers to replay (content-type, location, ...). */
  response_headers: string | null
  response_body: string | null
  created_at: number
  expires_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    idempotency_keys: IdempotencyKeysTable
  }
}
