// A personal access token -> the Actor of its owner. The checksum is checked before any database read;
// then the stored key (by SHA-256), its expiry and revocation, the owner as it is now, the
// organization's IP allowlist, and its MFA requirement (the key of an owner without MFA is suspended
// until the owner enrolls, then works again as it was). Effective grants: the key's permissions within
// the owner's current role. The stored key and its owner's state are kept in memory while the database's
// change mark stays (db/marked-cache.ts: a commit that may touch them makes the next request read again).
import type { AppContext, RequestMeta, UserActor } from '../../context.ts'
import type { Database } from '../../db/database.ts'
import { type MarkedCache, markedCacheOf } from '../../db/marked-cache.ts'
import { AppError } from '../../errors.ts'
import { type Grant, intersectGrants, isRole, type Role, roleGrants } from '../access/index.ts'
import { unauthorized } from '../../credential.ts'
import { hashToken } from '../../lib/token-hash.ts'
import { assertIpAllowed } from '../organizations/index.ts'
import { ratesFromColumn } from '../rate-limits/index.ts'
import { type KeyState, keyState } from './store.ts'
import { isWellFormedPersonalAccessToken } from '../../lib/personal-access-token.ts'

// Found keys only: a stream of unknown tokens must not churn the entries of real ones.
const keyCaches = new WeakMap<Database, MarkedCache<KeyState | undefined>>()

// Effective grants by role and stored permissions: a handful of distinct pairs in practice.
const effective = new Map<string, readonly Grant[]>()

function effectiveGrants(role: Role, permissions: string | null): readonly Grant[] {
  if (permissions === null) return roleGrants(role)
  const key = `${role} ${permissions}`
  let grants = effective.get(key)
  if (!grants) {
    if (effective.size > 1000) effective.clear()
    effective.set(key, (grants = intersectGrants(roleGrants(role), JSON.parse(permissions) as string[])))
  }
  return grants
}

/** `recordUse: false`: a re-check that is not a request (an event stream's heartbeat) leaves the key's last use alone. */
export async function authenticateApiKey(
  app: AppContext,
  token: string,
  meta: RequestMeta,
  options: { recordUse?: boolean } = {},
): Promise<UserActor> {
  if (!isWellFormedPersonalAccessToken(token)) throw unauthorized('TOKEN_INVALID', 'The personal access token is malformed')
  const hash = hashToken(token)
  const key = await markedCacheOf(keyCaches, app.db).get(
    hash,
    () => keyState(app.db, hash),
    (found) => found !== undefined,
  )
  if (!key || key.revoked_at !== null) throw unauthorized('TOKEN_INVALID', 'The personal access token is unknown or revoked')
  const now = app.clock.now()
  if (Number(key.expires_at) <= now) throw unauthorized('TOKEN_EXPIRED', 'The personal access token has expired')
  if (key.status !== 'active' || key.role === null || !isRole(key.role))
    throw unauthorized('TOKEN_INVALID', 'The owner of this personal access token is disabled')
  const ranges = app.allowlists.ranges(key.allowed_ips)
  if (ranges.length > 0)
    await assertIpAllowed(
      app,
      ranges,
      { organizationId: key.organization_id, actor: { type: 'user', id: key.user_id, credentialId: key.id } },
      meta,
    )
  if (!key.mfa_ok)
    throw new AppError(
      'MFA_ENROLLMENT_REQUIRED',
      'Your organization requires multi-factor authentication: this personal access token works again once its owner enrolls a method',
    )
  if (options.recordUse !== false) app.lastSeen.apiKey(key.id, meta.ip, now)
  return {
    kind: 'user',
    userId: key.user_id,
    organizationId: key.organization_id,
    role: key.role,
    grants: effectiveGrants(key.role, key.permissions),
    credential: { type: 'api_key', id: key.id },
    request: meta,
    rates: ratesFromColumn(key.rates),
  }
}
