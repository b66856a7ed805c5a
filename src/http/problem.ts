// The error body schema and the response entries every route spreads into its `response` map,
// so /openapi.json documents the errors each route can answer with.
import { t, type TSchema } from 'elysia'
import { ERROR_CODES, type ErrorCode } from '../errors.ts'

export const ErrorBody = t.Object(
  {
    code: t.String({ description: 'Machine-readable UPPER_SNAKE code', examples: ['NOT_FOUND'] }),
    message: t.String({ description: 'Human-readable explanation' }),
    request_id: t.String({ description: 'Id of the request, as in the X-Request-Id header' }),
    errors: t.Optional(
      t.Array(t.Object({ field: t.String(), message: t.String() }), { description: 'Each invalid field (validation errors only)' }),
    ),
  },
  { title: 'Error' },
)

export const RateLimitedBody = t.Object(
  {
    code: t.Literal(429),
    message: t.String(),
    retry_after: t.Integer({ description: 'Seconds to wait, as in the Retry-After header' }),
    error: t.Literal('RATE_LIMITED'),
  },
  {
    title: 'RateLimited',
    description: 'RATE_LIMITED',
    examples: [{ code: 429, message: 'Too many requests', retry_after: 12, error: 'RATE_LIMITED' }],
  },
)

/** The document's example of an error body with this code. */
function example(code: ErrorCode) {
  return { code, message: ERROR_CODES[code].message, request_id: '0af7651916cd43dd8448eb211c80319c' }
}

/** Every route can fail unexpectedly; routes add the codes specific to them. */
const COMMON: ErrorCode[] = ['INTERNAL']

/** `{ 400: ErrorBody, 503: ErrorBody, ... }` for the given codes plus INTERNAL, described by the codes of each status. */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of new Set([...codes, ...COMMON])) {
    const status = ERROR_CODES[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      status === 429
        ? RateLimitedBody
        : t.Object(ErrorBody.properties, { title: 'Error', description: list.join(', '), examples: [example(list[0]!)] }),
    ]),
  )
}
