// /openapi.json documents Idempotency-Key where it applies: one shared parameter referenced by exactly
// the POSTs that take a key, their 400 and 409 codes, and Idempotent-Replayed on the answers a retry may get.
import { afterAll, expect, test } from 'bun:test'
import { takesIdempotencyKey } from '../../src/http/idempotency.ts'
import { json, makeTestApp } from '../helpers/app.ts'

const app = await makeTestApp()
afterAll(() => app.close())

type Response = { description: string; headers?: Record<string, unknown> }
type Operation = { security?: unknown[]; parameters?: { $ref?: string }[]; responses: Record<string, Response> }
const doc = await json<{
  paths: Record<string, Record<string, Operation>>
  components: { parameters: Record<string, { name: string; in: string; required: boolean; schema: Record<string, unknown> }> }
}>(await app.request('/openapi.json'))
const REF = '#/components/parameters/IdempotencyKey'
const posts = Object.entries(doc.paths).flatMap(([path, operations]) => (operations.post ? [{ path, operation: operations.post }] : []))
const takingKeys = posts.filter(({ operation }) => operation.parameters?.some((p) => p.$ref === REF))

test('the header is one shared, optional parameter of 1 to 255 characters', () => {
  expect(doc.components.parameters.IdempotencyKey).toMatchObject({
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  })
})

test('exactly the authenticated POSTs that take a key reference it; sign-in steps and secret-minting routes do not', () => {
  for (const { path, operation } of posts) {
    const expected = (operation.security?.length ?? 0) > 0 && takesIdempotencyKey('POST', path.replace(/\{(\w+)\}/g, ':$1'))
    expect(operation.parameters?.some((p) => p.$ref === REF) ?? false, path).toBe(expected)
  }
  const paths = takingKeys.map(({ path }) => path)
  expect(paths).toContain('/api/v1/tickets')
  expect(paths).toContain('/api/v1/tickets/{id}/comments')
  for (const path of ['/api/v1/auth/login', '/api/v1/auth/mfa/totp', '/api/v1/api-keys', '/api/v1/oauth-clients/{id}/rotate-secret'])
    expect(paths).not.toContain(path)
  // No other method documents it.
  for (const operations of Object.values(doc.paths))
    for (const [method, operation] of Object.entries(operations))
      if (method !== 'post') expect(operation.parameters?.some((p) => p.$ref === REF) ?? false).toBe(false)
})

test('each of them documents 409 IDEMPOTENCY_KEY_REUSED and IDEMPOTENCY_KEY_IN_USE beside its own codes, and a 400', () => {
  for (const { path, operation } of takingKeys) {
    const conflict = operation.responses['409']!.description.split(', ')
    expect(conflict, path).toEqual(expect.arrayContaining(['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE']))
    expect(operation.responses['400']!.description.split(', '), path).toContain('VALIDATION_FAILED')
  }
  // A route with a 409 of its own keeps it.
  expect(doc.paths['/api/v1/tickets/{id}/assign']!.post!.responses['409']!.description.split(', ')).toContain('INVALID_STATE_TRANSITION')
})

test('Idempotent-Replayed is a documented header of every answer that can be replayed (not 429, not 5xx)', () => {
  for (const { path, operation } of takingKeys)
    for (const [status, response] of Object.entries(operation.responses)) {
      const replayable = Number(status) < 500 && status !== '429'
      expect(response.headers?.['Idempotent-Replayed'] !== undefined, `${path} ${status}`).toBe(replayable)
    }
})
