// Page tokens as pure functions (src/lib/page-token.ts): round trip, each refusal, and the query digest.
import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { decodePageToken, encodePageToken, queryDigest, type PageBinding } from '../../src/lib/page-token.ts'

const KEY = new Uint8Array(32).fill(7)
const OTHER_KEY = new Uint8Array(32).fill(8)
const NOW = 1_767_268_800 // 2026-01-01T12:00:00Z, in seconds
const LATER = NOW + 300
const BINDING: PageBinding = { organizationId: 'org_A', query: 'digest-1' }

/** A token made by hand, as the format is documented: base64url(JSON).HMAC-SHA256(body), base64url. */
function handMade(body: string, key: Uint8Array = KEY): string {
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`
}
const bodyOf = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url')
const validPayload = { v: 1, o: 'org_A', q: 'digest-1', k: [42, 'usr_1'], e: LATER }

/** The same string with the character at `index` replaced by a different base64url character. */
function changeAt(text: string, index: number): string {
  const c = text[index]!
  const replacement = c === 'A' ? 'B' : 'A'
  return text.slice(0, index) + replacement + text.slice(index + 1)
}

describe('encodePageToken / decodePageToken round trip', () => {
  test.each([
    ['a number sort value', [1_767_268_800_000, 'usr_01ABC']],
    ['a string sort value', ['Alice Smith', 'usr_01XYZ']],
    ['an empty string sort value', ['', 'usr_0']],
    ['zero', [0, 'tkt_1']],
    ['a string with dots, quotes and non-ASCII', ['a.b "c" é ✓', 'id.with.dots']],
  ] as const)('%s comes back as it went in', (_, after) => {
    const token = encodePageToken(KEY, BINDING, { after: [after[0], after[1]] }, LATER)
    expect(decodePageToken(KEY, token, BINDING, NOW)).toEqual({ after: [after[0], after[1]] })
  })

  test('the token is base64url(JSON payload) "." base64url(HMAC-SHA256 of the body)', () => {
    const token = encodePageToken(KEY, BINDING, { after: [42, 'usr_1'] }, LATER)
    const [body, mac] = token.split('.')
    expect(JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'))).toEqual(validPayload)
    expect(mac).toBe(createHmac('sha256', KEY).update(body!).digest('base64url'))
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
  })

  test('a hand-made token of the documented format is accepted', () => {
    expect(decodePageToken(KEY, handMade(bodyOf(validPayload)), BINDING, NOW)).toEqual({ after: [42, 'usr_1'] })
  })

  test('a type of sort value is kept: the number 5 and the string "5" stay apart', () => {
    const asNumber = decodePageToken(KEY, encodePageToken(KEY, BINDING, { after: [5, 'x'] }, LATER), BINDING, NOW)
    const asString = decodePageToken(KEY, encodePageToken(KEY, BINDING, { after: ['5', 'x'] }, LATER), BINDING, NOW)
    expect(asNumber).toEqual({ after: [5, 'x'] })
    expect(asString).toEqual({ after: ['5', 'x'] })
  })
})

describe('decodePageToken: malformed', () => {
  const good = encodePageToken(KEY, BINDING, { after: [1, 'a'] }, LATER)
  test.each([
    ['no dot', good.replace('.', '')],
    ['two dots', `${good}.x`],
    ['a dot inside the MAC', good.replace(/(\.[^.]{5})/, '$1.')],
    ['a leading dot (no body)', `.${good.split('.')[1]}`],
    ['an empty string', ''],
    ['only a dot', '.'],
  ])('%s', (_, token) => {
    expect(decodePageToken(KEY, token, BINDING, NOW)).toBe('malformed')
  })

  // Correctly signed bodies whose content is not a payload: the MAC holds, the shape does not.
  test.each([
    ['a body that is not base64 of JSON', '!!!not~base64***'],
    ['base64 of text that is not JSON', Buffer.from('hello, world').toString('base64url')],
    ['JSON null', bodyOf(null)],
    ['a JSON string', bodyOf('payload')],
    ['a JSON number', bodyOf(7)],
    ['a JSON array', bodyOf([1, 'o', 'q', [1, 'a'], LATER])],
    ['an empty object', bodyOf({})],
    ['version 2', bodyOf({ ...validPayload, v: 2 })],
    ['version "1" as a string', bodyOf({ ...validPayload, v: '1' })],
    ['no k', bodyOf({ ...validPayload, k: undefined })],
    ['no e', bodyOf({ ...validPayload, e: undefined })],
    ['e as a string', bodyOf({ ...validPayload, e: String(LATER) })],
    ['k a string', bodyOf({ ...validPayload, k: 'usr_1' })],
    ['k an object', bodyOf({ ...validPayload, k: { 0: 1, 1: 'a', length: 2 } })],
    ['k of one element', bodyOf({ ...validPayload, k: [42] })],
    ['k of three elements', bodyOf({ ...validPayload, k: [42, 'usr_1', 'x'] })],
    ['k with a numeric id', bodyOf({ ...validPayload, k: [42, 1] })],
    ['k with a null id', bodyOf({ ...validPayload, k: [42, null] })],
    ['k with a boolean sort value', bodyOf({ ...validPayload, k: [true, 'usr_1'] })],
    ['k with a null sort value', bodyOf({ ...validPayload, k: [null, 'usr_1'] })],
    ['k with an array sort value', bodyOf({ ...validPayload, k: [[1], 'usr_1'] })],
    ['k with an object sort value', bodyOf({ ...validPayload, k: [{ a: 1 }, 'usr_1'] })],
  ])('%s', (_, body) => {
    expect(decodePageToken(KEY, handMade(body), BINDING, NOW)).toBe('malformed')
  })
})

describe('decodePageToken: forged', () => {
  const token = encodePageToken(KEY, BINDING, { after: [42, 'usr_1'] }, LATER)
  const [body, mac] = token.split('.') as [string, string]

  test.each([0, 1, 10, body.length - 2, body.length - 1])('one character of the body changed (at %i)', (index) => {
    expect(decodePageToken(KEY, `${changeAt(body, index)}.${mac}`, BINDING, NOW)).toBe('forged')
  })

  test.each([0, 1, 20, mac.length - 1])('one character of the MAC changed (at %i)', (index) => {
    expect(decodePageToken(KEY, `${body}.${changeAt(mac, index)}`, BINDING, NOW)).toBe('forged')
  })

  test.each([
    ['the MAC cut short', `${body}.${mac.slice(0, -1)}`],
    ['an empty MAC', `${body}.`],
    ['a MAC one character longer', `${body}.${mac}A`],
  ])('%s', (_, forged) => {
    expect(decodePageToken(KEY, forged, BINDING, NOW)).toBe('forged')
  })

  test('signed with another key', () => {
    const foreign = encodePageToken(OTHER_KEY, BINDING, { after: [42, 'usr_1'] }, LATER)
    expect(decodePageToken(KEY, foreign, BINDING, NOW)).toBe('forged')
    expect(decodePageToken(OTHER_KEY, foreign, BINDING, NOW)).toEqual({ after: [42, 'usr_1'] })
  })

  test('a payload changed and re-encoded without the key (another organization, a later expiry)', () => {
    const tampered = bodyOf({ ...validPayload, o: 'org_B', e: LATER + 1_000_000 })
    expect(decodePageToken(KEY, `${tampered}.${mac}`, { ...BINDING, organizationId: 'org_B' }, NOW)).toBe('forged')
  })

  test('an unsigned body that is not a payload is forged, not malformed: the MAC is checked before the content', () => {
    expect(decodePageToken(KEY, '!!!not~base64***.AAAA', BINDING, NOW)).toBe('forged')
  })
})

describe('decodePageToken: expired', () => {
  test.each([
    ['exp equal to now', NOW, NOW],
    ['exp one second before now', NOW - 1, NOW],
    ['exp a day before now', NOW - 86_400, NOW],
  ])('%s', (_, exp, now) => {
    expect(decodePageToken(KEY, encodePageToken(KEY, BINDING, { after: [1, 'a'] }, exp), BINDING, now)).toBe('expired')
  })

  test('exp one second after now is still good', () => {
    expect(decodePageToken(KEY, encodePageToken(KEY, BINDING, { after: [1, 'a'] }, NOW + 1), BINDING, NOW)).toEqual({ after: [1, 'a'] })
  })

  test('an expired token of another organization is reported as expired', () => {
    const token = encodePageToken(KEY, BINDING, { after: [1, 'a'] }, NOW)
    expect(decodePageToken(KEY, token, { organizationId: 'org_B', query: 'other' }, NOW)).toBe('expired')
  })
})

describe('decodePageToken: bound to organization and query', () => {
  const token = encodePageToken(KEY, BINDING, { after: [1, 'a'] }, LATER)
  test.each([
    ['another organization', { organizationId: 'org_B', query: 'digest-1' }, 'other_organization'],
    ['another organization and another query', { organizationId: 'org_B', query: 'digest-2' }, 'other_organization'],
    ['the organization id in another case', { organizationId: 'ORG_A', query: 'digest-1' }, 'other_organization'],
    ['another query', { organizationId: 'org_A', query: 'digest-2' }, 'other_query'],
    ['an empty query', { organizationId: 'org_A', query: '' }, 'other_query'],
  ] as const)('%s', (_, binding, expected) => {
    expect(decodePageToken(KEY, token, binding, NOW)).toBe(expected)
  })
})

describe('queryDigest', () => {
  const base = queryDigest('users', { role: 'agent', status: 'active', q: 'al' }, 'name:asc')

  test('a short base64url string', () => {
    expect(base).toMatch(/^[A-Za-z0-9_-]{22}$/)
  })

  test.each([
    ['the same filters in another key order', () => queryDigest('users', { q: 'al', status: 'active', role: 'agent' }, 'name:asc')],
    ['another order again', () => queryDigest('users', { status: 'active', q: 'al', role: 'agent' }, 'name:asc')],
    ['an undefined filter added', () => queryDigest('users', { role: 'agent', status: 'active', q: 'al', tag: undefined }, 'name:asc')],
    [
      'several undefined filters, shuffled',
      () => queryDigest('users', { z: undefined, q: 'al', a: undefined, status: 'active', role: 'agent' }, 'name:asc'),
    ],
  ])('equal for %s', (_, digest) => {
    expect(digest()).toBe(base)
  })

  test('no filters and only undefined filters are the same query', () => {
    expect(queryDigest('users', { role: undefined, q: undefined }, 'created_at:desc')).toBe(queryDigest('users', {}, 'created_at:desc'))
  })

  test.each([
    ['another value of a filter', () => queryDigest('users', { role: 'admin', status: 'active', q: 'al' }, 'name:asc')],
    ['a filter value in another case', () => queryDigest('users', { role: 'agent', status: 'active', q: 'Al' }, 'name:asc')],
    ['a filter left out', () => queryDigest('users', { role: 'agent', status: 'active' }, 'name:asc')],
    ['a filter added', () => queryDigest('users', { role: 'agent', status: 'active', q: 'al', x: 'y' }, 'name:asc')],
    ['a filter under another name', () => queryDigest('users', { role: 'agent', state: 'active', q: 'al' }, 'name:asc')],
    ['a null filter instead of a missing one', () => queryDigest('users', { role: 'agent', status: 'active', q: null }, 'name:asc')],
    ['a number instead of the same digits as a string', () => queryDigest('users', { role: 'agent', status: 'active', q: 12 }, 'name:asc')],
    ['another sort direction', () => queryDigest('users', { role: 'agent', status: 'active', q: 'al' }, 'name:desc')],
    ['another sort field', () => queryDigest('users', { role: 'agent', status: 'active', q: 'al' }, 'email:asc')],
    ['another resource', () => queryDigest('tickets', { role: 'agent', status: 'active', q: 'al' }, 'name:asc')],
  ])('differs for %s', (_, digest) => {
    expect(digest()).not.toBe(base)
  })

  test('the number 12 and the string "12" differ', () => {
    expect(queryDigest('users', { q: 12 }, 'name:asc')).not.toBe(queryDigest('users', { q: '12' }, 'name:asc'))
  })

  test('values cannot slide from one part into another', () => {
    expect(queryDigest('users', { a: 'b' }, 'c')).not.toBe(queryDigest('users', { a: 'bc' }, ''))
    expect(queryDigest('a', {}, 'bc')).not.toBe(queryDigest('ab', {}, 'c'))
  })
})
