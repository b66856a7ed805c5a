// The organization's security settings: IP allowlist, concurrent-session limit and policy, MFA
// requirement. A change that would lock the caller's own address out is refused unless forced.
import { eq } from 'drizzle-orm'
import type { RequestMeta, UserActor } from '../../context.ts'
import type { AppDatabase } from '../../db/open.ts'
import { write, type Tx } from '../../db/tx.ts'
import { AppError, validationError } from '../../errors.ts'
import { actorOf, audit, type AuditActor } from '../audit/record.ts'
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

export function updateSecurity(db: AppDatabase, actor: UserActor, changes: SecurityChanges, now: number): OrganizationRow {
  const allowedIps = changes.allowed_ips === undefined ? undefined : checkAllowlist(changes.allowed_ips)
  if (allowedIps !== undefined && !changes.force && !ipAllowed(parseAllowlist(allowedIps).ranges, actor.request.ip)) {
    throw new AppError('CONFLICT', `This allowlist does not include your address (${actor.request.ip ?? 'unknown'}): you would be locked out. Send "force": true to apply it anyway`)
  }
  return write(db, (tx) =>
    applySecurity(tx, actor.organizationId, { ...changes, allowed_ips: allowedIps }, { actor: actorOf(actor), request: actor.request }, now),
  )
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
