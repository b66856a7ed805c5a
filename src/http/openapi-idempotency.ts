// What /openapi.json says of Idempotency-Key: the header, a parameter documented once and referenced by
// every operation that takes it (http/idempotency.ts decides which), its 400 and 409 answers, and the
// Idempotent-Replayed header on every answer a retry may get replayed.
import { ERROR_CODES, type ErrorCode } from '../errors.ts'
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from './idempotency.ts'

type Json = Record<string, unknown>
type Operation = Json & { responses?: Record<string, Json>; parameters?: Json[] }

export const IDEMPOTENCY_PARAMETERS: Record<string, Json> = {
  IdempotencyKey: {
    name: IDEMPOTENCY_KEY_HEADER,
    in: 'header',
    required: false,
    description:
      'A key of your choice (a UUID) to retry this request safely: for 24 hours, the same user sending the same key and the same request gets the first answer again, without the operation running twice (`Idempotent-Replayed: true`). The same key with another method, path or body is 409 IDEMPOTENCY_KEY_REUSED; while the first request runs, 409 IDEMPOTENCY_KEY_IN_USE. 5xx answers are not kept.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
    example: '4f1c2d9e-8a7b-4c3d-9e0f-1a2b3c4d5e6f',
  },
}

export const REPLAYED_RESPONSE_HEADER: Json = {
  description: '`true` on an answer replayed for a retry with the same Idempotency-Key (absent on the first answer)',
  schema: { type: 'string', enum: ['true'] },
}

const ADDED: Record<number, ErrorCode[]> = { 400: ['VALIDATION_FAILED'], 409: ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE'] }

/** Adds the parameter, the codes and the replay header to an operation that takes a key; `headersOf` gives a new response's headers. */
export function documentIdempotency(operation: Operation, headersOf: (status: string) => Json): void {
  operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }]
  const responses = (operation.responses ??= {})
  for (const [status, codes] of Object.entries(ADDED)) {
    const response = responses[status]
    if (response) {
      const named = String(response.description ?? '')
      const missing = codes.filter((code) => !named.split(', ').includes(code))
      if (missing.length > 0) response.description = [named, ...missing].filter(Boolean).join(', ')
      continue
    }
    const code = codes[0]!
    responses[status] = {
      description: codes.join(', '),
      headers: headersOf(status),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: { code, message: ERROR_CODES[code].message, request_id: '0af7651916cd43dd8448eb211c80319c' },
        },
      },
    }
  }
  // Any answer the handler gave can be replayed: successes and its own 4xx (not a 429, not a 5xx).
  for (const [status, response] of Object.entries(responses))
    if (Number(status) < 500 && status !== '429')
      response.headers = {
        ...(response.headers as Json | undefined),
        [REPLAYED_HEADER]: { $ref: `#/components/headers/${REPLAYED_HEADER}` },
      }
}
