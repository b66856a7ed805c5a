// revokeApiKey: the caller's own key stops working at once (every request reads its state).
import { and, eq, isNull } from 'drizzle-orm'
import type { AppDeps, UserActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import { actorOf, audit } from '../audit/record.ts'
import { apiKeys } from './table.ts'

export function revokeApiKey(deps: Pick<AppDeps, 'db' | 'clock'>, actor: UserActor, id: string): void {
  const now = deps.clock.now()
  write(deps.db, (tx) => {
    const revoked = tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, actor.organizationId), eq(apiKeys.userId, actor.userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix })
      .get()
    if (!revoked) throw new AppError('NOT_FOUND', 'No such API key')
    audit(tx, { organizationId: actor.organizationId, actor: actorOf(actor), event: 'pat.revoked', target: { type: 'api_key', id }, details: { name: revoked.name, prefix: revoked.prefix }, request: actor.request, now })
  })
}
