// An audit record as the API shows it: ISO times, the actor and target as objects, details parsed.
import { isoTime } from '../../lib/clock.ts'
import type { AuditRow } from './store.ts'

export function auditLogJson(r: AuditRow) {
  return {
    id: r.id,
    // Number(): PostgreSQL may hand BIGINT columns back as strings.
    seq: Number(r.seq),
    created_at: isoTime(Number(r.created_at)),
    organization_id: r.organization_id,
    actor: { type: r.actor_type, id: r.actor_id },
    credential_id: r.credential_id,
    event: r.event,
    outcome: r.outcome as 'success' | 'failure',
    reason: r.reason,
    ip: r.ip,
    user_agent: r.user_agent,
    request_id: r.request_id,
    target: r.target_type === null ? null : { type: r.target_type, id: r.target_id },
    details: JSON.parse(r.details) as Record<string, unknown>,
    prev_hash: r.prev_hash,
    hash: r.hash,
  }
}
