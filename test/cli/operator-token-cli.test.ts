// `operator-token create|list|revoke` in this process (test/helpers/cli.ts): the token printed once with its id, the list
// without it, the token accepted by a server on the same DATA_DIR for the operator routes (and nothing
// else), refused from the request after its revocation; exit codes, messages and the audit chain.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { tempDirs } from '../helpers/app.ts'
import { type RunningServer, sourceCommand, startServer } from '../helpers/process.ts'
import { runInProcess } from '../helpers/cli.ts'

const dataDir = tempDirs()
let dir: string
let server: RunningServer

function switchboard(...args: string[]) {
  return runInProcess(args, { DATA_DIR: dir })
}
async function succeeds<T>(...args: string[]): Promise<T> {
  const result = await switchboard(...args)
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  expect(result.stdout.trim().split('\n')).toHaveLength(1)
  return JSON.parse(result.stdout) as T
}
interface Created {
  id: string
  name: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
  token: string
}
const plans = (token: string) => fetch(`${server.url}/api/v1/operator/plans`, { headers: { authorization: `Bearer ${token}` } })

beforeAll(async () => {
  dir = dataDir()
  server = await startServer(sourceCommand(), { DATA_DIR: dir })
}, 60_000)
afterAll(async () => {
  expect((await server.stop()).code).toBe(0)
})

describe('operator-token', () => {
  let created: Created

  test('create prints the token once with its id, as JSON', async () => {
    created = await succeeds<Created>('operator-token', 'create', 'billing desk')
    expect(Object.keys(created)).toEqual(['id', 'name', 'created_at', 'last_used_at', 'revoked_at', 'token'])
    // Not toMatchObject with an asymmetric matcher: bun writes the matcher into the object it checks.
    expect(created.id).toMatch(/^opt_/)
    expect([created.name, created.last_used_at, created.revoked_at]).toEqual(['billing desk', null, null])
    expect(created.token).toMatch(/^sbo_[A-Za-z0-9_-]{43}$/)
  }, 60_000)

  test('the running server takes it on the operator routes, at once; it is no user credential', async () => {
    const response = await plans(created.token)
    expect(response.status).toBe(200)
    expect(((await response.json()) as { plans: unknown[] }).plans).toHaveLength(4)
    const me = await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${created.token}` } })
    expect(me.status).toBe(401)
  }, 60_000)

  test('list shows every token, its last use, never the token', async () => {
    const second = await succeeds<Created>('operator-token', 'create', 'spare')
    const result = await switchboard('operator-token', 'list')
    expect(result.code).toBe(0)
    expect(result.stdout).not.toContain(created.token)
    expect(result.stdout).not.toContain(second.token)
    const { operator_tokens } = JSON.parse(result.stdout) as { operator_tokens: Omit<Created, 'token'>[] }
    expect(operator_tokens.map((t) => [t.id, t.name, t.revoked_at])).toEqual([
      [created.id, 'billing desk', null],
      [second.id, 'spare', null],
    ])
    expect(operator_tokens[0]!.last_used_at).not.toBeNull()
  }, 60_000)

  test('revoke: printed with revoked_at; the server refuses the token from the next request; again is exit 1', async () => {
    const revoked = await succeeds<Omit<Created, 'token'>>('operator-token', 'revoke', created.id)
    expect(revoked).toMatchObject({ id: created.id, revoked_at: expect.any(String) })
    const refused = await plans(created.token)
    expect(refused.status).toBe(401)
    expect(((await refused.json()) as { code: string }).code).toBe('TOKEN_INVALID')
    expect(await switchboard('operator-token', 'revoke', created.id)).toEqual({
      code: 1,
      stdout: '',
      stderr: `switchboard: no live operator token ${created.id}\n`,
    })
  }, 60_000)

  test('usage errors: exit 2', async () => {
    expect(await switchboard('operator-token', 'create', ' ')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'switchboard: the name must be 1 to 100 characters (see switchboard --help)\n',
    })
    const missing = await switchboard('operator-token', 'create')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toStartWith('switchboard: operator-token create takes <name>')
  }, 60_000)

  test('creations and the revocation are in the installation audit chain; audit verify exits 0', async () => {
    const verify = await switchboard('audit', 'verify')
    expect(verify.code).toBe(0)
  }, 60_000)
})
