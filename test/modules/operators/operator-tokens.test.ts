// Operator tokens: made (the token once, `sbo_` + 43 characters, only its SHA-256 kept), listed (never
// the token), revoked (refused from the next request; a second revoke finds nothing), last used at most
// once a minute, audited in the installation's chain; and the operator routes' answers to every kind of
// wrong credential.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { contextFor } from '../../../src/context.ts'
import { AppError } from '../../../src/errors.ts'
import { hashToken } from '../../../src/modules/auth/index.ts'
import { createOperatorToken, listOperatorTokens, revokeOperatorToken } from '../../../src/modules/operators/index.ts'
import { makeTestApp, type TestApp } from '../../helpers/app.ts'
import { expectError } from '../../helpers/errors.ts'

let app: TestApp
const cli = () => contextFor(app.context, { kind: 'system', id: 'cli' })
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const plans = (headers: Record<string, string>) => app.request('/api/v1/operator/plans', { headers })
const row = (id: string) =>
  app.context.db.raw.get<{ token_hash: string; last_used_at: number | null; revoked_at: number | null }>(
    'SELECT token_hash, last_used_at, revoked_at FROM operator_tokens WHERE id = ?',
    [id],
  )

describe('operator tokens', () => {
  test('create: the token once, its view without it; only the SHA-256 is stored', async () => {
    const { token, operator_token } = await createOperatorToken(cli(), { name: '  billing desk  ' })
    expect(token).toMatch(/^sbo_[A-Za-z0-9_-]{43}$/)
    expect(operator_token).toEqual({
      id: expect.stringMatching(/^opt_/),
      name: 'billing desk',
      created_at: new Date(app.clock.now()).toISOString(),
      last_used_at: null,
      revoked_at: null,
    })
    const stored = (await row(operator_token.id))!
    expect(stored.token_hash).toBe(hashToken(token))
    expect(JSON.stringify(await app.context.db.raw.all('SELECT * FROM operator_tokens'))).not.toContain(token)
  })

  test('a name of 1 to 100 characters', async () => {
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const error = await createOperatorToken(cli(), { name }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).code).toBe('VALIDATION_FAILED')
    }
  })

  test('list: every token, oldest first, never a token or hash', async () => {
    app.clock.advance(1000)
    await createOperatorToken(cli(), { name: 'second' })
    const listed = await listOperatorTokens(cli())
    expect(listed.map((t) => t.name)).toEqual(['billing desk', 'second'])
    for (const view of listed) expect(Object.keys(view)).toEqual(['id', 'name', 'created_at', 'last_used_at', 'revoked_at'])
  })

  test('last_used_at: set on first use, then at most once a minute', async () => {
    const { token, operator_token } = await createOperatorToken(cli(), { name: 'used' })
    const headers = { authorization: `Bearer ${token}` }
    const first = app.clock.now()
    expect((await plans(headers)).status).toBe(200)
    expect(Number((await row(operator_token.id))!.last_used_at)).toBe(first)
    app.clock.advance(59_000)
    expect((await plans(headers)).status).toBe(200)
    expect(Number((await row(operator_token.id))!.last_used_at)).toBe(first)
    app.clock.advance(2_000)
    expect((await plans(headers)).status).toBe(200)
    expect(Number((await row(operator_token.id))!.last_used_at)).toBe(app.clock.now())
    expect((await listOperatorTokens(cli())).find((t) => t.id === operator_token.id)!.last_used_at).toBe(
      new Date(app.clock.now()).toISOString(),
    )
  })

  test('revoke: refused from the next request; a second revoke, or an unknown id, finds nothing', async () => {
    const { token, operator_token } = await createOperatorToken(cli(), { name: 'leaked' })
    const headers = { authorization: `Bearer ${token}` }
    expect((await plans(headers)).status).toBe(200)
    const revoked = await revokeOperatorToken(cli(), operator_token.id)
    expect(revoked).toMatchObject({ id: operator_token.id, revoked_at: new Date(app.clock.now()).toISOString() })
    await expectError(await plans(headers), 401, 'TOKEN_INVALID')
    expect(await revokeOperatorToken(cli(), operator_token.id)).toBeUndefined()
    expect(await revokeOperatorToken(cli(), 'opt_nope')).toBeUndefined()
  })

  test('wrong credentials: none is UNAUTHENTICATED, any other TOKEN_INVALID', async () => {
    await expectError(await plans({}), 401, 'UNAUTHENTICATED')
    for (const authorization of [
      'Bearer',
      'Bearer sbo_',
      `Bearer sbo_${'a'.repeat(42)}`,
      `Bearer sbo_${'a'.repeat(43)}`,
      `Token sbo_${'a'.repeat(43)}`,
      'Bearer pat_live_x',
    ])
      await expectError(await plans({ authorization }), 401, 'TOKEN_INVALID')
  })

  test('creation and revocation are audited in the installation chain, by the CLI, never with the token', async () => {
    const rows = await app.context.db.raw.all<{ organization_id: string | null; event: string; actor_id: string; details: string }>(
      "SELECT organization_id, event, actor_id, details FROM audit_logs WHERE event LIKE 'operator_token.%' ORDER BY seq",
    )
    expect(rows.map((r) => [r.event, r.organization_id, r.actor_id, JSON.parse(r.details).name])).toEqual([
      ['operator_token.created', null, 'cli', 'billing desk'],
      ['operator_token.created', null, 'cli', 'second'],
      ['operator_token.created', null, 'cli', 'used'],
      ['operator_token.created', null, 'cli', 'leaked'],
      ['operator_token.revoked', null, 'cli', 'leaked'],
    ])
  })
})
