// createOAuthClient: registers a client of the caller's organization (or, from the CLI, of any); a confidential one gets a secret, shown once.
import type { Ctx } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { checkClientSettings } from './check-input.ts'
import { hashClientSecret, newClientSecret, secretHint } from './secret.ts'
import { countClients, insertClient, type OAuthClientRow } from './store.ts'
import type { ClientType } from './table.ts'

export const MAX_CLIENTS_PER_ORGANIZATION = 100
export const DEFAULT_GRANT_TYPES = ['authorization_code']
export const DEFAULT_SCOPES = ['openid', 'profile', 'email']

export interface NewOAuthClient {
  name: string
  client_type?: ClientType
  redirect_uris?: string[]
  post_logout_redirect_uris?: string[]
  grant_types?: string[]
  scopes?: string[]
  /** Only for the operator (a system actor): a user registers clients of their own organization. */
  organization_id?: string
}

/** The new row and, for a confidential client, its secret (the only time it exists outside the caller's hands). */
export async function createOAuthClient(ctx: Ctx, input: NewOAuthClient): Promise<{ row: OAuthClientRow; secret: string | null }> {
  const { actor } = ctx
  const user = actor.kind === 'user' ? actor : undefined
  const organizationId = user ? user.organizationId : input.organization_id
  if (organizationId === undefined) throw new Error('createOAuthClient: the operator names the organization')
  const type = input.client_type ?? 'confidential'
  // The operator stands above every role; a user registers no scope beyond their own permissions.
  const settings = checkClientSettings(
    type,
    {
      redirect_uris: input.redirect_uris ?? [],
      post_logout_redirect_uris: input.post_logout_redirect_uris ?? [],
      grant_types: input.grant_types ?? DEFAULT_GRANT_TYPES,
      scopes: input.scopes ?? DEFAULT_SCOPES,
    },
    user ? user.grants : ['*:*'],
  )
  const now = ctx.clock.now()
  const secret = type === 'confidential' ? newClientSecret() : null
  const row: OAuthClientRow = {
    id: prefixedId('ocl'),
    organization_id: organizationId,
    name: input.name.trim(),
    client_type: type,
    secret_hash: secret === null ? null : hashClientSecret(secret),
    secret_hint: secret === null ? null : secretHint(secret),
    redirect_uris: JSON.stringify(settings.redirect_uris),
    post_logout_redirect_uris: JSON.stringify(settings.post_logout_redirect_uris),
    grant_types: JSON.stringify(settings.grant_types),
    scopes: JSON.stringify(settings.scopes),
    created_by: user ? user.userId : null,
    created_at: now,
    updated_at: now,
    secret_rotated_at: null,
  }
  await ctx.db.write('oauth_client.create', async (tx) => {
    // Invariant: at most MAX_CLIENTS_PER_ORGANIZATION clients. The new client has no row to lock yet:
    // simultaneous registrations of one organization count one after the other under this key (taken by
    // registrations only, not by the organization's other writes).
    await tx.lock(`oauth-clients:${organizationId}`)
    if ((await countClients(tx, organizationId)) >= MAX_CLIENTS_PER_ORGANIZATION)
      throw new AppError('LIMIT_REACHED', `An organization has at most ${MAX_CLIENTS_PER_ORGANIZATION} OAuth clients: delete one first`)
    await insertClient(tx, row)
    await appendAudit(tx, {
      organizationId,
      actor: auditActorOf(actor),
      event: 'oauth_client.created',
      target: { type: 'oauth_client', id: row.id },
      details: { name: row.name, client_type: type, ...settings },
      request: user?.request ?? null,
      now,
    })
  })
  return { row, secret }
}
