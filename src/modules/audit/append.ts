// appendAudit(): appends one record to its organization's hash chain inside the caller's transaction,
// so the record exists exactly when the change does. Never given a secret (no passwords, tokens or codes).
import type { Actor, RequestMeta } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { prefixedId } from '../../lib/ids.ts'
import { chainHash, type ChainedFields, GENESIS_HASH } from './chain.ts'

export interface AuditActor {
  type: 'user' | 'system' | 'anonymous'
  id: string | null
  /** The session or API key the actor used. */
  credentialId?: string | null
}

export interface AuditInput {
  /** null: the installation chain (e.g. a login with an unknown e-mail). */
  organizationId: string | null
  actor: AuditActor
  /** `resource.verb`, e.g. `login.failure`, `ticket.updated`. */
  event: string
  outcome?: 'success' | 'failure'
  reason?: string
  target?: { type: string; id: string }
  details?: Record<string, unknown>
  request?: RequestMeta | null
  now: number
}

/** The audit actor of a context's actor: a user with the credential used, or the system. */
export function auditActorOf(actor: Actor): AuditInput['actor'] {
  return actor.kind === 'user' ? { type: 'user', id: actor.userId, credentialId: actor.credential.id } : { type: 'system', id: actor.id }
}

// The newest record of a chain; the installation chain (no organization) has its own statement so
// both use the (organization_id, seq) index.
const LAST_OF_ORG = 'SELECT seq, hash FROM audit_logs WHERE organization_id = ? ORDER BY seq DESC LIMIT 1'
const LAST_OF_INSTALLATION = 'SELECT seq, hash FROM audit_logs WHERE organization_id IS NULL ORDER BY seq DESC LIMIT 1'
const INSERT =
  'INSERT INTO audit_logs (id, organization_id, seq, created_at, actor_type, actor_id, credential_id, event, outcome, reason, ip, user_agent, request_id, target_type, target_id, details, prev_hash, hash) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'

export async function appendAudit(tx: Tx, input: AuditInput): Promise<void> {
  const last =
    input.organizationId === null
      ? await tx.raw.get<{ seq: number; hash: string }>(LAST_OF_INSTALLATION)
      : await tx.raw.get<{ seq: number; hash: string }>(LAST_OF_ORG, [input.organizationId])
  const fields: ChainedFields = {
    id: prefixedId('aud'),
    organization_id: input.organizationId,
    seq: Number(last?.seq ?? 0) + 1,
    created_at: input.now,
    actor_type: input.actor.type,
    actor_id: input.actor.id,
    credential_id: input.actor.credentialId ?? null,
    event: input.event,
    outcome: input.outcome ?? 'success',
    reason: input.reason ?? null,
    ip: input.request?.ip ?? null,
    user_agent: input.request?.userAgent ?? null,
    request_id: input.request?.requestId ?? null,
    target_type: input.target?.type ?? null,
    target_id: input.target?.id ?? null,
    details: JSON.stringify(input.details ?? {}),
  }
  const prevHash = last?.hash ?? GENESIS_HASH
  await tx.raw.run(INSERT, [
    fields.id,
    fields.organization_id,
    fields.seq,
    fields.created_at,
    fields.actor_type,
    fields.actor_id,
    fields.credential_id,
    fields.event,
    fields.outcome,
    fields.reason,
    fields.ip,
    fields.user_agent,
    fields.request_id,
    fields.target_type,
    fields.target_id,
    fields.details,
    prevHash,
    chainHash(prevHash, fields),
  ])
}
