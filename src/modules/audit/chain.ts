// The hash chain of the audit log: each record's hash covers the previous record's hash and the
// record itself in a canonical form, so editing, inserting or deleting a record breaks every later link.
/** prev_hash of the first record of a chain. */
export const GENESIS_HASH = '0'.repeat(64)

/** A record as stored (snake_case columns), hash and prev_hash aside. */
export interface ChainedFields {
  id: string
  organization_id: string | null
  seq: number
  created_at: number
  actor_type: string
  actor_id: string | null
  credential_id: string | null
  event: string
  outcome: string
  reason: string | null
  ip: string | null
  user_agent: string | null
  request_id: string | null
  target_type: string | null
  target_id: string | null
  details: string
}

/** A JSON array in a fixed field order: one byte sequence per record, whatever serialized it. */
export function canonicalRecord(r: ChainedFields): string {
  return JSON.stringify([
    r.id,
    r.organization_id,
    r.seq,
    r.created_at,
    r.actor_type,
    r.actor_id,
    r.credential_id,
    r.event,
    r.outcome,
    r.reason,
    r.ip,
    r.user_agent,
    r.request_id,
    r.target_type,
    r.target_id,
    r.details,
  ])
}

/** hash = SHA-256(prev_hash || canonical record), hex. */
export function chainHash(prevHash: string, record: ChainedFields): string {
  return new Bun.CryptoHasher('sha256').update(prevHash).update(canonicalRecord(record)).digest('hex')
}
