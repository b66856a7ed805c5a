// The organization IP allowlist at the door: login, MFA verification, refresh, personal access tokens
// and every API request. A denial is written to the audit log (at most once a minute per address, so
// a client hammering the API cannot flood it).
import type { AppDeps, RequestMeta } from '../../context.ts'
import { write, type Tx } from '../../db/tx.ts'
import { AppError } from '../../errors.ts'
import type { Cidr } from '../../lib/cidr.ts'
import { audit, type AuditActor } from '../audit/record.ts'
import { ipAllowed } from '../organizations/allowlist.ts'

type IpCheckDeps = Pick<AppDeps, 'db' | 'allowlists' | 'clock'>

interface Who {
  organizationId: string
  actor: AuditActor
}

function denied(request: RequestMeta): AppError {
  return new AppError('IP_NOT_ALLOWED', `Requests from ${request.ip ?? 'an unknown address'} are not allowed for this organization`)
}

/** Inside a transaction: undefined when the address is allowed, else the error to throw once it commits. */
export function checkIp(tx: Tx, deps: IpCheckDeps, ranges: readonly Cidr[], who: Who, request: RequestMeta, now: number): AppError | undefined {
  if (ipAllowed(ranges, request.ip)) return undefined
  if (deps.allowlists.denialDue(who.organizationId, request.ip, now)) {
    audit(tx, { organizationId: who.organizationId, actor: who.actor, event: 'ip.denied', outcome: 'failure', reason: 'ip_not_allowed', details: { ip: request.ip }, request, now })
  }
  return denied(request)
}

/** Outside a transaction: throws IP_NOT_ALLOWED (after recording it) when the address is not allowed. */
export function assertIpAllowed(deps: IpCheckDeps, ranges: readonly Cidr[], who: Who, request: RequestMeta): void {
  if (ipAllowed(ranges, request.ip)) return
  const error = write(deps.db, (tx) => checkIp(tx, deps, ranges, who, request, deps.clock.now()))
  throw error ?? denied(request)
}
