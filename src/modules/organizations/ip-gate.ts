// The organization IP allowlist at the door: login, MFA verification, refresh, personal access tokens
// and every API request. A denial is written to the audit log (at most once a minute per address, so
// a client hammering the API cannot flood it).
import type { AppContext, RequestMeta } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import type { Cidr } from '../../lib/cidr.ts'
import { type AuditActor, appendAudit } from '../audit/index.ts'
import { ipAllowed } from './allowlist.ts'

export interface Who {
  organizationId: string
  actor: AuditActor
}

function denied(request: RequestMeta): AppError {
  return new AppError('IP_NOT_ALLOWED', `Requests from ${request.ip ?? 'an unknown address'} are not allowed for this organization`)
}

/** Inside a transaction: undefined when the address is allowed, else the error to throw once it commits. */
export async function checkIp(
  tx: Tx,
  app: Pick<AppContext, 'allowlists'>,
  check: { ranges: readonly Cidr[]; who: Who; request: RequestMeta; now: number },
): Promise<AppError | undefined> {
  const { ranges, who, request, now } = check
  if (ipAllowed(ranges, request.ip)) return undefined
  if (app.allowlists.denialDue(who.organizationId, request.ip, now)) await recordDenial(tx, who, request, now)
  return denied(request)
}

/** Outside a transaction: throws IP_NOT_ALLOWED (after recording it) when the address is not allowed. */
export async function assertIpAllowed(
  app: Pick<AppContext, 'db' | 'allowlists' | 'clock'>,
  ranges: readonly Cidr[],
  who: Who,
  request: RequestMeta,
): Promise<void> {
  if (ipAllowed(ranges, request.ip)) return
  const now = app.clock.now()
  // Only a due denial writes: the others answer without waiting for the writer.
  if (!app.allowlists.denialDue(who.organizationId, request.ip, now)) throw denied(request)
  await app.db.write('ip.denied', (tx) => recordDenial(tx, who, request, now))
  throw denied(request)
}

/** The audit record of a refused address (throttled by the caller: one per organization and address a while). */
function recordDenial(tx: Tx, who: Who, request: RequestMeta, now: number): Promise<void> {
  return appendAudit(tx, {
    organizationId: who.organizationId,
    actor: who.actor,
    event: 'ip.denied',
    outcome: 'failure',
    reason: 'ip_not_allowed',
    details: { ip: request.ip },
    request,
    now,
  })
}
