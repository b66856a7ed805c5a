// The building blocks of the event data schemas (schemas.ts), in JSON Schema as OpenAPI 3.1 writes it,
// each with the examples that the documented examples and the test sends are made of.
import type { ComponentName } from './examples.ts'

export type Json = Record<string, unknown>

/** A component of /openapi.json; only one COMPONENT_EXAMPLES has an example of (so a test send can carry it). */
export const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` })
export const nullable = (schema: Json, description: string) => ({ anyOf: [schema, { type: 'null' }], description })

/** Why a payment attempt failed (the provider's code, or `invoice_overdue`, `no_payment_method`). */
export const PAYMENT_ERROR = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', examples: ['card_declined'] },
    message: { type: 'string', examples: ['Your card was declined.'] },
  },
  description: 'Why the attempt failed',
}

export const changed = (...fields: string[]) => ({
  type: 'array',
  items: { type: 'string' },
  description: 'The fields this change set',
  examples: [fields],
})

/** Files attached with the ticket or comment, whole (empty when none). */
export const UPLOADS = { type: 'array', items: ref('Upload'), description: 'The uploads attached by this change, whole' }

/** Who handles a call, before or after a transfer. */
export const HANDLER = (when: string, example: { agent_id: string | null; queue: string | null }) => ({
  type: 'object',
  description: `Who handled the call ${when} the transfer`,
  required: ['agent_id', 'queue'],
  properties: { agent_id: { type: ['string', 'null'] }, queue: { type: ['string', 'null'] } },
  examples: [example],
})

/** The mark of a test send; no real event carries it. */
export const TEST = { type: 'boolean', const: true, description: 'Present only on a test send (POST /api/v1/webhooks/{id}/test)' }

/** An object of exactly one string property: one side of an either-or. */
export const only = (name: string) => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'string' } },
  additionalProperties: false,
})
