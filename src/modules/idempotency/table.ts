// Idempotency keys (Stripe's rules): the first answer to a key, replayed to the same caller's retries for 24 h.

/** A row of idempotency_keys (Kysely). */
export interface IdempotencyKeysTable {
  /** Who may replay it: the credential's user (`usr_…`); the same key from another user is another key. */
  scope: string
  idempotency_key: string
  organization_id: string | null
  /** HMAC-SHA256 (hex, keyed from the master key) of the method, the path and the body: the same key with other parameters is refused. */
  request_hash: string
  /** `in_progress` from the claim until the answer is saved (or the claim is abandoned: see rules.ts). */
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
