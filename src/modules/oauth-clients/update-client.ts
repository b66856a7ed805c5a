// updateOAuthClient: renames a client or changes its URIs, grant types or scopes; the whole result is checked again (its type never changes).
import type { Ctx, UserActor } from '../../context.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { checkClientSettings } from './check-input.ts'
import { lockClientInOrg, type OAuthClientRow, saveClient } from './store.ts'

export interface OAuthClientChanges {
  name?: string
  redirect_uris?: string[]
  post_logout_redirect_uris?: string[]
  grant_types?: string[]
  scopes?: string[]
}

const parse = (text: string) => JSON.parse(text) as string[]

export async function updateOAuthClient(ctx: Ctx<UserActor>, input: { id: string; changes: OAuthClientChanges }): Promise<OAuthClientRow> {
  const { actor } = ctx
  const { id, changes: asked } = input
  const now = ctx.clock.now()
  return ctx.db.write('oauth_client.update', async (tx) => {
    // Invariant: the settings as a whole pass the checks: those not sent are read after a simultaneous change of them.
    const before = await lockClientInOrg(tx, actor.organizationId, id)
    // The checks are pure (no I/O): the result as a whole, against the client's type.
    const settings = checkClientSettings(
      before.client_type,
      {
        redirect_uris: asked.redirect_uris ?? parse(before.redirect_uris),
        post_logout_redirect_uris: asked.post_logout_redirect_uris ?? parse(before.post_logout_redirect_uris),
        grant_types: asked.grant_types ?? parse(before.grant_types),
        // Scopes already registered stay; newly asked ones must be within the caller's permissions.
        scopes: asked.scopes ?? [],
      },
      actor.grants,
    )
    const changes: Partial<OAuthClientRow> = { updated_at: now }
    if (asked.name !== undefined) changes.name = asked.name.trim()
    if (asked.redirect_uris !== undefined) changes.redirect_uris = JSON.stringify(settings.redirect_uris)
    if (asked.post_logout_redirect_uris !== undefined)
      changes.post_logout_redirect_uris = JSON.stringify(settings.post_logout_redirect_uris)
    if (asked.grant_types !== undefined) changes.grant_types = JSON.stringify(settings.grant_types)
    if (asked.scopes !== undefined) changes.scopes = JSON.stringify(settings.scopes)
    const after = await saveClient(tx, id, changes)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'oauth_client.updated',
      target: { type: 'oauth_client', id },
      details: { changed: Object.keys(asked).filter((k) => asked[k as keyof OAuthClientChanges] !== undefined) },
      request: actor.request,
      now,
    })
    return after
  })
}
