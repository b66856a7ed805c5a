// TRANSITIONAL (issue 13): the synchronous drizzle audit() of the modules not yet ported; they move to
// appendAudit (append.ts) on the new data layer, and this file goes with drizzle.
import { desc, sql } from 'drizzle-orm'
import type { UserActor } from '../../context.ts'
import type { Db } from '../../db/tx.ts'
import { prefixedId } from '../../lib/ids.ts'
import type { AuditActor, AuditInput } from './append.ts'
import { chainHash, GENESIS_HASH, type ChainedFields } from './chain.ts'
import { auditLogs } from './table.ts'

export type { AuditActor, AuditInput } from './append.ts'

/** @deprecated TRANSITIONAL (issue 13): use auditActorOf(ctx.actor). The audit actor of an authenticated request. */
export function actorOf(actor: UserActor): AuditActor {
  return { type: 'user', id: actor.userId, credentialId: actor.credential.id }
}

/** @deprecated TRANSITIONAL (issue 13): use auditActorOf(ctx.actor) with a system actor's ctx. */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: 'cron' }

/** @deprecated TRANSITIONAL (issue 13): use appendAudit(tx, input) inside a Database.write transaction. */
export function audit(tx: Db, input: AuditInput): void {
  const last = tx
    .select({ seq: auditLogs.seq, hash: auditLogs.hash })
    .from(auditLogs)
    .where(sql`ifnull(${auditLogs.organizationId}, '') = ${input.organizationId ?? ''}`)
    .orderBy(desc(auditLogs.seq))
    .limit(1)
    .get()
  const fields: ChainedFields = {
    id: prefixedId('aud'),
    organization_id: input.organizationId,
    seq: (last?.seq ?? 0) + 1,
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
  tx.insert(auditLogs)
    .values({
      id: fields.id,
      organizationId: fields.organization_id,
      seq: fields.seq,
      createdAt: fields.created_at,
      actorType: fields.actor_type,
      actorId: fields.actor_id,
      credentialId: fields.credential_id,
      event: fields.event,
      outcome: fields.outcome as 'success' | 'failure',
      reason: fields.reason,
      ip: fields.ip,
      userAgent: fields.user_agent,
      requestId: fields.request_id,
      targetType: fields.target_type,
      targetId: fields.target_id,
      details: fields.details,
      prevHash,
      hash: chainHash(prevHash, fields),
    })
    .run()
}
