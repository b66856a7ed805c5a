// `plan list` and `plan set` on a real DATA_DIR (in this process; with a server, as a real process): the JSON printed, prices replaced
// and per-organization Enterprise prices, exit codes and messages of every refusal, and a running
// server on the same DATA_DIR applying a plan's new rates on the very next request.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { tempDirs } from '../helpers/app.ts'
import { runInProcess } from '../helpers/cli.ts'
import { run, type RunningServer, sourceCommand, startServer } from '../helpers/process.ts'

const dataDir = tempDirs()
let dir: string
let acme: string

interface Price {
  id: string
  plan: string
  organization_id: string | null
  currency: string
  interval: string
  unit_amount: number
  active: boolean
}
interface Plan {
  id: string
  name: string
  rate_limit_per_minute: number
  rate_limit_per_day: number
  prices: Price[]
}

/** The command line in this process (test/helpers/cli.ts); the server below still runs `plan set` as a real process. */
const switchboard = (...args: string[]) => runInProcess(args, { DATA_DIR: dir }, dir)

/** Exit 0, nothing on stderr, one JSON line on stdout; returns it parsed. */
async function succeeds<T>(...args: string[]): Promise<T> {
  const result = await switchboard(...args)
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  expect(result.stdout.trim().split('\n')).toHaveLength(1)
  return JSON.parse(result.stdout) as T
}
const amounts = (plan: Plan) => plan.prices.map((p) => [p.currency, p.interval, p.unit_amount, p.organization_id])

beforeAll(async () => {
  dir = dataDir()
  const created = await switchboard('org', 'create', '--name', 'Acme', '--plan', 'professional')
  expect(created.code).toBe(0)
  acme = (JSON.parse(created.stdout) as { id: string }).id
}, 60_000)

// The tests run in order on one DATA_DIR; each states what it starts from.
describe('plan list and plan set', () => {
  test('plan list: the four plans with the seeded rates and no prices', async () => {
    const { plans } = await succeeds<{ plans: Plan[] }>('plan', 'list')
    expect(plans.map((p) => [p.id, p.name, p.rate_limit_per_minute, p.rate_limit_per_day, p.prices.length])).toEqual([
      ['free', 'Free', 60, 1_000, 0],
      ['starter', 'Starter', 300, 10_000, 0],
      ['professional', 'Professional', 1_000, 100_000, 0],
      ['enterprise', 'Enterprise', 1_000, 100_000, 0],
    ])
  }, 60_000)

  test('plan set: name, rates and repeated --price; prints the plan', async () => {
    const plan = await succeeds<Plan>(
      'plan',
      'set',
      'starter',
      '--name',
      'Starter Plus',
      '--per-minute',
      '400',
      '--per-day',
      '20000',
      '--price',
      'usd:month:2900',
      '--price',
      'USD:year:29000',
    )
    expect(plan).toMatchObject({ id: 'starter', name: 'Starter Plus', rate_limit_per_minute: 400, rate_limit_per_day: 20_000 })
    expect(amounts(plan)).toEqual([
      ['usd', 'month', 2900, null],
      ['usd', 'year', 29_000, null],
    ])
  }, 60_000)

  test('a new --price replaces the active one of its currency and interval; plan list shows it', async () => {
    const plan = await succeeds<Plan>('plan', 'set', 'starter', '--price', 'usd:month:3900')
    expect(amounts(plan)).toEqual([
      ['usd', 'year', 29_000, null],
      ['usd', 'month', 3900, null],
    ])
    const { plans } = await succeeds<{ plans: Plan[] }>('plan', 'list')
    expect(plans.find((p) => p.id === 'starter')).toEqual(plan)
  }, 60_000)

  test('--org: Enterprise prices of that organization only', async () => {
    await succeeds('plan', 'set', 'enterprise', '--price', 'usd:month:50000')
    const plan = await succeeds<Plan>(
      'plan',
      'set',
      'enterprise',
      '--org',
      acme,
      '--price',
      'usd:month:40000',
      '--price',
      'eur:year:400000',
    )
    expect(amounts(plan)).toEqual([
      ['usd', 'month', 50_000, null],
      ['usd', 'month', 40_000, acme],
      ['eur', 'year', 400_000, acme],
    ])
  }, 60_000)

  // [case, arguments after `plan`, exact stderr]
  const refusals: [string, string[], string][] = [
    ['an unknown plan', ['set', 'platinum', '--name', 'P'], 'the plan must be one of: free, starter, professional, enterprise'],
    ['nothing to change', ['set', 'starter'], 'plan set needs --name, --per-minute, --per-day or --price'],
    [
      'a price without its amount',
      ['set', 'starter', '--price', 'usd:month'],
      '--price takes CURRENCY:INTERVAL:AMOUNT in minor units, e.g. usd:month:2900 (INTERVAL: month or year)',
    ],
    ['an unknown currency', ['set', 'starter', '--price', 'xyz:month:100'], '--price xyz:month:100: xyz is not an ISO 4217 currency code'],
    ['an unknown interval', ['set', 'starter', '--price', 'usd:week:100'], '--price usd:week:100: the interval must be month or year'],
    [
      'a decimal amount',
      ['set', 'starter', '--price', 'usd:month:29.00'],
      '--price usd:month:29.00: the amount must be a whole number of minor units from 0 to 999999999999',
    ],
    [
      'a negative amount',
      ['set', 'starter', '--price=usd:month:-1'],
      '--price usd:month:-1: the amount must be a whole number of minor units from 0 to 999999999999',
    ],
    [
      'two prices of one currency and interval',
      ['set', 'starter', '--price', 'usd:month:1', '--price', 'USD:month:2'],
      '--price: a second price in usd per month',
    ],
    ['a price for free', ['set', 'free', '--price', 'usd:month:100'], 'the free plan has no prices'],
    ['--per-minute 0', ['set', 'starter', '--per-minute', '0'], '--per-minute must be a whole number from 1 to 1000000'],
    ['--per-day too high', ['set', 'starter', '--per-day', '100000001'], '--per-day must be a whole number from 1 to 100000000'],
    ['an empty name', ['set', 'starter', '--name', ' '], '--name must be 1 to 100 characters'],
    [
      '--org for another plan',
      ['set', 'starter', '--org', '<acme>', '--price', 'usd:month:1'],
      '--org gives an organization Enterprise prices of its own: the plan must be enterprise',
    ],
    [
      '--org with rates',
      ['set', 'enterprise', '--org', '<acme>', '--per-minute', '10', '--price', 'usd:month:1'],
      "--org takes only --price (an organization's own rates: org set-limits)",
    ],
    ['--org without a price', ['set', 'enterprise', '--org', '<acme>'], 'plan set --org needs --price CUR:INTERVAL:AMOUNT'],
  ]
  test.each(refusals)(
    '%s: exit 2, the reason on stderr, nothing changed',
    async (_, args, message) => {
      const before = await succeeds<unknown>('plan', 'list')
      const result = await switchboard('plan', ...args.map((a) => (a === '<acme>' ? acme : a)))
      expect(result).toEqual({ code: 2, stdout: '', stderr: `switchboard: ${message} (see switchboard --help)\n` })
      expect(await succeeds<unknown>('plan', 'list')).toEqual(before)
    },
    30_000,
  )

  test('an unknown organization: exit 1', async () => {
    expect(await switchboard('plan', 'set', 'enterprise', '--org', 'org_nope', '--price', 'usd:month:1')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'switchboard: no organization org_nope\n',
    })
  }, 60_000)

  test("each change is audited as the CLI's; audit verify exits 0", async () => {
    const verify = await switchboard('audit', 'verify')
    expect(verify.code).toBe(0)
  }, 60_000)
})

describe('with a server running on the same DATA_DIR', () => {
  let server: RunningServer
  let token: string
  beforeAll(async () => {
    const user = await switchboard(
      'user',
      'create',
      '--org',
      acme,
      '--email',
      'ops@acme.test',
      '--password',
      'long enough pw',
      '--role',
      'agent',
    )
    expect(user.code).toBe(0)
    server = await startServer(sourceCommand(), { DATA_DIR: dir, RATE_LIMITS_ENABLED: 'true' })
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@acme.test', password: 'long enough pw' }),
    })
    expect(login.status).toBe(200)
    token = ((await login.json()) as { access_token: string }).access_token
  }, 60_000)
  afterAll(async () => {
    expect((await server.stop()).code).toBe(0)
  })

  const limit = async () => {
    const response = await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } })
    expect(response.status).toBe(200)
    return response.headers.get('x-ratelimit-limit')
  }

  test("plan set --per-minute: the server applies the plan's new rate on the very next request", async () => {
    expect(await limit()).toBe('1000')
    // As an operator types it: another process beside the server.
    const changed = await run(sourceCommand('plan', 'set', 'professional', '--per-minute', '700'), { DATA_DIR: dir })
    expect(changed.code).toBe(0)
    expect(await limit()).toBe('700')
    await succeeds('plan', 'set', 'professional', '--per-minute', '1000')
    expect(await limit()).toBe('1000')
  }, 60_000)
})
