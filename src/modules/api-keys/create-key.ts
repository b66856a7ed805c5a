// createApiKey: a personal access token for the caller, shown once. It expires within a year, and may
// be narrowed to some of the caller's permissions (never widened: each must be held by the caller).
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { AppDeps, SessionActor } from '../../context.ts'
import { write } from '../../db/tx.ts'
import { AppError, validationError, type FieldError } from '../../errors.ts'
import { coversGrant, isGrant } from '../access/match.ts'
import { actorOf, audit } from '../audit/record.ts'
import { hashToken } from '../auth/sessions.ts'
import { DATE_TIME_EXPECTED, parseDateTime } from '../../lib/date-time.ts'
import { prefixedId } from '../../lib/ids.ts'
import { apiKeyJson, type ApiKeyRow } from './key-json.ts'
import { apiKeys } from './table.ts'
import { DISPLAY_PREFIX_LENGTH, newPersonalAccessToken } from './token.ts'

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
    if (!isGrant(grant)) errors.push({ field: `permissions.${i}`, message: `${JSON.stringify(grant)} is not a permission (resource:action, resource:* or *:*)` })
    else if (!coversGrant(actor.grants, grant)) errors.push({ field: `permissions.${i}`, message: `you do not hold ${grant}` })
  })
  if (errors.length > 0) throw validationError(errors)
  return { expiresAt, permissions }
}

export function createApiKey(deps: Pick<AppDeps, 'db' | 'clock'>, actor: SessionActor, input: NewApiKey): ReturnType<typeof apiKeyJson> & { token: string } {
  const now = deps.clock.now()
  const { expiresAt, permissions } = checkInput(actor, input, now)
  const token = newPersonalAccessToken()
  const row: ApiKeyRow = {
    id: prefixedId('key'),
    organizationId: actor.organizationId,
    userId: actor.userId,
    name: input.name.trim(),
    tokenHash: hashToken(token),
    prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
    permissions,
    createdAt: now,
    expiresAt,
    lastUsedAt: null,
    lastUsedIp: null,
    revokedAt: null,
  }
  write(deps.db, (tx) => {
    const live = tx
      .select({ n: sql<number>`count(*)` })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, actor.userId), isNull(apiKeys.revokedAt), sql`${apiKeys.expiresAt} > ${now}`))
      .get()!.n
    if (live >= MAX_KEYS_PER_USER) throw new AppError('CONFLICT', `You have ${MAX_KEYS_PER_USER} live API keys: revoke one first`)
    tx.insert(apiKeys).values(row).run()
    audit(tx, {
      organizationId: actor.organizationId,
      actor: actorOf(actor),
      event: 'pat.created',
      target: { type: 'api_key', id: row.id },
      details: { name: row.name, prefix: row.prefix, expires_at: new Date(expiresAt).toISOString(), permissions },
      request: actor.request,
      now,
    })
  })
  return { ...apiKeyJson(row, now), token }
}
