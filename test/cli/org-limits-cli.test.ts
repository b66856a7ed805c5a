// `org set-plan` and `org set-limits` in this process (test/helpers/cli.ts) on a real DATA_DIR: the JSON printed, exit codes and messages, set-limits values dropped or kept by a plan change, and the audit records they leave (the chain still verifies).
import { beforeAll, describe, expect, test } from 'bun:test'
import { tempDirs } from '../helpers/app.ts'
import { withDataDirDb } from '../helpers/data-dir-db.ts'
import { runInProcess } from '../helpers/cli.ts'

const dataDir = tempDirs()
let dir: string
let org: string

function switchboard(...args: string[]) {
  return runInProcess(args, { DATA_DIR: dir })
}

interface AuditRow {
  event: string
  actor_type: string
  actor_id: string | null
  outcome: string
  target_type: string | null
  target_id: string | null
  details: string
}

function auditRows(): Promise<AuditRow[]> {
  return withDataDirDb(
    dir,
    (db) =>
      db.all<AuditRow>(
        'SELECT event, actor_type, actor_id, outcome, target_type, target_id, details FROM audit_logs WHERE organization_id = ? ORDER BY seq',
        [org],
      ),
    { readonly: true },
  )
}

function view(plan: string, perMinute: number | null, perDay: number | null, effective: [number, number]) {
  return {
    organization_id: org,
    plan,
    rate_limit_per_minute: perMinute,
    rate_limit_per_day: perDay,
    effective: { per_minute: effective[0], per_day: effective[1] },
  }
}

/** Exit 0, nothing but the given notice on stderr, one JSON line on stdout; returns it parsed. */
async function succeeds(args: string[], stderr = ''): Promise<unknown> {
  const result = await switchboard(...args)
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr })
  expect(result.stdout.endsWith('\n')).toBe(true)
  expect(result.stdout.trim().split('\n')).toHaveLength(1)
  return JSON.parse(result.stdout)
}

const ENTERPRISE_NOTICE =
  "switchboard: the organization has no rates of its own; set them with org set-limits (until then it gets the enterprise plan's: 1000 a minute, 100000 a day)\n"

beforeAll(async () => {
  dir = dataDir()
  const created = await switchboard('org', 'create', '--name', 'Acme')
  expect(created.code).toBe(0)
  org = (JSON.parse(created.stdout) as { id: string }).id
}, 60_000)

// The tests below run in order on one organization; each states the state it starts from.
describe('org set-plan and org set-limits', () => {
  test('set-plan starter: the organization with its rates as JSON, keys in order, exit 0', async () => {
    const printed = await succeeds(['org', 'set-plan', org, 'starter'])
    expect(printed).toEqual(view('starter', null, null, [300, 10_000]))
    expect(Object.keys(printed as object)).toEqual(['organization_id', 'plan', 'rate_limit_per_minute', 'rate_limit_per_day', 'effective'])
  }, 60_000)

  test("set-plan enterprise without values of its own: the enterprise plan's rates (as seeded), and a notice saying so", async () => {
    expect(await succeeds(['org', 'set-plan', org, 'enterprise'], ENTERPRISE_NOTICE)).toEqual(
      view('enterprise', null, null, [1_000, 100_000]),
    )
  }, 60_000)

  test('set-limits with both values', async () => {
    expect(await succeeds(['org', 'set-limits', org, '--per-minute', '5000', '--per-day', '2000000'])).toEqual(
      view('enterprise', 5_000, 2_000_000, [5_000, 2_000_000]),
    )
  }, 60_000)

  test('set-limits with one value keeps the other', async () => {
    expect(await succeeds(['org', 'set-limits', org, '--per-day', '3000000'])).toEqual(
      view('enterprise', 5_000, 3_000_000, [5_000, 3_000_000]),
    )
  }, 60_000)

  test('set-plan enterprise again keeps the set-limits values, with no notice', async () => {
    expect(await succeeds(['org', 'set-plan', org, 'enterprise'])).toEqual(view('enterprise', 5_000, 3_000_000, [5_000, 3_000_000]))
  }, 60_000)

  test('set-plan to another plan drops the set-limits values, and says so on stderr', async () => {
    const dropped = "switchboard: the rates set by org set-limits were dropped; the professional plan's apply\n"
    expect(await succeeds(['org', 'set-plan', org, 'professional'], dropped)).toEqual(view('professional', null, null, [1_000, 100_000]))
  }, 60_000)

  test("set-limits --clear returns to the plan's rates; the largest values are accepted; one value alone leaves the other to the plan", async () => {
    expect(await succeeds(['org', 'set-limits', org, '--per-minute', '1000000', '--per-day', '100000000'])).toEqual(
      view('professional', 1_000_000, 100_000_000, [1_000_000, 100_000_000]),
    )
    expect(await succeeds(['org', 'set-limits', org, '--clear'])).toEqual(view('professional', null, null, [1_000, 100_000]))
    expect(await succeeds(['org', 'set-limits', org, '--per-minute=1'])).toEqual(view('professional', 1, null, [1, 100_000]))
  }, 60_000)

  // [case, arguments after `org`, exact stderr line]
  const refusals: [string, string[], string][] = [
    [
      'an unknown plan',
      ['set-plan', '<org>', 'platinum'],
      'switchboard: the plan must be one of: free, starter, professional, enterprise (see switchboard --help)\n',
    ],
    [
      '--per-minute 0',
      ['set-limits', '<org>', '--per-minute', '0'],
      'switchboard: --per-minute must be a whole number from 1 to 1000000 (see switchboard --help)\n',
    ],
    [
      '--per-minute=-1',
      ['set-limits', '<org>', '--per-minute=-1'],
      'switchboard: --per-minute must be a whole number from 1 to 1000000 (see switchboard --help)\n',
    ],
    [
      '--per-day 1.5',
      ['set-limits', '<org>', '--per-day', '1.5'],
      'switchboard: --per-day must be a whole number from 1 to 100000000 (see switchboard --help)\n',
    ],
    [
      '--per-minute abc',
      ['set-limits', '<org>', '--per-minute', 'abc', '--per-day', '10'],
      'switchboard: --per-minute must be a whole number from 1 to 1000000 (see switchboard --help)\n',
    ],
    [
      '--per-minute above the max',
      ['set-limits', '<org>', '--per-minute', '1000001'],
      'switchboard: --per-minute must be a whole number from 1 to 1000000 (see switchboard --help)\n',
    ],
    [
      '--per-day above the max',
      ['set-limits', '<org>', '--per-minute', '10', '--per-day', '100000001'],
      'switchboard: --per-day must be a whole number from 1 to 100000000 (see switchboard --help)\n',
    ],
    [
      '--clear with a value',
      ['set-limits', '<org>', '--clear', '--per-day', '10'],
      'switchboard: org set-limits takes --clear or values, not both (see switchboard --help)\n',
    ],
    [
      'no option',
      ['set-limits', '<org>'],
      'switchboard: org set-limits needs --per-minute N, --per-day N or --clear (see switchboard --help)\n',
    ],
  ]

  test.each(refusals)(
    '%s: exit 2, the reason on stderr, nothing changed',
    async (_, args, stderr) => {
      const before = (await auditRows()).length
      const result = await switchboard('org', ...args.map((a) => (a === '<org>' ? org : a)))
      expect(result).toEqual({ code: 2, stdout: '', stderr })
      expect(await auditRows()).toHaveLength(before)
    },
    30_000,
  )

  test('an unknown organization: exit 1, for both commands', async () => {
    const plan = await switchboard('org', 'set-plan', 'org_nope', 'free')
    expect(plan).toEqual({ code: 1, stdout: '', stderr: 'switchboard: no organization org_nope\n' })
    const limits = await switchboard('org', 'set-limits', 'org_nope', '--per-minute', '10')
    expect(limits).toEqual({ code: 1, stdout: '', stderr: 'switchboard: no organization org_nope\n' })
  }, 60_000)

  test('each change is in the audit log, by the CLI, with the effective rates before and after; audit verify exits 0', async () => {
    const rates = (plan: string, perMinute: number, perDay: number) => ({ plan, per_minute: perMinute, per_day: perDay })
    const expected: [string, object, object][] = [
      ['organization.plan_changed', rates('free', 60, 1_000), rates('starter', 300, 10_000)],
      ['organization.plan_changed', rates('starter', 300, 10_000), rates('enterprise', 1_000, 100_000)],
      ['organization.rate_limits_changed', rates('enterprise', 1_000, 100_000), rates('enterprise', 5_000, 2_000_000)],
      ['organization.rate_limits_changed', rates('enterprise', 5_000, 2_000_000), rates('enterprise', 5_000, 3_000_000)],
      ['organization.plan_changed', rates('enterprise', 5_000, 3_000_000), rates('enterprise', 5_000, 3_000_000)],
      ['organization.plan_changed', rates('enterprise', 5_000, 3_000_000), rates('professional', 1_000, 100_000)],
      ['organization.rate_limits_changed', rates('professional', 1_000, 100_000), rates('professional', 1_000_000, 100_000_000)],
      ['organization.rate_limits_changed', rates('professional', 1_000_000, 100_000_000), rates('professional', 1_000, 100_000)],
      ['organization.rate_limits_changed', rates('professional', 1_000, 100_000), rates('professional', 1, 100_000)],
    ]
    expect(await auditRows()).toEqual(
      expected.map(([event, before, after]) => ({
        event,
        actor_type: 'system',
        actor_id: 'cli',
        outcome: 'success',
        target_type: 'organization',
        target_id: org,
        details: JSON.stringify({ before, after }),
      })),
    )
    const verify = await switchboard('audit', 'verify')
    expect(verify.code).toBe(0)
    expect(verify.stdout).toContain(`${org}: 9 records, intact`)
  }, 60_000)
})
