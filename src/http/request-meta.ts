// requestMeta(ctx): the request id, client address and user agent of a request, as the audit log and
// the IP allowlist see them. The address is worked out on first use only (most requests never need it).
import type { Cidr } from '../lib/cidr.ts'
import type { RequestMeta } from '../context.ts'
import { clientIp } from './client-ip.ts'
import { requestState, type RequestContext } from './request-state.ts'

const META = Symbol('request meta')

/** What Elysia's context offers to find the peer address; absent for in-process `app.handle()` calls. */
export type MetaContext = RequestContext & { server?: { requestIP(request: Request): { address: string } | null } | null }

const USER_AGENT_MAX = 512

export function requestMeta(ctx: MetaContext, trustedProxies: readonly Cidr[]): RequestMeta {
  const cached = (ctx.request as unknown as Record<symbol, RequestMeta | undefined>)[META]
  if (cached) return cached
  const { request } = ctx
  let ip: string | null | undefined
  const meta: RequestMeta = {
    requestId: requestState(ctx).id,
    get ip() {
      if (ip === undefined) ip = clientIp(ctx.server?.requestIP(request)?.address, request.headers.get('x-forwarded-for'), trustedProxies)
      return ip
    },
    userAgent: request.headers.get('user-agent')?.slice(0, USER_AGENT_MAX) ?? null,
  }
  ;(request as unknown as Record<symbol, RequestMeta>)[META] = meta
  return meta
}
