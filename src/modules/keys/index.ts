// GET /.well-known/jwks.json: the public keys that verify our tokens (public, cacheable for 5 minutes).
import { Elysia } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { errorResponses } from '../../http/problem.ts'
import { JwksBody } from './model.ts'

export function keysRoutes(deps: AppDeps) {
  return new Elysia().get(
    '/.well-known/jwks.json',
    ({ set }) => {
      set.headers['cache-control'] = 'public, max-age=300'
      return { keys: deps.keyring.published(deps.clock.now()) } as typeof JwksBody.static
    },
    {
      response: { 200: JwksBody, ...errorResponses() },
      detail: { tags: ['Auth'], operationId: 'getJwks', summary: 'Public signing keys (JWKS)', description: 'Every key that can verify a live token, and a rotated key before it starts signing.' },
    },
  )
}
