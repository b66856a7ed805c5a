// grant_type=authorization_code: the code is used up in the same transaction that checks it (so exactly
// one exchange wins), then it must be unexpired, the client's, presented with the redirect URI it was
// issued for and the PKCE verifier of its challenge; its user still active, the user's grant to the
// client still live, the sign-in it came from not ended by a revocation (logout, password change,
// eviction: a code is worth no more than the sign-in that made it), and the address allowed. A code
// presented again revokes the tokens its first exchange minted (RFC 6749 §4.1.2). A failed exchange
// leaves the code used: it is worth nothing after a wrong verifier or redirect URI.
import type { AppContext, RequestMeta } from '../../../context.ts'
import type { Tx } from '../../../db/database.ts'
import { constantTimeEqual } from '../../../lib/hmac.ts'
import { type Role, roleGrants } from '../../access/index.ts'
import { appendAudit } from '../../audit/index.ts'
import { checkIp } from '../../organizations/index.ts'
import { hashToken, openClientSession, type PendingClientTokens, revokeSession } from '../../auth/index.ts'
import { grantsWithinScopes, type OAuthClientRow } from '../../oauth-clients/index.ts'
import { findOrganization } from '../../organizations/index.ts'
import { findUserInOrg } from '../../users/index.ts'
import { type CodeRow, consumeCode, findCode, lockGrant, lockSignIn, setCodeSession } from '../store.ts'
import { recordIssue, recordRefusal, type Refusal, refusal } from './audit.ts'
import { type Form, required } from './form.ts'
import { mintClientTokens, type TokenResponseBody } from './issue.ts'

const GRANT = 'authorization_code'
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

/** RFC 7636 §4.6: the verifier must match the code's S256 challenge; none may be sent for a code without one. */
function pkceProblem(code: CodeRow, verifier: string | undefined): Refusal | undefined {
  if (code.code_challenge === null)
    return verifier === undefined
      ? undefined
      : refusal('invalid_grant', 'pkce_downgrade', 'This code was issued without PKCE: send no code_verifier')
  if (verifier === undefined) return refusal('invalid_grant', 'pkce_missing', 'code_verifier is required for this code')
  const hashed = new Bun.CryptoHasher('sha256').update(verifier).digest('base64url')
  if (!VERIFIER.test(verifier) || !constantTimeEqual(hashed, code.code_challenge))
    return refusal('invalid_grant', 'pkce_mismatch', 'code_verifier does not match the code challenge')
  return undefined
}

/** The checks of a code just used up, in order; a refusal or the user it is for. */
async function checkCode(tx: Tx, app: Pick<AppContext, 'allowlists'>, code: CodeRow, input: Input, now: number) {
  const { client, form, request } = input
  if (Number(code.expires_at) <= now) return refusal('invalid_grant', 'code_expired', 'The authorization code has expired')
  if (code.client_id !== client.id || code.organization_id !== client.organization_id)
    return refusal('invalid_grant', 'code_other_client', 'The authorization code was issued to another client')
  if (code.redirect_uri !== required(form, 'redirect_uri'))
    return refusal('invalid_grant', 'redirect_uri_mismatch', 'redirect_uri differs from the one of the authorization request')
  // A public client always uses PKCE (the authorization endpoint insists): a code without it is not its own.
  if (client.client_type === 'public' && code.code_challenge === null)
    return refusal('invalid_grant', 'pkce_missing', 'A public client must use PKCE')
  const pkce = pkceProblem(code, form.get('code_verifier'))
  if (pkce) return pkce
  const user = await findUserInOrg(tx, client.organization_id, code.user_id)
  if (user?.status !== 'active') return refusal('invalid_grant', 'user_inactive', 'The user is disabled or gone')
  const grant = await lockGrant(tx, user.id, client.id)
  if (!grant || grant.revoked_at !== null)
    return refusal('invalid_grant', 'grant_revoked', 'The user has revoked the access of this client', user.id)
  const signIn = await lockSignIn(tx, code.browser_session_id)
  if (!signIn || signIn.revoked) return refusal('invalid_grant', 'sign_in_ended', 'The sign-in this code came from has ended', user.id)
  const org = await findOrganization(tx, client.organization_id)
  const who = { organizationId: client.organization_id, actor: { type: 'user' as const, id: user.id } }
  const ipError = org && (await checkIp(tx, app, { ranges: app.allowlists.ranges(org.allowed_ips), who, request, now }))
  if (!org || ipError) return refusal('invalid_grant', 'ip_not_allowed', ipError?.message ?? 'The organization is gone', user.id)
  return user
}

interface Input {
  client: OAuthClientRow
  form: Form
  request: RequestMeta
}

interface Issued {
  ok: true
  pending: PendingClientTokens
  code: CodeRow
  openid: boolean
}

/** A refusal of a replayed code also names the session it revoked (remembered after commit). */
type CodeRefusal = Refusal & { replay?: { sessionId: string; until: number | undefined } }

export async function exchangeCode(app: AppContext, input: Input): Promise<TokenResponseBody> {
  const { client, request } = input
  const codeHash = hashToken(required(input.form, 'code'))
  required(input.form, 'redirect_uri')
  const now = app.clock.now()
  const where = { client, grantType: GRANT, request, now }
  const outcome = await app.db.write('oauth.token.authorization_code', async (tx): Promise<CodeRefusal | Issued> => {
    // Invariant: a code is exchanged once: the conditional UPDATE decides, a loser is a replay.
    const code = await consumeCode(tx, codeHash, now)
    if (!code) {
      const used = await findCode(tx, codeHash)
      const refused = used && Number(used.expires_at) > now ? await replayed(tx, used, where) : undefined
      const result = refused ?? refusal('invalid_grant', 'code_unknown', 'The authorization code is unknown or expired')
      await recordRefusal(tx, where, result)
      return result
    }
    const user = await checkCode(tx, app, code, input, now)
    if ('ok' in user) {
      await recordRefusal(tx, where, user)
      return user
    }
    const scope = code.scope
    const scopes = scope.split(' ')
    const grantTypes = JSON.parse(client.grant_types) as string[]
    const pending = await openClientSession(tx, app, {
      subject: user,
      meta: { ip: request.ip, userAgent: request.userAgent },
      kind: { authMethods: JSON.parse(code.auth_methods) as string[], mfaEnrollmentOnly: false },
      client: { clientId: client.id, scope, permissions: grantsWithinScopes(roleGrants(user.role as Role), scopes) },
      parentSessionId: code.browser_session_id,
      withRefreshToken: scopes.includes('offline_access') && grantTypes.includes('refresh_token'),
      now,
    })
    await setCodeSession(tx, codeHash, pending.sessionId)
    await recordIssue(tx, where, { userId: user.id, credentialId: pending.sessionId, scope })
    return { ok: true, pending, code, openid: scopes.includes('openid') }
  })
  if (!outcome.ok) {
    if (outcome.replay?.until !== undefined) app.ports.revocations.rememberSession(outcome.replay.sessionId, outcome.replay.until)
    throw outcome.error
  }
  const { code, pending } = outcome
  const signIn = {
    userId: code.user_id,
    clientId: client.id,
    nonce: code.nonce,
    authTime: Number(code.auth_time),
    browserSessionId: code.browser_session_id,
    authMethods: JSON.parse(code.auth_methods) as string[],
  }
  return mintClientTokens(app, pending, code.scope, outcome.openid ? signIn : undefined)
}

/** A code used before and presented again: the tokens of its first exchange are revoked. */
async function replayed(tx: Tx, used: CodeRow, where: { client: OAuthClientRow; request: RequestMeta; now: number }) {
  const sessionId = used.session_id
  const until = sessionId === null ? undefined : await revokeSession(tx, sessionId, 'code_replayed', where.now)
  await appendAudit(tx, {
    organizationId: used.organization_id,
    actor: { type: 'anonymous', id: null },
    event: 'oauth.code.replayed',
    outcome: 'failure',
    reason: 'code_replayed',
    target: { type: 'oauth_client', id: used.client_id },
    details: { client_id: used.client_id, presented_by: where.client.id, ...(sessionId ? { session_revoked: sessionId } : {}) },
    request: where.request,
    now: where.now,
  })
  const result: CodeRefusal = refusal(
    'invalid_grant',
    'code_replayed',
    'The authorization code has already been used: the tokens it gave are revoked',
  )
  if (sessionId !== null) result.replay = { sessionId, until }
  return result
}
