// Cross-cutting HTTP behaviour for every route: request id, body limits, media types and parsing, a list's
// unknown query parameters, the error renderer, the access log, and keeping the answers of requests that
// claimed an Idempotency-Key.
// Used first in app.ts, because Elysia hooks only apply to later routes.
import { Elysia, StatusMap } from 'elysia'
import type { AppContext } from '../context.ts'
import type { RouteTable } from '../lib/route-match.ts'
import { presentsCredential, refuseWithoutCredential } from './auth.ts'
import { checkBodyUpFront, checkUrlUpFront, parseBody, refuseUnlessJson, type StreamedBody } from './body.ts'
import { keepIdempotentAnswer } from './idempotency.ts'
import { refuseUnknownParameters } from './list.ts'
import { chargeAnonymous, chargeFailedRequest, isUncounted, writeRateLimitHeaders } from './rate-limit.ts'
import { renderError, toAppError } from './render-error.ts'
import { beginRequest, pathOf, requestState } from './request-state.ts'
import { type RouteLike, routeSchemas } from './route-schemas.ts'

export function httpPlatform(
  app: Pick<AppContext, 'config' | 'db' | 'log' | 'ports' | 'clock' | 'guards'>,
  routes: () => RouteTable,
  streamed: readonly StreamedBody[] = [],
) {
  const { log } = app
  const limit = app.config.maxBodyBytes
  const platform = new Elysia()
  // Once used by the app, a plugin's getGlobalRoutes() answers the app's routes (as for the OpenAPI document).
  const schemas = routeSchemas(() => (platform as unknown as { getGlobalRoutes(): RouteLike[] }).getGlobalRoutes())
  return (
    platform
      // Every hook names what it reads and hands on `{ request, ... }`, never its whole context: Elysia
      // infers from a hook's source what each route must prepare, and a context passed whole makes every
      // route copy the headers and parse cookies (request-state.ts).
      // onRequest hooks are always global and run before routing, so 404s get an id too.
      .onRequest(({ request, set }) => {
        set.headers['x-request-id'] = beginRequest({ request }).id
        checkUrlUpFront(request)
        checkBodyUpFront(request, limit, streamed)
        refuseWithoutCredential(app, request, routes())
      })
      .onParse({ as: 'global' }, ({ request, contentType, route }) => {
        if (schemas().takesJson(request.method, route)) refuseUnlessJson(request, contentType)
        return parseBody(request, contentType, limit)
      })
      // Before validation, where Elysia drops a query parameter its schema does not name. A request with no
      // credential at all to a list that needs one is left to the authenticator: 401 says what to do first.
      .onTransform({ as: 'global' }, ({ request, route }) => {
        const known = schemas().listParameters(request.method, route)
        if (known && !(routes().isAuthenticated(request.method, route) && !presentsCredential(request)))
          refuseUnknownParameters(request.url, known)
      })
      // Global hooks run before a route's own (the auth macros'): routes without a credential count
      // against the client address here; authenticated ones count against the user in http/auth.ts.
      .onBeforeHandle({ as: 'global' }, ({ request, route, server }) => {
        if (!app.config.rateLimits.enabled || isUncounted(route) || routes().isAuthenticated(request.method, route)) return
        // A promise only from counters in Redis: Elysia waits for it (a 429 rejects it).
        return chargeAnonymous(app, { request, server })
      })
      // Async: Elysia then waits for it before mapResponse (the access log, the X-RateLimit-* headers);
      // a promise returned by a plain function would reach mapResponse unsettled.
      .onError({ as: 'global' }, async ({ code, error, request, set, server }) => {
        const { id } = requestState({ request })
        const path = pathOf(request.url)
        const converted = toAppError(code, error, request, routes())
        if (converted.internal !== undefined)
          log.error('unhandled error', { request_id: id, method: request.method, path, error: converted.internal })
        // A promise only from counters in Redis.
        const charged = chargeFailedRequest(app, { request, server }, path, converted.error)
        const rendered = renderError(charged instanceof Promise ? await charged : charged, id)
        set.status = rendered.status
        Object.assign(set.headers, rendered.headers, { 'x-request-id': id, 'content-type': 'application/json' })
        return rendered.body
      })
      // The access log. mapResponse runs exactly once per response, errors included, after response
      // validation, with the final status. (onAfterResponse would cost every request a setImmediate.)
      .mapResponse({ as: 'global' }, ({ request, set, responseValue }) => {
        const state = requestState({ request })
        writeRateLimitHeaders({ request }, set.headers as Record<string, string>)
        const status =
          responseValue instanceof Response
            ? responseValue.status
            : typeof set.status === 'number'
              ? set.status
              : (StatusMap[set.status as keyof typeof StatusMap] ?? 200)
        const fields = {
          request_id: state.id,
          method: request.method,
          path: pathOf(request.url),
          status,
          duration_ms: Math.round((performance.now() - state.startedAt) * 100) / 100,
        }
        if (status >= 500) log.error('request', fields)
        else log.info('request', fields)
        // A request that claimed an Idempotency-Key: a promise of the answer, settled once it is kept
        // (Elysia awaits it), so a retry that comes after this answer finds it.
        const kept = keepIdempotentAnswer(app, { request, set }, status, responseValue)
        // Otherwise handing the value back unchanged: Elysia 1.4.30's global error path takes a hook's
        // result without checking it for undefined, and an undefined would erase 404/405/413 bodies.
        return (kept ?? responseValue) as never
      })
  )
}
