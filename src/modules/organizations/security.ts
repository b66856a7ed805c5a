// The organization's security settings: IP allowlist, concurrent-session limit and policy, MFA
// requirement. A change that would lock the caller's own address out is refused unless forced.
// Turning the MFA requirement on ends the sessions of every user without MFA (their access tokens
// are refused from the next request); they sign in again and get tokens for MFA enrollment only.
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { AppDeps, RequestMeta, UserActor } from '../../context.ts'
import type { AppDatabase } from '../../db/open.ts'
import { write, type Tx } from '../../db/tx.ts'
import { AppError, validationError } from '../../errors.ts'
import { actorOf, audit, type AuditActor } from '../audit/record.ts'
import { sessions } from '../auth/table.ts'
import { ipAllowed, MAX_ENTRY_LENGTH, parseAllowlist, rangeKey } from './allowlist.ts'
import { findOrganization, type OrganizationRow } from './service.ts'
import { organizations, type SessionLimitPolicy } from './table.ts'

export interface SecurityChanges {
  allowed_ips?: string[]
  max_concurrent_sessions?: number | null
  session_limit_policy?: SessionLimitPolicy
  mfa_required?: boolean
  force?: boolean
}

export function securityJson(org: OrganizationRow) {
  return {
    allowed_ips: org.allowedIps,
    max_concurrent_sessions: org.maxConcurrentSessions,
    session_limit_policy: org.sessionLimitPolicy,
    mfa_required: org.mfaRequired,
  }
}

export function getOrganizationInScope(db: AppDatabase | Tx, organizationId: string): OrganizationRow {
  const org = findOrganization(db, organizationId)
  if (!org) throw new AppError('NOT_FOUND', 'No such organization')
  return org
}

/** Checks and normalizes an allowlist: every entry an address or range (400 naming each bad one), each range once. */
export function checkAllowlist(entries: readonly string[]): string[] {
  const { ranges, invalid } = parseAllowlist(entries)
  if (invalid.length > 0) {
    throw validationError(
      entries.flatMap((entry, i) =>
        invalid.includes(entry)
          ? [{ field: `allowed_ips.${i}`, message: `${JSON.stringify(entry.length > MAX_ENTRY_LENGTH ? `${entry.slice(0, MAX_ENTRY_LENGTH)}…` : entry)} is not an IP address or CIDR range` }]
          : [],
      ),
    )
  }
  // One entry per range, however it is spelled (`::1` and `0:0:0:0:0:0:0:1`, `10.0.0.1` and
  // `10.0.0.1/32`, `10.1.2.3/8` and `10.0.0.0/8`): the first spelling is kept.
  const seen = new Set<string>()
  return entries.filter((_, i) => {
    const key = rangeKey(ranges[i]!)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

export function updateSecurity(deps: Pick<AppDeps, 'db' | 'revocations'>, actor: UserActor, changes: SecurityChanges, now: number): OrganizationRow {
  const allowedIps = changes.allowed_ips === undefined ? undefined : checkAllowlist(changes.allowed_ips)
  if (allowedIps !== undefined && !changes.force && !ipAllowed(parseAllowlist(allowedIps).ranges, actor.request.ip)) {
    throw new AppError('CONFLICT', `This allowlist does not include your address (${actor.request.ip ?? 'unknown'}): you would be locked out. Send "force": true to apply it anyway`)
  }
  const by = { actor: actorOf(actor), request: actor.request }
  const { org, ended } = write(deps.db, (tx) => {
    const wasRequired = getOrganizationInScope(tx, actor.organizationId).mfaRequired
    const org = applySecurity(tx, actor.organizationId, { ...changes, allowed_ips: allowedIps }, by, now)
    return { org, ended: !wasRequired && org.mfaRequired ? endSessionsWithoutMfa(tx, org.id, by, now) : [] }
  })
  // After commit, like every revocation: from the next request on, their access tokens are refused.
  for (const [sessionId, until] of ended) deps.revocations.rememberSession(sessionId, until)
  return org
}

/**
 * Inside a transaction: revokes every live session of the organization's users who have no confirmed
 * MFA factor (each audited as session.ended, reason mfa_required); returns [id, until] to remember.
 */
function endSessionsWithoutMfa(tx: Tx, organizationId: string, by: { actor: AuditActor; request?: RequestMeta }, now: number): [string, number][] {
  const ended = tx
    .update(sessions)
    .set({ revokedAt: now, revokedReason: 'mfa_required' })
    .where(
      and(
        eq(sessions.organizationId, organizationId),
        isNull(sessions.revokedAt),
        // Spelled out: inside the subquery a bare user_id would be mfa_factors' own column.
        sql`NOT EXISTS (SELECT 1 FROM mfa_factors WHERE mfa_factors.user_id = sessions.user_id AND mfa_factors.confirmed_at IS NOT NULL)`,
      ),
    )
    .returning({ id: sessions.id, userId: sessions.userId, until: sessions.accessExpiresAt, expiresAt: sessions.expiresAt })
    .all()
  for (const session of ended) {
    if (session.expiresAt <= now) continue
    audit(tx, { organizationId, actor: by.actor, event: 'session.ended', reason: 'mfa_required', target: { type: 'session', id: session.id }, details: { user_id: session.userId }, request: by.request, now })
  }
  return ended.filter((session) => session.until > now).map((session) => [session.id, session.until])
}

/** Inside a transaction: writes the changed settings and audits them (also used by the CLI's break-glass). */
export function applySecurity(tx: Tx, organizationId: string, changes: SecurityChanges, by: { actor: AuditActor; request?: RequestMeta }, now: number): OrganizationRow {
  const before = getOrganizationInScope(tx, organizationId)
  const next = {
    allowedIps: changes.allowed_ips ?? before.allowedIps,
    maxConcurrentSessions: changes.max_concurrent_sessions === undefined ? before.maxConcurrentSessions : changes.max_concurrent_sessions,
    sessionLimitPolicy: changes.session_limit_policy ?? before.sessionLimitPolicy,
    mfaRequired: changes.mfa_required ?? before.mfaRequired,
  }
  const after = tx.update(organizations).set({ ...next, updatedAt: now }).where(eq(organizations.id, organizationId)).returning().get()!
  const was = securityJson(before)
  const is = securityJson(after)
  const changed = (Object.keys(is) as (keyof typeof is)[]).filter((key) => JSON.stringify(was[key]) !== JSON.stringify(is[key]))
  if (changed.length > 0) {
    audit(tx, {
      organizationId,
      actor: by.actor,
      event: 'security.updated',
      target: { type: 'organization', id: organizationId },
      details: { changed, ...Object.fromEntries(changed.map((key) => [key, { from: was[key], to: is[key] }])), ...(changes.force ? { forced: true } : {}) },
      request: by.request,
      now,
    })
  }
  return after
}
