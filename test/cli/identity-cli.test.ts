// `org create`, `user create` and `keys rotate` run in this process (test/helpers/cli.ts): JSON on stdout, exit codes, and what a server on the same DATA_DIR then does.
import { describe, expect, test } from 'bun:test'
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose'
import { tempDirs } from '../helpers/app.ts'
import { sourceCommand, startServer, type RunningServer } from '../helpers/process.ts'
import { runInProcess } from '../helpers/cli.ts'

const dataDir = tempDirs()
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const PASSWORD = 'long enough pw'
const BOOTSTRAP_PASSWORD = 'bootstrap-pw-123'

function switchboard(dir: string, args: string[], env: Record<string, string> = {}) {
  return runInProcess(args, { DATA_DIR: dir, ...env })
}

async function createOrg(dir: string, name = 'Acme'): Promise<string> {
  const result = await switchboard(dir, ['org', 'create', '--name', name])
  expect(result.code).toBe(0)
  return (JSON.parse(result.stdout) as { id: string }).id
}

async function login(server: RunningServer, email: string, password: string) {
  return fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
}

async function accessToken(server: RunningServer, email: string, password: string): Promise<string> {
  const response = await login(server, email, password)
  expect(response.status).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

async function jwks(server: RunningServer): Promise<JSONWebKeySet> {
  const response = await fetch(`${server.url}/.well-known/jwks.json`)
  expect(response.status).toBe(200)
  return (await response.json()) as JSONWebKeySet
}

async function publishedKids(server: RunningServer): Promise<string[]> {
  return (await jwks(server)).keys.map((k) => k.kid!)
}

/** A DATA_DIR holding an organization and an admin made by the CLI (so the server's first start creates nobody). */
async function dirWithAdmin(): Promise<{ dir: string; email: string; password: string }> {
  const dir = dataDir()
  const org = await createOrg(dir)
  const result = await switchboard(dir, [
    'user',
    'create',
    '--org',
    org,
    '--email',
    'keys@example.com',
    '--password',
    PASSWORD,
    '--role',
    'admin',
  ])
  expect(result.code).toBe(0)
  return { dir, email: 'keys@example.com', password: PASSWORD }
}

describe('org create', () => {
  test('prints the new organization as one JSON object and exits 0', async () => {
    const before = Date.now()
    const result = await switchboard(dataDir(), ['org', 'create', '--name', 'Acme', '--plan', 'starter'])
    expect(result.code).toBe(0)
    expect(result.stdout.endsWith('\n')).toBe(true)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    const org = JSON.parse(result.stdout)
    expect(org).toEqual({
      id: expect.stringMatching(/^org_\w+$/),
      name: 'Acme',
      plan: 'starter',
      settings: {},
      created_at: expect.stringMatching(ISO),
      updated_at: org.created_at,
    })
    expect(Date.parse(org.created_at)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(org.created_at)).toBeLessThanOrEqual(Date.now())
  }, 60_000)

  test('the plan defaults to free; each call makes a new organization', async () => {
    const dir = dataDir()
    const first = await switchboard(dir, ['org', 'create', '--name', 'Acme'])
    const second = await switchboard(dir, ['org', 'create', '--name', 'Acme'])
    expect([first.code, second.code]).toEqual([0, 0])
    expect(JSON.parse(first.stdout)).toMatchObject({ name: 'Acme', plan: 'free', settings: {} })
    expect(JSON.parse(first.stdout).id).not.toBe(JSON.parse(second.stdout).id)
  }, 60_000)

  const refusals: [string, string[], string][] = [
    ['without --name', ['org', 'create', '--plan', 'starter'], 'switchboard: org create needs --name NAME'],
    ['with a blank --name', ['org', 'create', '--name', '   '], 'switchboard: org create needs --name NAME'],
    [
      'with an unknown plan',
      ['org', 'create', '--name', 'Acme', '--plan', 'gold'],
      'switchboard: --plan must be one of: free, starter, professional, enterprise',
    ],
    [
      'with an option of another command',
      ['org', 'create', '--name', 'Acme', '--role', 'admin'],
      'switchboard: org create does not accept --role',
    ],
    ['--plan on a command that does not take it', ['migrate', '--plan', 'free'], 'switchboard: migrate does not accept --plan'],
  ]
  for (const [name, args, message] of refusals) {
    test(`${name}: a message on stderr, nothing on stdout, exit 2`, async () => {
      const result = await switchboard(dataDir(), args)
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toStartWith(message)
    }, 60_000)
  }
})

describe('user create', () => {
  test('prints the new user as JSON, e-mail lowercased, never the password or its hash', async () => {
    const dir = dataDir()
    const org = await createOrg(dir)
    const before = Date.now()
    const result = await switchboard(dir, [
      'user',
      'create',
      '--org',
      org,
      '--email',
      'Ada@Example.com',
      '--password',
      PASSWORD,
      '--role',
      'admin',
      '--name',
      'Ada',
    ])
    expect(result.code).toBe(0)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    const user = JSON.parse(result.stdout)
    expect(user).toEqual({
      id: expect.stringMatching(/^usr_\w+$/),
      organization_id: org,
      email: 'ada@example.com',
      name: 'Ada',
      role: 'admin',
      status: 'active',
      created_at: expect.stringMatching(ISO),
      updated_at: user.created_at,
    })
    expect(Date.parse(user.created_at)).toBeGreaterThanOrEqual(before)
    for (const output of [result.stdout, result.stderr]) {
      expect(output).not.toContain(PASSWORD)
      expect(output).not.toContain('$argon2')
    }
  }, 60_000)

  test('without --name the name is the local part of the e-mail', async () => {
    const dir = dataDir()
    const org = await createOrg(dir)
    const result = await switchboard(dir, [
      'user',
      'create',
      '--org',
      org,
      '--email',
      'grace.hopper@example.com',
      '--password',
      PASSWORD,
      '--role',
      'viewer',
    ])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      email: 'grace.hopper@example.com',
      name: 'grace.hopper',
      role: 'viewer',
      status: 'active',
    })
  }, 60_000)

  test('an unknown organization: exit 1, nothing created', async () => {
    const dir = dataDir()
    await createOrg(dir)
    const result = await switchboard(dir, [
      'user',
      'create',
      '--org',
      'org_doesnotexist',
      '--email',
      'ada@example.com',
      '--password',
      PASSWORD,
      '--role',
      'admin',
    ])
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe('switchboard: no organization org_doesnotexist\n')
  }, 60_000)

  test('an e-mail already taken, in any case and in any organization: exit 1, says it already exists', async () => {
    const dir = dataDir()
    const org = await createOrg(dir)
    const other = await createOrg(dir, 'Other')
    const create = (orgId: string, email: string) =>
      switchboard(dir, ['user', 'create', '--org', orgId, '--email', email, '--password', PASSWORD, '--role', 'agent'])
    expect((await create(org, 'ada@example.com')).code).toBe(0)
    for (const [orgId, email] of [
      [org, 'ada@example.com'],
      [org, 'ADA@Example.COM'],
      [other, 'Ada@example.com'],
    ] as const) {
      const again = await create(orgId, email)
      expect(again.code).toBe(1)
      expect(again.stdout).toBe('')
      expect(again.stderr).toStartWith('switchboard: ')
      expect(again.stderr).toContain('already exists')
    }
  }, 60_000)

  const base = { '--org': 'org_anything', '--email': 'ada@example.com', '--password': PASSWORD, '--role': 'admin' }
  const argsOf = (options: Record<string, string>) => ['user', 'create', ...Object.entries(options).flat()]
  const without = (key: keyof typeof base) => Object.fromEntries(Object.entries(base).filter(([k]) => k !== key))
  const refusals: [string, Record<string, string>, string][] = [
    [
      'an unknown role',
      { ...base, '--role': 'owner' },
      'switchboard: --role must be one of: super_admin, admin, supervisor, agent, viewer',
    ],
    ['a password shorter than 8 characters', { ...base, '--password': 'short12' }, 'switchboard: --password must be 8 to 256 characters'],
    [
      'a password longer than 256 characters',
      { ...base, '--password': 'x'.repeat(257) },
      'switchboard: --password must be 8 to 256 characters',
    ],
    ['an e-mail without a domain', { ...base, '--email': 'ada' }, 'switchboard: --email is not an e-mail address: ada'],
    ['an e-mail with a space', { ...base, '--email': 'ada lovelace@example.com' }, 'switchboard: --email is not an e-mail address'],
    ['no --org', without('--org'), 'switchboard: user create needs --org, --email, --password and --role'],
    ['no --email', without('--email'), 'switchboard: user create needs --org, --email, --password and --role'],
    ['no --password', without('--password'), 'switchboard: user create needs --org, --email, --password and --role'],
    ['no --role', without('--role'), 'switchboard: user create needs --org, --email, --password and --role'],
  ]
  for (const [name, options, message] of refusals) {
    test(`${name}: a message on stderr, nothing on stdout, exit 2`, async () => {
      const result = await switchboard(dataDir(), argsOf(options))
      expect(result.code).toBe(2)
      expect(result.stdout).toBe('')
      expect(result.stderr).toStartWith(message)
      if (options['--password']) expect(result.stderr).not.toContain(options['--password'])
    }, 60_000)
  }

  test('users created by the CLI, before or while the server runs, can sign in over HTTP', async () => {
    const dir = dataDir()
    const org = await createOrg(dir)
    const created = await switchboard(dir, [
      'user',
      'create',
      '--org',
      org,
      '--email',
      'Ada@Example.com',
      '--password',
      PASSWORD,
      '--role',
      'admin',
    ])
    expect(created.code).toBe(0)
    const ada = JSON.parse(created.stdout) as { id: string }
    const server = await startServer(sourceCommand(), { DATA_DIR: dir, ADMIN_PASSWORD: BOOTSTRAP_PASSWORD })
    try {
      const response = await login(server, 'ada@example.com', PASSWORD)
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({
        token_type: 'Bearer',
        user: { id: ada.id, email: 'ada@example.com', organization_id: org, role: 'admin' },
      })
      expect((await login(server, 'ada@example.com', 'not the password')).status).toBe(401)

      const late = await switchboard(dir, [
        'user',
        'create',
        '--org',
        org,
        '--email',
        'bob@example.com',
        '--password',
        PASSWORD,
        '--role',
        'supervisor',
      ])
      expect(late.code).toBe(0)
      const bob = await login(server, 'bob@example.com', PASSWORD)
      expect(bob.status).toBe(200)
      expect(((await bob.json()) as { user: { role: string } }).user.role).toBe('supervisor')
    } finally {
      expect((await server.stop()).code).toBe(0)
    }
  }, 60_000)
})

describe('keys rotate', () => {
  test('prints {kid, activates_at} with the default delay of 600 s', async () => {
    const dir = dataDir()
    const before = Date.now()
    const result = await switchboard(dir, ['keys', 'rotate'])
    const after = Date.now()
    expect(result.code).toBe(0)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    const rotated = JSON.parse(result.stdout)
    expect(rotated).toEqual({ kid: expect.stringMatching(/^[\w-]{43}$/), activates_at: expect.stringMatching(ISO) })
    const activatesAt = Date.parse(rotated.activates_at)
    expect(activatesAt).toBeGreaterThanOrEqual(before + 600_000 - 2_000)
    expect(activatesAt).toBeLessThanOrEqual(after + 600_000 + 2_000)
  }, 60_000)

  test('KEY_ACTIVATION_DELAY, from the environment or as a flag, sets activates_at', async () => {
    const dir = dataDir()
    const env = await switchboard(dir, ['keys', 'rotate'], { KEY_ACTIVATION_DELAY: '60' })
    const flag = await switchboard(dir, ['keys', 'rotate', '--key-activation-delay', '0'])
    expect([env.code, flag.code]).toEqual([0, 0])
    const [fromEnv, fromFlag] = [JSON.parse(env.stdout), JSON.parse(flag.stdout)]
    expect(fromEnv.kid).not.toBe(fromFlag.kid)
    expect(Math.abs(Date.parse(fromEnv.activates_at) - (Date.now() + 60_000))).toBeLessThan(10_000)
    expect(Math.abs(Date.parse(fromFlag.activates_at) - Date.now())).toBeLessThan(10_000)
  }, 60_000)

  test('a running server publishes the new key at once but keeps signing with the old one until it activates', async () => {
    const { dir, email, password } = await dirWithAdmin()
    const server = await startServer(sourceCommand(), { DATA_DIR: dir, ADMIN_PASSWORD: BOOTSTRAP_PASSWORD })
    try {
      const published = await publishedKids(server)
      expect(published).toHaveLength(1)
      const oldKid = published[0]!
      expect(decodeProtectedHeader(await accessToken(server, email, password))).toEqual({ alg: 'RS256', typ: 'JWT', kid: oldKid })

      const result = await switchboard(dir, ['keys', 'rotate'])
      expect(result.code).toBe(0)
      const { kid: newKid } = JSON.parse(result.stdout) as { kid: string }
      expect(newKid).not.toBe(oldKid)

      expect((await publishedKids(server)).sort()).toEqual([oldKid, newKid].sort())
      const token = await accessToken(server, email, password)
      expect(decodeProtectedHeader(token).kid).toBe(oldKid)
      const me = await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })
      expect(me.status).toBe(200)
    } finally {
      expect((await server.stop()).code).toBe(0)
    }
  }, 60_000)

  test('with KEY_ACTIVATION_DELAY=0 the next login is signed with the new key, verifiable with the published JWKS', async () => {
    const { dir, email, password } = await dirWithAdmin()
    const server = await startServer(sourceCommand(), { DATA_DIR: dir, ADMIN_PASSWORD: BOOTSTRAP_PASSWORD })
    try {
      const oldToken = await accessToken(server, email, password)
      const oldKid = decodeProtectedHeader(oldToken).kid!

      const result = await switchboard(dir, ['keys', 'rotate'], { KEY_ACTIVATION_DELAY: '0' })
      expect(result.code).toBe(0)
      const rotated = JSON.parse(result.stdout) as { kid: string; activates_at: string }
      expect(rotated.kid).not.toBe(oldKid)
      expect(Date.parse(rotated.activates_at)).toBeLessThanOrEqual(Date.now())

      const newToken = await accessToken(server, email, password)
      expect(decodeProtectedHeader(newToken)).toEqual({ alg: 'RS256', typ: 'JWT', kid: rotated.kid })
      // The old key signed a live token, so it stays published beside the new one; both tokens verify against it.
      const keySet = await jwks(server)
      expect(keySet.keys.map((k) => k.kid).sort()).toEqual([oldKid, rotated.kid].sort())
      for (const token of [oldToken, newToken]) {
        const { payload } = await jwtVerify(token, createLocalJWKSet(keySet), { algorithms: ['RS256'] })
        expect(payload).toMatchObject({ roles: ['admin'] })
      }
      // The server verifies a token signed with a key another process added, at once (no reload window).
      for (const token of [oldToken, newToken]) {
        const me = await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })
        expect(me.status).toBe(200)
      }
    } finally {
      expect((await server.stop()).code).toBe(0)
    }
  }, 60_000)
})
