// The token endpoint's audit records: a refusal after the client authenticated (`oauth.token.refused`,
// with a short machine reason) and an issue (`oauth.token.issued`). Never a code, token or secret.
import type { RequestMeta } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { appendAudit } from '../../audit/index.ts'
import type { OAuthClientRow } from '../../oauth-clients/index.ts'
import { OAuthError, type OAuthErrorCode } from './protocol.ts'

/** A refusal decided inside a transaction: returned (so its audit record commits), thrown after. */
export interface Refusal {
  ok: false
  error: OAuthError
  /** Machine reason for the audit log, e.g. `code_replayed`. */
  reason: string
  userId?: string
}

export function refusal(error: OAuthErrorCode, reason: string, description: string, userId?: string): Refusal {
  return { ok: false, error: new OAuthError(error, description), reason, userId }
}

interface Where {
  client: OAuthClientRow
  grantType: string
  request: RequestMeta
  now: number
}

export async function recordRefusal(tx: Tx, where: Where, refused: Refusal): Promise<void> {
  await appendAudit(tx, {
    organizationId: where.client.organization_id,
    actor: refused.userId === undefined ? { type: 'anonymous', id: null } : { type: 'user', id: refused.userId },
    event: 'oauth.token.refused',
    outcome: 'failure',
    reason: refused.reason,
    target: { type: 'oauth_client', id: where.client.id },
    details: { grant_type: where.grantType, client_id: where.client.id, error: refused.error.error },
    request: where.request,
    now: where.now,
  })
}

/** `credentialId`: the session the tokens belong to (the client id for client credentials). */
export async function recordIssue(tx: Tx, where: Where, issued: { userId: string; credentialId: string; scope: string }): Promise<void> {
  await appendAudit(tx, {
    organizationId: where.client.organization_id,
    actor: { type: 'user', id: issued.userId, credentialId: issued.credentialId },
    event: 'oauth.token.issued',
    target: { type: 'oauth_client', id: where.client.id },
    details: { grant_type: where.grantType, client_id: where.client.id, scope: issued.scope },
    request: where.request,
    now: where.now,
  })
}
