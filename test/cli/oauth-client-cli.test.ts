// `oauth-client create` in this process (test/helpers/cli.ts) on a real DATA_DIR: a confidential client printed with its secret once (its SHA-256 stored, the operator's audit record), a public one without, repeated and comma-separated options, bad URIs and grants exit 2 naming the option, an unknown organization exits 1.
import { beforeAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { tempDirs } from '../helpers/app.ts'
import { withDataDirDb } from '../helpers/data-dir-db.ts'
import { runInProcess } from '../helpers/cli.ts'

const dataDir = tempDirs()
let dir: string
let org: string

const switchboard = (args: string[]) => runInProcess(args, { DATA_DIR: dir })

async function created(args: string[]): Promise<Record<string, unknown>> {
  const result = await switchboard(['oauth-client', 'create', '--org', org, ...args])
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  expect(result.stdout.trim().split('\n')).toHaveLength(1)
  return JSON.parse(result.stdout)
}

async function refused(args: string[], code: number, message: string): Promise<void> {
  const result = await switchboard(args)
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: '' })
  expect(result.stderr).toContain(message)
}

beforeAll(async () => {
  dir = dataDir()
  org = (JSON.parse((await switchboard(['org', 'create', '--name', 'Acme'])).stdout) as { id: string }).id
}, 60_000)

describe('oauth-client create', () => {
  test('a confidential client: JSON with its secret, the SHA-256 stored, created by the operator and audited', async () => {
    const client = await created([
      '--name',
      'Dashboard',
      '--redirect-uri',
      'https://app.example.com/cb',
      '--redirect-uri',
      'http://127.0.0.1/cb',
      '--grant',
      'authorization_code,refresh_token',
      '--grant',
      'client_credentials',
      '--scope',
      'openid offline_access',
      '--scope',
      'tickets:read',
    ])
    expect(client).toMatchObject({
      name: 'Dashboard',
      client_type: 'confidential',
      redirect_uris: ['https://app.example.com/cb', 'http://127.0.0.1/cb'],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      scopes: ['openid', 'offline_access', 'tickets:read'],
      created_by: null,
    })
    const secret = client.client_secret as string
    expect(secret).toMatch(/^ocs_[A-Za-z0-9_-]{43}$/)
    const stored = await withDataDirDb(
      dir,
      async (db) => ({
        row: await db.get<{ secret_hash: string; organization_id: string }>(
          'SELECT secret_hash, organization_id FROM oauth_clients WHERE id = ?',
          [client.id as string],
        ),
        audit: await db.get<{ actor_type: string; actor_id: string; details: string }>(
          "SELECT actor_type, actor_id, details FROM audit_logs WHERE event = 'oauth_client.created' AND target_id = ?",
          [client.id as string],
        ),
      }),
      { readonly: true },
    )
    expect(stored.row).toEqual({ secret_hash: createHash('sha256').update(secret).digest('hex'), organization_id: org })
    expect(stored.audit).toMatchObject({ actor_type: 'system', actor_id: 'cli' })
    expect(stored.audit!.details).not.toContain(secret)
  }, 60_000)

  test('--public: no secret; a private-use scheme allowed; default grant and scopes', async () => {
    const client = await created(['--name', 'Mobile', '--public', '--redirect-uri', 'com.example.app:/cb'])
    expect(client).toMatchObject({
      client_type: 'public',
      client_secret: null,
      secret_hint: null,
      grant_types: ['authorization_code'],
      scopes: ['openid', 'profile', 'email'],
    })
  }, 60_000)

  test('wrong usage exits 2 naming the problem; an unknown organization exits 1', async () => {
    await refused(['oauth-client', 'create', '--name', 'X', '--redirect-uri', 'https://a.example/cb'], 2, 'needs --org')
    await refused(
      ['oauth-client', 'create', '--org', org, '--name', 'X', '--redirect-uri', 'http://a.example/cb'],
      2,
      '--redirect-uri: must use https',
    )
    await refused(
      [
        'oauth-client',
        'create',
        '--org',
        org,
        '--name',
        'X',
        '--public',
        '--redirect-uri',
        'com.example.app:/cb',
        '--grant',
        'client_credentials',
      ],
      2,
      '--grant: a public client has no secret',
    )
    await refused(
      ['oauth-client', 'create', '--org', org, '--name', 'X', '--redirect-uri', 'https://a.example/cb', '--scope', 'everything'],
      2,
      '--scope:',
    )
    await refused(
      ['oauth-client', 'create', '--org', 'org_00000000000000000000000000', '--name', 'X', '--redirect-uri', 'https://a.example/cb'],
      1,
      'no organization',
    )
  }, 60_000)
})
