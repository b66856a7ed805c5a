// A fake Stripe on loopback for tests: a real HTTP server speaking the part of Stripe's REST API the app
// uses (customers, payment_methods attach, payment_intents create+confirm, refunds) with form-encoded
// bodies, Stripe's error shape and test payment methods, honouring Idempotency-Key; and signed webhooks.
import { createHmac, randomBytes } from 'node:crypto'
import Stripe from 'stripe'

type Json = Record<string, unknown>
type Card = { brand: string; last4: string; decline?: { code: string; decline_code?: string; message: string } }

/** Stripe's test payment methods (https://docs.stripe.com/testing): which succeed, which are declined and why. */
export const TEST_CARDS: Record<string, Card> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_amex: { brand: 'amex', last4: '8431' },
  pm_card_chargeDeclined: {
    brand: 'visa',
    last4: '0002',
    decline: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  },
  pm_card_insufficientFunds: {
    brand: 'visa',
    last4: '9995',
    decline: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  },
  pm_card_chargeDeclinedExpiredCard: {
    brand: 'visa',
    last4: '0069',
    decline: { code: 'expired_card', message: 'Your card has expired.' },
  },
}

export interface StripeRequest {
  method: string
  path: string
  /** The form body decoded into nested objects (`metadata[a]=b` → `{metadata: {a: 'b'}}`). */
  body: Json
  idempotencyKey: string | null
  /** The answer was the first one given to this Idempotency-Key, replayed. */
  replayed: boolean
}

type Reply = { status: number; body: Json }

export async function startStripeServer() {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`
  const requests: StripeRequest[] = []
  const customers = new Map<string, Json>()
  const paymentMethods = new Map<string, Json>()
  const paymentIntents = new Map<string, Json>()
  const refunds = new Map<string, Json>()
  const idempotent = new Map<string, { signature: string; reply: Reply }>()
  /** Requests to this path still to be answered with a 500 after being carried out (an answer lost on the way). */
  const losing = { count: 0, path: '' }

  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`
  const created = () => Math.floor(Date.now() / 1000)
  const error = (status: number, fields: Json): Reply => ({ status, body: { error: { ...fields } } })
  const missing = (what: string, value: string, param?: string) =>
    error(param ? 400 : 404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${value}'`, param })

  function paymentMethod(pmId: string): Json | undefined {
    const card = TEST_CARDS[pmId]
    if (!card) return paymentMethods.get(pmId)
    const found = paymentMethods.get(pmId)
    if (found) return found
    const made: Json = {
      id: pmId,
      object: 'payment_method',
      type: 'card',
      card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034, funding: 'credit', country: 'US' },
      customer: null,
      created: created(),
      livemode: false,
    }
    paymentMethods.set(pmId, made)
    return made
  }

  function route(method: string, path: string, body: Json): Reply {
    let m: RegExpMatchArray | null
    if (method === 'POST' && path === '/v1/customers') {
      const customer: Json = {
        id: id('cus'),
        object: 'customer',
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        created: created(),
        livemode: false,
      }
      customers.set(customer.id as string, customer)
      return { status: 200, body: customer }
    }
    if (method === 'GET' && (m = path.match(/^\/v1\/customers\/([^/]+)$/))) {
      const customer = customers.get(m[1]!)
      return customer ? { status: 200, body: customer } : missing('customer', m[1]!)
    }
    if ((m = path.match(/^\/v1\/payment_methods\/([^/]+)(\/attach)?$/))) {
      const pm = paymentMethod(m[1]!)
      if (!pm) return missing('PaymentMethod', m[1]!)
      if (method === 'GET' && !m[2]) return { status: 200, body: pm }
      if (method !== 'POST' || !m[2]) return unknown(method, path)
      const customer = String(body.customer ?? '')
      if (!customers.has(customer)) return missing('customer', customer, 'customer')
      if (pm.customer && pm.customer !== customer)
        return error(400, {
          type: 'invalid_request_error',
          code: 'payment_method_unexpected_state',
          message: 'The payment method you provided has already been attached to a customer.',
        })
      pm.customer = customer
      return { status: 200, body: pm }
    }
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(body)
    if (method === 'GET' && (m = path.match(/^\/v1\/payment_intents\/([^/]+)$/))) {
      const pi = paymentIntents.get(m[1]!)
      return pi ? { status: 200, body: pi } : missing('payment_intent', m[1]!)
    }
    if (method === 'POST' && path === '/v1/refunds') return createRefund(body)
    return unknown(method, path)
  }

  function unknown(method: string, path: string): Reply {
    return error(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` })
  }

  function createPaymentIntent(body: Json): Reply {
    const amount = Number(body.amount)
    if (!Number.isSafeInteger(amount) || amount < 1 || String(body.amount) !== String(amount))
      return error(400, {
        type: 'invalid_request_error',
        code: 'parameter_invalid_integer',
        param: 'amount',
        message: 'Invalid integer: ' + String(body.amount),
      })
    if (typeof body.currency !== 'string' || !/^[a-z]{3}$/.test(body.currency))
      return error(400, {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        param: 'currency',
        message: 'Missing required param: currency.',
      })
    const customer = body.customer === undefined ? null : String(body.customer)
    if (customer !== null && !customers.has(customer)) return missing('customer', customer, 'customer')
    const pmId = body.payment_method === undefined ? null : String(body.payment_method)
    const pm = pmId === null ? undefined : paymentMethod(pmId)
    if (pmId !== null && !pm) return missing('PaymentMethod', pmId, 'payment_method')
    if (pm?.customer && pm.customer !== customer)
      return error(400, {
        type: 'invalid_request_error',
        code: 'payment_method_unexpected_state',
        message: 'The provided PaymentMethod belongs to another customer.',
        param: 'payment_method',
      })
    const expand = Array.isArray(body.expand) ? body.expand : Object.values((body.expand as Json) ?? {})
    const pi: Json = {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: body.currency,
      customer,
      description: body.description ?? null,
      metadata: body.metadata ?? {},
      payment_method: pmId,
      status: pmId === null ? 'requires_payment_method' : 'requires_confirmation',
      last_payment_error: null,
      latest_charge: null,
      off_session: body.off_session === 'true' ? true : null,
      created: created(),
      livemode: false,
    }
    paymentIntents.set(pi.id as string, pi)
    const shown = () => ({ ...pi, payment_method: expand.includes('payment_method') && pm ? pm : pi.payment_method })
    if (body.confirm !== 'true') return { status: 200, body: shown() }
    if (!pm)
      return error(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: 'You cannot confirm this PaymentIntent because it’s missing a payment method.',
        payment_intent: shown(),
      })
    const charge = id('ch')
    pi.latest_charge = charge
    const decline = TEST_CARDS[pmId!]?.decline
    if (!decline) {
      pi.status = 'succeeded'
      pi.amount_received = amount
      return { status: 200, body: shown() }
    }
    const lastError = { type: 'card_error', charge, ...decline, payment_method: pm }
    pi.status = 'requires_payment_method'
    pi.last_payment_error = lastError
    return error(402, { ...lastError, payment_intent: shown(), request_log_url: null })
  }

  function createRefund(body: Json): Reply {
    const piId = String(body.payment_intent ?? '')
    const pi = paymentIntents.get(piId)
    if (!pi) return missing('payment_intent', piId, 'payment_intent')
    if (pi.status !== 'succeeded')
      return error(400, {
        type: 'invalid_request_error',
        code: 'charge_not_refundable',
        message: `This PaymentIntent (${piId}) does not have a successful charge to refund.`,
      })
    const reasons = ['duplicate', 'fraudulent', 'requested_by_customer']
    if (body.reason !== undefined && !reasons.includes(String(body.reason)))
      return error(400, {
        type: 'invalid_request_error',
        code: 'parameter_invalid_string',
        param: 'reason',
        message: `Invalid reason: must be one of ${reasons.join(', ')}`,
      })
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === piId && r.status !== 'failed')
      .reduce((s, r) => s + (r.amount as number), 0)
    const left = (pi.amount_received as number) - refunded
    const amount = body.amount === undefined ? left : Number(body.amount)
    if (left <= 0)
      return error(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: `Charge ${pi.latest_charge} has already been refunded.`,
      })
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > left)
      return error(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        param: 'amount',
        message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
      })
    const refund: Json = {
      id: id('re'),
      object: 'refund',
      amount,
      currency: pi.currency,
      charge: pi.latest_charge,
      payment_intent: piId,
      reason: body.reason ?? null,
      metadata: body.metadata ?? {},
      status: 'succeeded',
      created: created(),
    }
    refunds.set(refund.id as string, refund)
    return { status: 200, body: refund }
  }

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url)
      const text = await request.text()
      const body = decodeForm(request.method === 'GET' ? url.search.slice(1) : text)
      const key = request.headers.get('idempotency-key')
      const entry: StripeRequest = { method: request.method, path: url.pathname, body, idempotencyKey: key, replayed: false }
      requests.push(entry)
      const answer = (reply: Reply, headers: Record<string, string> = {}) =>
        Response.json(reply.body, { status: reply.status, headers: { 'request-id': id('req'), ...headers } })
      if (request.headers.get('authorization') !== `Bearer ${secretKey}`)
        return answer(error(401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' }))
      const signature = `${request.method} ${url.pathname} ${text}`
      if (request.method === 'POST' && key) {
        const first = idempotent.get(key)
        if (first) {
          if (first.signature !== signature)
            return answer(
              error(400, {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              }),
            )
          entry.replayed = true
          return answer(first.reply, { 'idempotent-replayed': 'true' })
        }
      }
      const reply = route(request.method, url.pathname, body)
      if (request.method === 'POST' && key && reply.status !== 401) idempotent.set(key, { signature, reply })
      if (losing.count > 0 && url.pathname === losing.path) {
        losing.count--
        return answer(error(500, { type: 'api_error', message: 'An unknown error occurred' }), { 'stripe-should-retry': 'false' })
      }
      return answer(reply)
    },
  })
  const url = `http://127.0.0.1:${server.port}`
  return {
    url,
    /** The app's settings to use this server. */
    settings: {
      PAYMENT_PROVIDER: 'stripe' as const,
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_URL: url,
    },
    /** Every request received, in order. */
    requests,
    customers,
    paymentIntents,
    refunds,
    /**
     * The next `count` requests to `path` are carried out (and remembered under their Idempotency-Key) but
     * answered with a 500 saying not to retry: an answer lost on the way, as when the caller crashed.
     */
    loseAnswers(count = 1, path = '/v1/payment_intents'): void {
      losing.count = count
      losing.path = path
    },
    close(): void {
      server.stop(true)
    },
  }
}

export type StripeServer = Awaited<ReturnType<typeof startStripeServer>>

/** `a=1&metadata[k]=v&expand[0]=x` → `{a: '1', metadata: {k: 'v'}, expand: ['x']}`. */
export function decodeForm(text: string): Json {
  const out: Json = {}
  for (const [name, value] of new URLSearchParams(text)) {
    const keys = name.split(/\[|\]\[|\]/).filter((k, i) => i === 0 || k !== '')
    let node: Json | unknown[] = out
    keys.forEach((k, i) => {
      const last = i === keys.length - 1
      const next = keys[i + 1]
      const slot = node as Record<string, unknown>
      if (last) slot[k] = value
      else {
        slot[k] ??= next !== undefined && /^\d+$/.test(next) ? [] : {}
        node = slot[k] as Json
      }
    })
  }
  return out
}

/** A Stripe event envelope (`evt_…`) around `object`. */
export function stripeEvent(type: string, object: Json, options: { id?: string; created?: number } = {}): Json {
  return {
    id: options.id ?? `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: options.created ?? Math.floor(Date.now() / 1000),
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  }
}

// Stripe's web build (the one Bun loads) signs only asynchronously; this provider lets the synchronous
// generateTestHeaderString sign with node:crypto's HMAC-SHA256, as Stripe's Node build does.
const nodeCrypto = {
  computeHMACSignature: (payload: string, secret: string) => createHmac('sha256', secret).update(payload, 'utf8').digest('hex'),
  computeHMACSignatureAsync: async (payload: string, secret: string) => createHmac('sha256', secret).update(payload, 'utf8').digest('hex'),
  computeSHA256Async: async (data: Uint8Array) => new Uint8Array(new Bun.CryptoHasher('sha256').update(data).digest()),
}

/**
 * A webhook request as Stripe sends it: the body and its `Stripe-Signature` from
 * `stripe.webhooks.generateTestHeaderString`. `at` (epoch ms, default now): the signature's time —
 * pass the app's clock; `secret` may be another to forge one.
 */
export function signedStripeEvent(payload: Json | string, secret: string, options: { at?: number } = {}) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload)
  const header = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    timestamp: Math.floor((options.at ?? Date.now()) / 1000),
    cryptoProvider: nodeCrypto as unknown as Parameters<typeof Stripe.webhooks.generateTestHeaderString>[0]['cryptoProvider'],
  })
  return { body, headers: { 'content-type': 'application/json', 'stripe-signature': header } }
}
