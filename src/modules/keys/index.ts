// The keys module's public entry: GET /.well-known/jwks.json (the public keys that verify our tokens,
// public, cacheable for 5 minutes), the keyring and the master key.
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { errorResponses } from '../../http/problem.ts'
import { allKeys } from './store.ts'
import { publishedKeys } from './keyring.ts'
import { JwksBody } from './model.ts'

export { Keyring, type PublicJwk } from './keyring.ts'
export { loadMasterKey, MasterKeyError, seal, unseal } from './master-key.ts'

export function keysRoutes(app: AppContext) {
  return new Elysia().get(
    '/.well-known/jwks.json',
    async ({ set }) => {
      set.headers['cache-control'] = 'public, max-age=300'
      return { keys: publishedKeys(await allKeys(app.db), app.clock.now()) } as typeof JwksBody.static
    },
    {
      response: { 200: JwksBody, ...errorResponses() },
      detail: {
        tags: ['Auth'],
        operationId: 'getJwks',
        summary: 'Public signing keys (JWKS)',
        description: 'Every key that can verify a live token, and a rotated key before it starts signing.',
      },
    },
  )
}
