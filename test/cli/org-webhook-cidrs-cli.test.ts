// `org webhook-cidrs` in this process (test/helpers/cli.ts) on a real DATA_DIR: show, set, replace and clear an
// organization's allowed ranges (JSON printed, the audit record left), bad ranges and wrong usage exit 2
// naming the problem, an unknown organization exits 1, and the replaced WEBHOOK_ALLOWED_CIDRS stops a start.
import { beforeAll, describe, expect, test } from 'bun:test'
import { tempDirs } from '../helpers/app.ts'
import { withDataDirDb } from '../helpers/data-dir-db.ts'
import { runInProcess } from '../helpers/cli.ts'

const dataDir = tempDirs()
let dir: string
let org: string
let other: string

function switchboard(args: string[], env: Record<string, string> = {}) {
  return runInProcess(args, { DATA_DIR: dir, ...env })
}

async function succeeds(args: string[]): Promise<unknown> {
  const result = await switchboard(args)
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
  expect(result.stdout.trim().split('\n')).toHaveLength(1)
  return JSON.parse(result.stdout)
}

async function refused(args: string[], code: number, message: string): Promise<void> {
  const result = await switchboard(args)
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code, stdout: '' })
  expect(result.stderr).toContain(message)
}

function stored(): Promise<{ organization_id: string; cidrs: string }[]> {
  return withDataDirDb(dir, (db) => db.all('SELECT organization_id, cidrs FROM webhook_allowed_cidrs'), { readonly: true })
}

beforeAll(async () => {
  dir = dataDir()
  org = (JSON.parse((await switchboard(['org', 'create', '--name', 'Acme'])).stdout) as { id: string }).id
  other = (JSON.parse((await switchboard(['org', 'create', '--name', 'Other'])).stdout) as { id: string }).id
}, 60_000)

// In order, on one organization.
describe('org webhook-cidrs', () => {
  test('without options: the current list, empty at first', async () => {
    expect(await succeeds(['org', 'webhook-cidrs', org])).toEqual({ organization_id: org, webhook_allowed_cidrs: [] })
  }, 60_000)

  test('--set: the list as written (duplicates dropped), stored for that organization only, audited', async () => {
    expect(await succeeds(['org', 'webhook-cidrs', org, '--set', '10.0.0.0/8, fd00::/8,192.168.1.10,10.0.0.0/8'])).toEqual({
      organization_id: org,
      webhook_allowed_cidrs: ['10.0.0.0/8', 'fd00::/8', '192.168.1.10'],
    })
    expect(await stored()).toEqual([{ organization_id: org, cidrs: JSON.stringify(['10.0.0.0/8', 'fd00::/8', '192.168.1.10']) }])
    expect(await succeeds(['org', 'webhook-cidrs', other])).toEqual({ organization_id: other, webhook_allowed_cidrs: [] })
    const record = (await withDataDirDb(
      dir,
      (db) =>
        db.get<{ event: string; actor_type: string; actor_id: string; details: string }>(
          "SELECT event, actor_type, actor_id, details FROM audit_logs WHERE organization_id = ? AND event = 'organization.webhook_cidrs_changed'",
          [org],
        ),
      { readonly: true },
    ))!
    expect(record).toMatchObject({ actor_type: 'system', actor_id: 'cli' })
    expect(JSON.parse(record.details)).toEqual({ before: [], after: ['10.0.0.0/8', 'fd00::/8', '192.168.1.10'] })
  }, 60_000)

  test('--set again replaces the list; shown as set', async () => {
    expect(await succeeds(['org', 'webhook-cidrs', org, '--set', '172.16.0.0/12'])).toEqual({
      organization_id: org,
      webhook_allowed_cidrs: ['172.16.0.0/12'],
    })
    expect(await succeeds(['org', 'webhook-cidrs', org])).toEqual({ organization_id: org, webhook_allowed_cidrs: ['172.16.0.0/12'] })
  }, 60_000)

  test('bad ranges exit 2 naming them, and change nothing', async () => {
    await refused(
      ['org', 'webhook-cidrs', org, '--set', '10.0.0.0/8,intranet,10.0.0.0/33'],
      2,
      'switchboard: --set has invalid IP addresses or CIDR ranges: intranet, 10.0.0.0/33',
    )
    await refused(
      ['org', 'webhook-cidrs', org, '--set', '::ffff:10.0.0.0/8'],
      2,
      '::ffff:10.0.0.0/8 would cover every IPv4 address; write IPv4 ranges as a.b.c.d/n',
    )
    await refused(['org', 'webhook-cidrs', org, '--set', ''], 2, '--set needs at least one CIDR range')
    await refused(['org', 'webhook-cidrs', org, '--set', '10.0.0.0/8', '--clear'], 2, 'org webhook-cidrs takes --set or --clear, not both')
    await refused(['org', 'webhook-cidrs'], 2, 'org webhook-cidrs takes <org_id>')
    expect(await succeeds(['org', 'webhook-cidrs', org])).toEqual({ organization_id: org, webhook_allowed_cidrs: ['172.16.0.0/12'] })
  }, 60_000)

  test('an unknown organization exits 1', async () => {
    await refused(
      ['org', 'webhook-cidrs', 'org_00000000000000000000000000', '--set', '10.0.0.0/8'],
      1,
      'switchboard: no organization org_00000000000000000000000000',
    )
    await refused(['org', 'webhook-cidrs', 'org_00000000000000000000000000'], 1, 'no organization')
  }, 60_000)

  test('--clear: back to public addresses only', async () => {
    expect(await succeeds(['org', 'webhook-cidrs', org, '--clear'])).toEqual({ organization_id: org, webhook_allowed_cidrs: [] })
    expect(await stored()).toEqual([])
  }, 60_000)
})

describe('the replaced WEBHOOK_ALLOWED_CIDRS', () => {
  test('as a variable or a flag, it stops any command with exit 2 and one line naming the replacement', async () => {
    const line =
      'switchboard: invalid configuration: WEBHOOK_ALLOWED_CIDRS was replaced by the per-organization command `switchboard org webhook-cidrs <org_id> --set <cidrs>`; unset it\n'
    expect(await switchboard(['serve'], { WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8' })).toEqual({ code: 2, stdout: '', stderr: line })
    expect(await switchboard(['serve', '--webhook-allowed-cidrs', '127.0.0.0/8'])).toEqual({ code: 2, stdout: '', stderr: line })
  }, 60_000)
})
