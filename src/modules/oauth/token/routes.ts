// The protocol side of the authorization server: discovery, /oauth2/token, /userinfo, revocation and
// introspection (their answers are RFC 6749 / 6750 JSON, never cached, built as Response objects: the
// platform's renderer would give them the API's error shape), and the user's grants under /api/v1.
// The protocol routes are kept out of the OpenAPI document: they follow the RFCs, not the API's shapes.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { formParameters, mediaType } from '../../../http/body.ts'
import { type MetaContext, requestMeta } from '../../../http/request-meta.ts'
import { authenticateClient } from './client-auth.ts'
import { bearerErrorResponse, BearerError, presentedBearer } from './bearer.ts'
import { discoveryDocument } from './discovery.ts'
import { type Form, protocolForm } from './form.ts'
import { introspect } from './introspect.ts'
import { noStoreEmpty, noStoreJson, OAuthError, oauthErrorResponse } from './protocol.ts'
import { revoke } from './revoke.ts'
import { tokenEndpoint } from './token-endpoint.ts'
import { userinfo } from './userinfo.ts'
import { grantsRoutes } from '../grants/routes.ts'

const hidden = { detail: { hide: true } }

/** Runs a protocol endpoint on its form; an OAuthError becomes RFC 6749 JSON. */
async function protocol(request: Request, run: (form: Form) => Promise<Response>): Promise<Response> {
  try {
    return await run(protocolForm(mediaType(request.headers.get('content-type')), formParameters(request)))
  } catch (error) {
    if (error instanceof OAuthError) return oauthErrorResponse(error)
    throw error
  }
}

export function tokenRoutes(app: AppContext) {
  const meta = (c: MetaContext) => requestMeta(c, app.config.trustedProxies)
  const discovery = ({ set }: { set: { headers: Record<string, string | number> } }) => {
    set.headers['cache-control'] = 'public, max-age=300'
    return discoveryDocument(app.config)
  }
  const clientOf = (c: MetaContext, form: Form, allowPublic: boolean) =>
    authenticateClient(app, { authorization: c.request.headers.get('authorization'), form, request: meta(c), allowPublic })
  const userinfoRoute = async (c: MetaContext) => {
    try {
      const body = c.request.method === 'POST' ? formParameters(c.request) : undefined
      if ((body?.getAll('access_token').length ?? 0) > 1)
        throw new BearerError(400, 'invalid_request', 'access_token is sent more than once')
      const formToken = body?.get('access_token') || undefined
      const token = presentedBearer({ url: c.request.url, authorization: c.request.headers.get('authorization'), formToken })
      return noStoreJson(200, await userinfo(app, { token, request: meta(c) }))
    } catch (error) {
      if (error instanceof BearerError) return bearerErrorResponse(error)
      throw error
    }
  }
  return new Elysia()
    .get('/.well-known/openid-configuration', discovery, hidden)
    .get('/.well-known/oauth-authorization-server', discovery, hidden)
    .post(
      '/oauth2/token',
      (c) =>
        protocol(c.request, (form) =>
          tokenEndpoint(app, { authorization: c.request.headers.get('authorization'), form, request: meta(c) }),
        ),
      hidden,
    )
    .post(
      '/oauth2/revoke',
      (c) =>
        protocol(c.request, async (form) => {
          await revoke(app, { client: await clientOf(c, form, true), form, request: meta(c) })
          return noStoreEmpty()
        }),
      hidden,
    )
    .post(
      '/oauth2/introspect',
      (c) => protocol(c.request, async (form) => noStoreJson(200, await introspect(app, { client: await clientOf(c, form, false), form }))),
      hidden,
    )
    .get('/userinfo', userinfoRoute, hidden)
    .post('/userinfo', userinfoRoute, hidden)
    .use(grantsRoutes(app))
}
