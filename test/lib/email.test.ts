// The one e-mail rule (src/lib/email.ts): what it accepts, and that the configuration (ADMIN_EMAIL),
// `user create --email` and the API (POST /api/v1/users) all answer the same for every address.
import { afterAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { bootstrap } from '../../src/bootstrap.ts'
import { runCli } from '../../src/cli/index.ts'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { isEmailAddress } from '../../src/lib/email.ts'
import { json, makeTestApp } from '../helpers/app.ts'
import { ROOT } from '../helpers/root.ts'

const CASES: [string, boolean][] = [
  ['admin@switchboard.local', true],
  ['first.last+tag@example.co.uk', true],
  ["o'hara@example.com", true],
  ['UPPER@EXAMPLE.COM', true],
  ['a@b.cd', true],
  ['user@sub-domain.example', true],
  [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}`, true], // 252 characters
  [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`, false], // 255 characters
  ['plainaddress', false],
  ['@example.com', false],
  ['user@', false],
  ['user@localhost', false],
  ['user@@example.com', false],
  ['user name@example.com', false],
  ['user@exa mple.com', false],
  ['.user@example.com', false],
  ['user.@example.com', false],
  ['us..er@example.com', false],
  ['user@-example.com', false],
  ['user@example-.com', false],
  ['user@example..com', false],
  ['user@example.com.', false],
  ['üser@example.com', false],
  ['user@exämple.com', false],
  ['"quoted"@example.com', false],
  ['user@example.com\n', false],
  ['', false],
]

describe('isEmailAddress', () => {
  test.each(CASES)('%p -> %p', (address, expected) => {
    expect(isEmailAddress(address)).toBe(expected)
  })
})

const app = await makeTestApp({ ADMIN_EMAIL: 'admin@rule.test', ADMIN_PASSWORD: 'rule-test-password' })
afterAll(() => app.close())
await bootstrap(app.context)
const login = await app.request('/api/v1/auth/login', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'admin@rule.test', password: 'rule-test-password' }),
})
const token = (await json<{ access_token: string }>(login)).access_token

describe('one rule everywhere', () => {
  function configAccepts(address: string): boolean {
    try {
      loadConfig({ ADMIN_EMAIL: address, DATA_DIR: app.dataDir })
      return true
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      return false
    }
  }

  async function cliAccepts(address: string): Promise<boolean> {
    let stderr = ''
    // An organization that does not exist: an accepted address gets as far as looking it up (exit 1), a refused one stops at the usage (exit 2).
    const code = await runCli(
      ['user', 'create', '--org', 'org_none', '--email', address, '--password', 'a-good-password', '--role', 'agent'],
      {
        env: { DATA_DIR: app.dataDir, LOG_LEVEL: 'error' },
        cwd: app.dataDir,
        stdout: () => {},
        stderr: (text) => void (stderr += text),
      },
    )
    if (code === 2) expect(stderr).toContain('--email is not an e-mail address')
    return code !== 2
  }

  async function apiAccepts(address: string): Promise<boolean> {
    const response = await app.request('/api/v1/users', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: address, name: 'Rule', password: 'a-good-password', role: 'agent' }),
    })
    if (response.status !== 201)
      expect([response.status, ((await json(response)) as { code: string }).code]).toEqual([400, 'VALIDATION_FAILED'])
    return response.status === 201
  }

  // Not the empty one (an empty setting means unset, an empty flag is a missing one) nor the one with a
  // trailing newline (every setting is trimmed first): those are about reading values, not the rule.
  const comparable = CASES.filter(([address]) => address !== '' && address === address.trim())
  test.each(comparable)('%p: the configuration, the command line and the API agree with the rule (%p)', async (address, expected) => {
    expect({ config: configAccepts(address), cli: await cliAccepts(address), api: await apiAccepts(address) }).toEqual({
      config: expected,
      cli: expected,
      api: expected,
    })
  })

  test('no e-mail regex outside src/lib/email.ts', () => {
    const dir = join(ROOT, 'src')
    const copies = (readdirSync(dir, { recursive: true }) as string[])
      .filter((path) => path.endsWith('.ts'))
      .map((path) => [relative(ROOT, join(dir, path)), readFileSync(join(dir, path), 'utf8')] as const)
      .filter(([path, text]) => path !== 'src/lib/email.ts' && /\/\^[^/\n]*@[^/\n]*\$\/[a-z]*/.test(text))
      .map(([path]) => path)
    expect(copies).toEqual([])
  })
})
