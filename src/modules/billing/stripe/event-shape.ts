// The shape of a signed Stripe event, checked before anything reads it: a good signature proves who
// sent the bytes, not that they hold an event we can use. Every field webhook.ts and effects.ts read is
// here with the type they need; anything else is 400 VALIDATION_FAILED naming the field
// (`data.object.id`), never a 500. Fields we do not read are let through (Stripe adds fields).
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { validationError } from '../../../errors.ts'
import { type ValueErrorLike, valueFieldErrors } from '../../../lib/value-errors.ts'

const Id = Type.String({ minLength: 1, maxLength: 255 })
const Text = Type.String({ maxLength: 5000 })
const OrNull = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]))

/** The keys of ours that we put in Stripe's metadata and read back; Stripe keeps every value a string. */
const Metadata = OrNull(
  Type.Object({
    switchboard_organization_id: Type.Optional(Id),
    switchboard_invoice_id: Type.Optional(Id),
    switchboard_payment_id: Type.Optional(Id),
    switchboard_attempt: Type.Optional(Id),
  }),
)

const PaymentIntent = Type.Object({
  id: Id,
  metadata: Metadata,
  last_payment_error: OrNull(Type.Object({ code: OrNull(Text), decline_code: OrNull(Text), message: OrNull(Text) })),
})

const Invoice = Type.Object({
  id: Id,
  customer: OrNull(Type.Union([Id, Type.Object({ id: Id })])),
  metadata: Metadata,
})

export type StripePaymentIntent = Static<typeof PaymentIntent>
export type StripeInvoice = Static<typeof Invoice>

export const PAYMENT_INTENT_EVENTS = ['payment_intent.succeeded', 'payment_intent.payment_failed'] as const
export const INVOICE_EVENTS = ['invoice.paid', 'invoice.payment_failed', 'invoice.voided', 'invoice.marked_uncollectible'] as const

/** A checked event: one of the types we map, with its object, or another (ignored). */
export type StripeEvent =
  | { kind: 'payment_intent'; id: string; type: (typeof PAYMENT_INTENT_EVENTS)[number]; object: StripePaymentIntent }
  | { kind: 'invoice'; id: string; type: (typeof INVOICE_EVENTS)[number]; object: StripeInvoice }
  | { kind: 'other'; id: string; type: string }

const eventOf = (object: TSchema) =>
  TypeCompiler.Compile(Type.Object({ id: Id, type: Type.String({ minLength: 1, maxLength: 255 }), data: Type.Object({ object }) }))

const ANY_EVENT = eventOf(Type.Object({}))
const PAYMENT_INTENT_EVENT = eventOf(PaymentIntent)
const INVOICE_EVENT = eventOf(Invoice)

type Checker = typeof ANY_EVENT

function check(checker: Checker, value: unknown): void {
  if (checker.Check(value)) return
  throw validationError(
    valueFieldErrors([...checker.Errors(value)] as unknown as ValueErrorLike[], 'body'),
    'The signed body is not a Stripe event this endpoint can read',
  )
}

const includes = <T extends string>(list: readonly T[], type: string): type is T => (list as readonly string[]).includes(type)

/** The event as effects.ts reads it, or 400 naming the first malformed field of each kind. */
export function checkedStripeEvent(value: unknown): StripeEvent {
  check(ANY_EVENT, value)
  const event = value as { id: string; type: string; data: { object: unknown } }
  if (includes(PAYMENT_INTENT_EVENTS, event.type)) {
    check(PAYMENT_INTENT_EVENT, value)
    return { kind: 'payment_intent', id: event.id, type: event.type, object: event.data.object as StripePaymentIntent }
  }
  if (includes(INVOICE_EVENTS, event.type)) {
    check(INVOICE_EVENT, value)
    return { kind: 'invoice', id: event.id, type: event.type, object: event.data.object as StripeInvoice }
  }
  return { kind: 'other', id: event.id, type: event.type }
}
