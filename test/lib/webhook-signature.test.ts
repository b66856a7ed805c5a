// Webhook delivery signatures (src/lib/webhook-signature.ts): GitHub's vector, an independent verifier, and the standardwebhooks library.
import { describe, expect, test } from 'bun:test'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { deliveryHeaders, serviceSignature, standardWebhookSignature, standardWebhooksSecret } from '../../src/lib/webhook-signature.ts'

const SECRET = 's3cret-for-tests-0123'
const NON_ASCII_SECRET = 'clé-secrète-🔑-ünïcödé'
const BODY = '{"type":"contact.created","data":{"id":"ctc_1","name":"Zo\u00eb"}}'
const NON_ASCII_BODY = '{"name":"Zoë","city":"Zürich","greeting":"こんにちは","emoji":"🎉"}'
const utf8 = (text: string) => new TextEncoder().encode(text)
const nowS = () => Math.floor(Date.now() / 1000)

/** A receiver's check of X-Service-Signature written from the format alone, over raw bytes. */
function verifyServiceSignature(secret: Uint8Array, body: Uint8Array, header: string): boolean {
  if (!header.startsWith('sha256=')) return false
  const received = Buffer.from(header.slice('sha256='.length), 'hex')
  const expected = createHmac('sha256', secret).update(body).digest()
  return received.length === expected.length && timingSafeEqual(received, expected)
}

/** The same bytes with the byte at `index` changed. */
function changeByte(bytes: Uint8Array, index: number): Uint8Array {
  const copy = Uint8Array.from(bytes)
  copy[index] = copy[index]! ^ 0x01
  return copy
}

function headersFor(secret: string, body: string, timestampS: number) {
  return deliveryHeaders({
    secret,
    eventId: 'evt_01J',
    deliveryId: 'dlv_01J',
    attempt: 1,
    timestampS,
    body,
    userAgent: 'Switchboard-Webhooks/1.0',
  })
}

/** Only the three headers the Standard Webhooks verifier reads. */
function standardHeaders(headers: Record<string, string>) {
  return {
    'webhook-id': headers['webhook-id']!,
    'webhook-timestamp': headers['webhook-timestamp']!,
    'webhook-signature': headers['webhook-signature']!,
  }
}

describe('serviceSignature', () => {
  test("matches GitHub's published X-Hub-Signature-256 test vector", () => {
    expect(serviceSignature("It's a Secret to Everybody", 'Hello, World!')).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    )
  })

  test.each([
    ['an ASCII body and secret', SECRET, BODY],
    ['a non-ASCII body', SECRET, NON_ASCII_BODY],
    ['a non-ASCII secret and body', NON_ASCII_SECRET, NON_ASCII_BODY],
    ['an empty body', SECRET, ''],
  ])('an independent verifier accepts it for %s', (_, secret, body) => {
    const header = serviceSignature(secret, body)
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(verifyServiceSignature(utf8(secret), utf8(body), header)).toBe(true)
  })

  test('signs the UTF-8 bytes, not Latin-1 or UTF-16', () => {
    const header = serviceSignature(NON_ASCII_SECRET, NON_ASCII_BODY)
    expect(verifyServiceSignature(Buffer.from(NON_ASCII_SECRET, 'latin1'), utf8(NON_ASCII_BODY), header)).toBe(false)
    expect(verifyServiceSignature(utf8(NON_ASCII_SECRET), Buffer.from(NON_ASCII_BODY, 'latin1'), header)).toBe(false)
    expect(verifyServiceSignature(utf8(NON_ASCII_SECRET), Buffer.from(NON_ASCII_BODY, 'utf16le'), header)).toBe(false)
  })

  test('a one-byte change of the body fails, wherever the byte is', () => {
    const header = serviceSignature(SECRET, NON_ASCII_BODY)
    const body = utf8(NON_ASCII_BODY)
    for (const index of [0, 10, body.length - 1]) {
      expect(verifyServiceSignature(utf8(SECRET), changeByte(body, index), header)).toBe(false)
    }
  })

  test('a one-byte change of the secret fails, wherever the byte is', () => {
    const header = serviceSignature(NON_ASCII_SECRET, BODY)
    const secret = utf8(NON_ASCII_SECRET)
    for (const index of [0, 7, secret.length - 1]) {
      expect(verifyServiceSignature(changeByte(secret, index), utf8(BODY), header)).toBe(false)
    }
  })
})

describe('standardWebhooksSecret', () => {
  test('is whsec_ followed by the base64 of the UTF-8 bytes', () => {
    expect(standardWebhooksSecret('0123456789abcdef')).toBe('whsec_MDEyMzQ1Njc4OWFiY2RlZg==')
    expect(standardWebhooksSecret(NON_ASCII_SECRET)).toBe(`whsec_${Buffer.from(utf8(NON_ASCII_SECRET)).toString('base64')}`)
  })
})

describe('standardWebhookSignature', () => {
  test('is v1, then base64 HMAC-SHA256 of "id.timestamp.body" keyed with the UTF-8 secret', () => {
    const expected = createHmac('sha256', utf8(SECRET))
      .update(utf8(`evt_01J.1767268800.${BODY}`))
      .digest('base64')
    expect(standardWebhookSignature(SECRET, 'evt_01J', 1_767_268_800, BODY)).toBe(`v1,${expected}`)
  })

  test.each([
    ['ASCII', SECRET, BODY],
    ['non-ASCII', NON_ASCII_SECRET, NON_ASCII_BODY],
  ])("equals the standardwebhooks library's own sign() for a %s secret and body", (_, secret, body) => {
    const library = new Webhook(standardWebhooksSecret(secret))
    expect(standardWebhookSignature(secret, 'evt_01J', 1_767_268_800, body)).toBe(
      library.sign('evt_01J', new Date(1_767_268_800 * 1000), body),
    )
  })

  test.each([1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('refuses the timestamp %p', (timestampS) => {
    expect(() => standardWebhookSignature(SECRET, 'evt_01J', timestampS, BODY)).toThrow(RangeError)
  })
})

describe('verified by the standardwebhooks library', () => {
  test.each([
    ['an ASCII secret and body', SECRET, BODY],
    ['a non-ASCII secret and body', NON_ASCII_SECRET, NON_ASCII_BODY],
    ['a 256-character secret', 'x'.repeat(256), BODY],
  ])('new Webhook(standardWebhooksSecret(secret)).verify accepts %s', (_, secret, body) => {
    const headers = headersFor(secret, body, nowS())
    const verified = new Webhook(standardWebhooksSecret(secret)).verify(body, standardHeaders(headers))
    expect(verified).toEqual(JSON.parse(body))
  })

  test('verify accepts the full header set as sent, other headers included', () => {
    const headers = headersFor(SECRET, BODY, nowS())
    expect(new Webhook(standardWebhooksSecret(SECRET)).verify(BODY, headers)).toEqual(JSON.parse(BODY))
  })

  test('a tampered body is rejected', () => {
    const headers = standardHeaders(headersFor(SECRET, BODY, nowS()))
    const tampered = BODY.replace('ctc_1', 'ctc_2')
    const receiver = new Webhook(standardWebhooksSecret(SECRET))
    expect(() => receiver.verify(tampered, headers)).toThrow(WebhookVerificationError)
    expect(() => receiver.verify(tampered, headers)).toThrow('No matching signature found')
  })

  test('a different secret is rejected', () => {
    const headers = standardHeaders(headersFor(SECRET, BODY, nowS()))
    const receiver = new Webhook(standardWebhooksSecret(`${SECRET.slice(0, -1)}4`))
    expect(() => receiver.verify(BODY, headers)).toThrow('No matching signature found')
  })

  test('a timestamp older than the 5-minute tolerance is rejected, though correctly signed', () => {
    const headers = standardHeaders(headersFor(SECRET, BODY, nowS() - 5 * 60 - 1))
    const receiver = new Webhook(standardWebhooksSecret(SECRET))
    expect(() => receiver.verify(BODY, headers)).toThrow(WebhookVerificationError)
    expect(() => receiver.verify(BODY, headers)).toThrow('Message timestamp too old')
  })

  test("why the whsec_ form: the library's raw string format reads UTF-16 code units, not UTF-8", () => {
    const headers = standardHeaders(headersFor(NON_ASCII_SECRET, BODY, nowS()))
    expect(() => new Webhook(NON_ASCII_SECRET, { format: 'raw' }).verify(BODY, headers)).toThrow('No matching signature found')
    // Raw bytes work too; the whsec_ string is simply the portable way to hand them over.
    expect(new Webhook(utf8(NON_ASCII_SECRET), { format: 'raw' }).verify(BODY, headers)).toEqual(JSON.parse(BODY))
  })
})

describe('deliveryHeaders', () => {
  test('has exactly these lowercase names and values', () => {
    // Signatures computed outside this code, with openssl dgst -sha256 -hmac.
    expect(headersFor(SECRET, BODY, 1_767_268_800)).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Switchboard-Webhooks/1.0',
      'x-service-signature': 'sha256=bf92a5c929c51f9d33c350fe9174896bb798d6d7581a6909d7fb95c79ffd4b2f',
      'webhook-id': 'evt_01J',
      'webhook-timestamp': '1767268800',
      'webhook-signature': 'v1,sCjY1OsjgFszuucS55gCb3WNOgI3V7KWAjwBGjuJiFg=',
      'x-service-delivery-id': 'dlv_01J',
      'x-service-attempt': '1',
    })
  })

  test('webhook-id is the event id on every attempt; the delivery id and attempt vary', () => {
    const base = { secret: SECRET, eventId: 'evt_9', timestampS: 1_767_268_800, body: BODY, userAgent: 'UA' }
    const first = deliveryHeaders({ ...base, deliveryId: 'dlv_a', attempt: 1 })
    const retry = deliveryHeaders({ ...base, deliveryId: 'dlv_b', attempt: 12 })
    expect(retry['webhook-id']).toBe('evt_9')
    expect(retry['webhook-signature']).toBe(first['webhook-signature']!)
    expect([retry['x-service-delivery-id'], retry['x-service-attempt']]).toEqual(['dlv_b', '12'])
    for (const name of Object.keys(retry)) expect(name).toBe(name.toLowerCase())
  })
})
