// Response schema of the JWKS endpoint.
import { t } from 'elysia'

export const JwksBody = t.Object({
  keys: t.Array(
    t.Object({
      kty: t.Literal('RSA'),
      kid: t.String({ description: 'RFC 7638 thumbprint' }),
      alg: t.Literal('RS256'),
      use: t.Literal('sig'),
      n: t.String(),
      e: t.String(),
    }),
  ),
})
