// The organization's security settings: IP allowlist, concurrent-session limit and policy, MFA
// requirement. A change that would lock the caller's own address out is refused unless forced.
// Turning the MFA requirement on ends the sessions of every user without MFA (their access tokens
// are refused from the next request); they sign in again and get tokens for MFA enrollment only.
import type { Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError, validationError } from '../../errors.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { ipAllowed, MAX_ENTRY_LENGTH, parseAllowlist, rangeKey } from './allowlist.ts'
import { endSessionsWithoutMfa, lockOrganization, type OrganizationRow, saveSecurity } from './store.ts'
import type { SessionLimitPolicy } from './table.ts'

export interface SecurityChanges {
  allowed_ips?: string[]
  max_concurrent_sessions?: number | null
  session_limit_policy?: SessionLimitPolicy
  mfa_required?: boolean
  force?: boolean
}

export function securityJson(org: OrganizationRow) {
  return {
    allowed_ips: JSON.parse(org.allowed_ips) as string[],
    max_concurrent_sessions: org.max_concurrent_sessions,
    session_limit_policy: org.session_limit_policy,
    mfa_required: Boolean(org.mfa_required),
  }
}

/** Checks and normalizes an allowlist: every entry an address or range (400 naming each bad one), each range once. */
export function checkAllowlist(entries: readonly string[]): string[] {
  const { ranges, invalid } = parseAllowlist(entries)
  if (invalid.length > 0) {
    throw validationError(
      entries.flatMap((entry, i) =>
        invalid.includes(entry)
          ? [
              {
                field: `allowed_ips.${i}`,
                message: `${JSON.stringify(entry.length > MAX_ENTRY_LENGTH ? `${entry.slice(0, MAX_ENTRY_LENGTH)}…` : entry)} is not an IP address or CIDR range`,
              },
            ]
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

export async function updateSecurity(ctx: Ctx<UserActor>, changes: SecurityChanges): Promise<OrganizationRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const allowedIps = changes.allowed_ips === undefined ? undefined : checkAllowlist(changes.allowed_ips)
  if (allowedIps !== undefined && !changes.force && !ipAllowed(parseAllowlist(allowedIps).ranges, actor.request.ip)) {
    throw new AppError(
      'CONFLICT',
      `This allowlist does not include your address (${actor.request.ip ?? 'unknown'}): you would be locked out. Send "force": true to apply it anyway`,
    )
  }
  return ctx.db.write('organization.security.update', async (tx) => {
    const { before, after } = await changeSecurity(tx, ctx, actor.organizationId, { ...changes, allowed_ips: allowedIps }, now)
    if (!before.mfa_required && after.mfa_required) await endSessionsOfUsersWithoutMfa(tx, ctx, after.id, now)
    return after
  })
}

/**
 * Inside the transaction: revokes every live session of the organization's users who have no confirmed
 * MFA factor, each audited as session.ended (reason mfa_required), remembered as revoked after commit.
 */
async function endSessionsOfUsersWithoutMfa(tx: Tx, ctx: Ctx, organizationId: string, now: number): Promise<void> {
  const ended = await endSessionsWithoutMfa(tx, organizationId, now)
  const request = ctx.actor.kind === 'user' ? ctx.actor.request : null
  for (const session of ended) {
    if (session.expires_at <= now) continue
    await appendAudit(tx, {
      organizationId,
      actor: auditActorOf(ctx.actor),
      event: 'session.ended',
      reason: 'mfa_required',
      target: { type: 'session', id: session.id },
      details: { user_id: session.user_id },
      request,
      now,
    })
  }
  const live = ended.filter((session) => session.access_expires_at > now)
  // After commit, like every revocation: from the next request on, their access tokens are refused.
  tx.afterCommit(() => {
    for (const session of live) ctx.ports.revocations.rememberSession(session.id, session.access_expires_at)
  })
}

/** Inside a transaction: writes the changed settings and audits them (also the CLI's break-glass, as the system). */
export async function applySecurity(
  tx: Tx,
  ctx: Ctx,
  organizationId: string,
  changes: SecurityChanges,
  now: number,
): Promise<OrganizationRow> {
  return (await changeSecurity(tx, ctx, organizationId, changes, now)).after
}

async function changeSecurity(tx: Tx, ctx: Ctx, organizationId: string, changes: SecurityChanges, now: number) {
  // Invariant: no change is lost. The settings not sent are written back as read: the row is locked
  // first, so a simultaneous change of another setting is read, not overwritten.
  const before = await lockOrganization(tx, organizationId)
  if (!before) throw new AppError('NOT_FOUND', 'No such organization')
  const after = await saveSecurity(
    tx,
    organizationId,
    {
      allowed_ips: changes.allowed_ips === undefined ? before.allowed_ips : JSON.stringify(changes.allowed_ips),
      max_concurrent_sessions:
        changes.max_concurrent_sessions === undefined ? before.max_concurrent_sessions : changes.max_concurrent_sessions,
      session_limit_policy: changes.session_limit_policy ?? before.session_limit_policy,
      mfa_required: changes.mfa_required ?? Boolean(before.mfa_required),
    },
    now,
  )
  const was = securityJson(before)
  const is = securityJson(after)
  const changed = (Object.keys(is) as (keyof typeof is)[]).filter((key) => JSON.stringify(was[key]) !== JSON.stringify(is[key]))
  if (changed.length > 0) {
    await appendAudit(tx, {
      organizationId,
      actor: auditActorOf(ctx.actor),
      event: 'security.updated',
      target: { type: 'organization', id: organizationId },
      details: {
        changed,
        ...Object.fromEntries(changed.map((key) => [key, { from: was[key], to: is[key] }])),
        ...(changes.force ? { forced: true } : {}),
      },
      request: ctx.actor.kind === 'user' ? ctx.actor.request : null,
      now,
    })
  }
  return { before, after }
}
