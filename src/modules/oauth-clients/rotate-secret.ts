// rotateOAuthClientSecret: a confidential client gets a new secret, shown once; the old one stops working at once. A public client has none (409).
import type { Ctx, UserActor } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { hashClientSecret, newClientSecret, secretHint } from './secret.ts'
import { lockClientInOrg, type OAuthClientRow, saveClient } from './store.ts'

export async function rotateOAuthClientSecret(
  ctx: Ctx<UserActor>,
  input: { id: string },
): Promise<{ row: OAuthClientRow; secret: string }> {
  const { actor } = ctx
  const now = ctx.clock.now()
  // Made before the transaction: no crypto while the writer is held.
  const secret = newClientSecret()
  const row = await ctx.db.write('oauth_client.rotate_secret', async (tx) => {
    // Invariant: each rotation replaces the secret the previous one set (the audit's previous_hint is true).
    const before = await lockClientInOrg(tx, actor.organizationId, input.id)
    if (before.client_type !== 'confidential') throw new AppError('CONFLICT', 'A public client has no secret to rotate')
    const after = await saveClient(tx, before.id, {
      secret_hash: hashClientSecret(secret),
      secret_hint: secretHint(secret),
      secret_rotated_at: now,
      updated_at: now,
    })
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'oauth_client.secret_rotated',
      target: { type: 'oauth_client', id: before.id },
      details: { previous_hint: before.secret_hint, secret_hint: after.secret_hint },
      request: actor.request,
      now,
    })
    return after
  })
  return { row, secret }
}
