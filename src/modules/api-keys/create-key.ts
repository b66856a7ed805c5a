// createApiKey: a personal access token for the caller, shown once. It expires within a year, and may
// be narrowed to some of the caller's permissions (never widened: each must be held by the caller).
import type { Ctx, SessionActor, UserActor } from '../../context.ts'
import { AppError, type FieldError, validationError } from '../../errors.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import { prefixedId } from '../../lib/ids.ts'
import { coversGrant, isGrant, requireSession } from '../access/index.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { hashToken } from '../../lib/token-hash.ts'
import { type ApiKeyRow, countLiveKeys, insertApiKey } from './store.ts'
import { DISPLAY_PREFIX_LENGTH, newPersonalAccessToken } from '../../lib/personal-access-token.ts'

export const MAX_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000
export const MAX_KEYS_PER_USER = 100

export interface NewApiKey {
  name: string
  expires_at: string
  permissions?: string[]
}

function checkInput(actor: SessionActor, input: NewApiKey, now: number): { expiresAt: number; permissions: string[] | null } {
  const errors: FieldError[] = []
  const expiresAt = parseDateTime(input.expires_at) ?? NaN
  if (Number.isNaN(expiresAt)) errors.push({ field: 'expires_at', message: DATE_TIME_EXPECTED })
  else if (expiresAt <= now) errors.push({ field: 'expires_at', message: 'must be in the future' })
  else if (expiresAt > now + MAX_LIFETIME_MS) errors.push({ field: 'expires_at', message: 'must be at most 1 year ahead' })
  const permissions = input.permissions === undefined ? null : [...new Set(input.permissions)]
  input.permissions?.forEach((grant, i) => {
    if (!isGrant(grant))
      errors.push({
        field: `permissions.${i}`,
        message: `${JSON.stringify(grant)} is not a permission (resource:action, resource:* or *:*)`,
      })
    else if (!coversGrant(actor.grants, grant)) errors.push({ field: `permissions.${i}`, message: `you do not hold ${grant}` })
  })
  if (errors.length > 0) throw validationError(errors)
  return { expiresAt, permissions }
}

/**
 * The new key's row and its token (the only time the token exists outside the caller's hands). Needs a
 * sign-in: a personal access token cannot create another.
 */
export async function createApiKey(ctx: Ctx<UserActor>, input: NewApiKey): Promise<{ row: ApiKeyRow; token: string }> {
  const actor = requireSession(ctx.actor)
  const now = ctx.clock.now()
  const { expiresAt, permissions } = checkInput(actor, input, now)
  const token = newPersonalAccessToken()
  const row: ApiKeyRow = {
    id: prefixedId('key'),
    organization_id: actor.organizationId,
    user_id: actor.userId,
    name: input.name.trim(),
    token_hash: hashToken(token),
    prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
    permissions: permissions === null ? null : JSON.stringify(permissions),
    created_at: now,
    expires_at: expiresAt,
    last_used_at: null,
    last_used_ip: null,
    revoked_at: null,
  }
  await ctx.db.write('api_key.create', async (tx) => {
    // Invariant: at most MAX_KEYS_PER_USER live keys. The new key has no row to lock yet: a user's
    // simultaneous creations count one after the other under this key.
    await tx.lock(`api-keys:${actor.userId}`)
    if ((await countLiveKeys(tx, actor.userId, now)) >= MAX_KEYS_PER_USER)
      throw new AppError('CONFLICT', `You have ${MAX_KEYS_PER_USER} live API keys: revoke one first`)
    await insertApiKey(tx, row)
    await appendAudit(tx, {
      organizationId: actor.organizationId,
      actor: auditActorOf(actor),
      event: 'pat.created',
      target: { type: 'api_key', id: row.id },
      details: { name: row.name, prefix: row.prefix, expires_at: new Date(expiresAt).toISOString(), permissions },
      request: actor.request,
      now,
    })
  })
  return { row, token }
}
