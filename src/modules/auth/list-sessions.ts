// listSessions: the live sessions of a user (the caller's own, or, with session:read, another user's
// of the same organization), newest first, keyset-paginated.
import type { Ctx, UserActor } from '../../context.ts'
import type { ListRequest, Page } from '../../db/list.ts'
import { isoTime } from '../../lib/clock.ts'
import { requirePermission } from '../access/index.ts'
import { getUserInOrg } from '../users/index.ts'
import { SESSION_LIST, type SessionRow } from './store.ts'

export async function listSessions(ctx: Ctx<UserActor>, input: { userId?: string; request: ListRequest }): Promise<Page<SessionRow>> {
  const { actor } = ctx
  const target = input.userId ?? actor.userId
  if (target !== actor.userId) {
    requirePermission(actor, 'session:read')
    await getUserInOrg(ctx.db, actor.organizationId, target)
  }
  return SESSION_LIST.page(ctx.db, ctx.pageTokens, input.request, {
    organizationId: actor.organizationId,
    filters: { user_id: target },
    where: [
      { sql: 'sessions.user_id = ?', params: [target] },
      { sql: 'sessions.revoked_at IS NULL AND sessions.expires_at > ?', params: [ctx.clock.now()] },
      // Sign-ins only: an OAuth client's tokens are listed (and revoked) as the user's grants.
      { sql: "sessions.kind <> 'oauth'", params: [] },
    ],
  })
}

/** A session as the API shows it; `current` marks the one of the caller's access token. */
export function sessionJson(row: SessionRow, currentSessionId: string | undefined) {
  return {
    id: row.id,
    user_id: row.user_id,
    current: row.id === currentSessionId,
    ip: row.ip,
    user_agent: row.user_agent,
    auth_methods: JSON.parse(row.auth_methods) as string[],
    mfa_enrollment_only: Boolean(row.mfa_enrollment_only),
    created_at: isoTime(Number(row.created_at)),
    last_seen_at: isoTime(Number(row.last_used_at)),
    expires_at: isoTime(Number(row.expires_at)),
  }
}
