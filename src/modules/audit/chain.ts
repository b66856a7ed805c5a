// The hash chain of the audit log: each record's hash covers the previous record's hash and the
// record itself in a canonical form, so editing, inserting or deleting a record breaks every later link.
import type { Database } from 'bun:sqlite'

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
    r.id, r.organization_id, r.seq, r.created_at, r.actor_type, r.actor_id, r.credential_id, r.event, r.outcome,
    r.reason, r.ip, r.user_agent, r.request_id, r.target_type, r.target_id, r.details,
  ])
}

/** hash = SHA-256(prev_hash || canonical record), hex. */
export function chainHash(prevHash: string, record: ChainedFields): string {
  return new Bun.CryptoHasher('sha256').update(prevHash).update(canonicalRecord(record)).digest('hex')
}

export interface ChainReport {
  /** null: the installation chain (records that belong to no organization). */
  organizationId: string | null
  records: number
  broken?: { seq: number; id: string; problem: string }
}

/** Walks every chain in order, recomputing each hash; reports the first broken link of each chain. */
export function verifyChains(sqlite: Database): ChainReport[] {
  const reports: ChainReport[] = []
  let current: ChainReport | undefined
  let expectedSeq = 1
  let prevHash = GENESIS_HASH
  const rows = sqlite.query<ChainedFields & { prev_hash: string; hash: string }, []>(
    "SELECT * FROM audit_logs ORDER BY ifnull(organization_id, ''), seq",
  )
  for (const row of rows.iterate()) {
    if (!current || current.organizationId !== row.organization_id) {
      current = { organizationId: row.organization_id, records: 0 }
      reports.push(current)
      expectedSeq = 1
      prevHash = GENESIS_HASH
    }
    current.records++
    if (current.broken) continue
    const at = { seq: row.seq, id: row.id }
    if (row.seq !== expectedSeq) current.broken = { ...at, problem: `expected record ${expectedSeq} here: records are missing` }
    else if (row.prev_hash !== prevHash) current.broken = { ...at, problem: 'prev_hash does not match the previous record' }
    else if (chainHash(row.prev_hash, row) !== row.hash) current.broken = { ...at, problem: 'the record does not match its hash: it was changed' }
    expectedSeq = row.seq + 1
    prevHash = row.hash
  }
  return reports
}
