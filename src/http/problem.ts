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

/** Errors any route can answer with: unknown method, oversized body, unexpected failure. */
const COMMON: ErrorCode[] = ['INTERNAL']

/** `{ 400: ErrorBody, 404: ErrorBody, ... }` for the given codes plus the common ones, one entry per status. */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus: Record<number, TSchema> = {}
  for (const code of [...codes, ...COMMON]) {
    const status = ERROR_CODES[code].status
    const codesForStatus = [...codes, ...COMMON].filter((c) => ERROR_CODES[c].status === status)
    byStatus[status] = t.Object(ErrorBody.properties, { title: 'Error', description: codesForStatus.join(', ') })
  }
  return byStatus
}
