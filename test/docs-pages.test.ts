// The documentation pages' examples run as written: each page's `sh` blocks, one after another in one
// bash with `set -euo pipefail`, against a server of its own started from source (test/helpers/docs.ts),
// with the lines a reader would see. Every page of docs/ with `sh` blocks is run here (the README's
// tour is test/docs-examples.test.ts).
import { expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { runShell, shBlocks, startDocsServer } from './helpers/docs.ts'
import { ROOT } from './helpers/root.ts'

// A server start, a few dozen requests and some `switchboard` commands, on a machine that may be busy.
const TIMEOUT_MS = 240_000

// The pages' examples use jq and openssl besides curl. Without them (the README's machine has only Node
// and npm) the examples are skipped, saying so; CI must run them: .ci/run installs both when missing.
const MISSING = ['jq', 'openssl'].filter((tool) => Bun.which(tool) === null)
const IN_CI = process.env.CI === 'true'
if (MISSING.length > 0 && !IN_CI) {
  console.warn(`docs-pages.test.ts: skipping the pages' examples: no ${MISSING.join(', ')} on PATH (apt-get install ${MISSING.join(' ')})`)
}
if (MISSING.length > 0 && IN_CI) {
  test("the examples' tools are installed (CI=true: the pages' examples must run)", () => {
    throw new Error(`no ${MISSING.join(', ')} on PATH: .ci/run installs them with apt-get`)
  })
}
const pageTest = MISSING.length > 0 ? test.skip : test

/** Runs a page's blocks against a fresh server; its stdout's lines, once it ended well and quietly. */
async function runPage(page: string): Promise<string[]> {
  const blocks = shBlocks(page)
  expect(blocks[0], `${page} starts by signing in`).toContain('/api/v1/auth/login')
  const server = await startDocsServer('switchboard-docs-')
  try {
    const run = await runShell(blocks.join('\n'), server)
    expect({ code: run.code, stderr: run.stderr, stdout: run.code === 0 ? '' : run.stdout }).toEqual({ code: 0, stderr: '', stdout: '' })
    return run.lines
  } finally {
    await server.close()
  }
}

const PAGES = [
  'docs/security.md',
  'docs/oauth.md',
  'docs/api-conventions.md',
  'docs/tickets.md',
  'docs/crm.md',
  'docs/webhooks.md',
  'docs/rate-limits.md',
  'docs/command-line.md',
  'docs/contact-centre.md',
  'docs/billing.md',
  'docs/reports.md',
]

test('every page of docs/ with `sh` blocks has its test here', () => {
  const withBlocks = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((page) => shBlocks(page).length > 0)
  expect(withBlocks.sort()).toEqual([...PAGES].sort())
})

pageTest(
  'docs/security.md: sign-in, refresh and logout, a personal access token, TOTP with a recovery code, sessions, the allowlist, the audit log and its chain verified',
  async () => {
    expect(await runPage('docs/security.md')).toEqual([
      'super_admin',
      '204',
      'TOKEN_INVALID',
      '[]',
      'INSUFFICIENT_PERMISSIONS',
      'nightly export',
      'TOKEN_INVALID',
      '10',
      '{"mfa_required":true,"mfa_methods":["totp"]}',
      '9',
      '{"current":true,"auth_methods":["pwd","mfa"]}',
      '204',
      'CONFLICT',
      '["127.0.0.1","::1","10.0.0.0/8"]',
      '[]',
      '{"from":["127.0.0.1","::1","10.0.0.0/8"],"to":[]}',
      '{"intact":true,"broken":null}',
    ])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/oauth.md: a client-credentials client reads tickets within its scope and nothing else',
  async () => {
    expect(await runPage('docs/oauth.md')).toEqual(['[]', 'INSUFFICIENT_PERMISSIONS', '{"active":true,"scope":"tickets:read"}'])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/api-conventions.md: errors, two pages of a list, an idempotent retry',
  async () => {
    expect(await runPage('docs/api-conventions.md')).toEqual([
      '["VALIDATION_FAILED","subject","priority"]',
      '["VALIDATION_FAILED","limit"]',
      'No such ticket',
      '{"subjects":["Paper jam","Toner low"],"total_count":3}',
      '{"subjects":["Printer on fire"],"next_page_token":""}',
      '4',
      '4',
      'IDEMPOTENCY_KEY_REUSED',
    ])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/tickets.md: a ticket through its statuses, a comment, an assignment, the list and the contact',
  async () => {
    expect(await runPage('docs/tickets.md')).toEqual([
      '{"number":1,"status":"new","tags":["printers","floor-3"]}',
      'open',
      'An extinguisher is on its way.',
      'true',
      'solved',
      'A solved ticket cannot become new; it can become open, closed',
      '["Printer on fire"]',
      '[1]',
    ])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/crm.md: an account and a contact, a converted lead, a CSV import and export',
  async () => {
    expect(await runPage('docs/crm.md')).toEqual([
      '{"email":"grace@acme.example","phone":"+442079460958"}',
      '["Grace Hopper"]',
      '["CONFLICT","email"]',
      'contacted',
      'qualified',
      '{"lead":"converted","contact":"Alan Turing","account":"Bletchley Park"}',
      '{"accepted_count":2,"refused":[[4,"email"]]}',
      '2',
      'Ada Lovelace',
      'Charles Babbage',
    ])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/webhooks.md: a webhook registered and sent a test event, the live stream replayed',
  async () => {
    expect(await runPage('docs/webhooks.md')).toEqual([
      '{"trigger":"test","event_type":"ticket.created","attempt":1}',
      // hooks.example.com does not resolve; where no resolver answers at all, the failure may be another.
      expect.stringMatching(/^(dns|connect|timeout)$/),
      '1',
      'event: ticket.created',
    ])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/rate-limits.md: the headers, and the login form refused after 10 attempts',
  async () => {
    expect(await runPage('docs/rate-limits.md')).toEqual([
      expect.stringMatching(/^1000 99\d$/),
      '401',
      '429',
      '{"code":429,"error":"RATE_LIMITED"}',
    ])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/command-line.md: an organization and its admin, its own rates, a new signing key, the audit chains',
  async () => {
    expect(await runPage('docs/command-line.md')).toEqual([
      '{"email":"bo@example.com","role":"admin","status":"active"}',
      'admin',
      '[]',
      '{"per_minute":120,"per_day":5000}',
      'activates_at, kid',
      expect.stringMatching(/^\d+ chains, \d+ records: all intact$/),
    ])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/contact-centre.md: an upload, a call, an agent, a routed conversation and its survey',
  async () => {
    expect(await runPage('docs/contact-centre.md')).toEqual([
      '{"status":"attached","content_type":"text/plain","on":"ticket"}',
      'The printer',
      'The printer says PC LOAD LETTER.',
      'in_progress',
      'completed',
      'INVALID_STATE_TRANSITION',
      '{"status":"available","available":true,"max_concurrent":5}',
      '{"status":"break","available":false}',
      'available',
      'active',
      '{"status":"closed","close_reason":"agent"}',
      'responded',
      '{"offered":1,"responded":1,"response_rate":100,"percent_satisfied":100}',
    ])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/billing.md: a price, a subscription and its invoice, a bank transfer the operator confirms',
  async () => {
    expect(await runPage('docs/billing.md')).toEqual([
      '["usd","month",2900]',
      '{"status":"active","collection_method":"send_invoice"}',
      '{"number":"INV-000001","status":"open","total":8700,"currency":"usd"}',
      '%PDF-',
      'succeeded',
      'paid',
    ])
  },
  TIMEOUT_MS,
)

pageTest(
  'docs/reports.md: a summary, a series by channel in a time zone, the records, CSV, live, the settings',
  async () => {
    expect(await runPage('docs/reports.md')).toEqual([
      '[{"metric":"tickets.created","value":2,"previous":0},{"metric":"tickets.solved","value":1,"previous":0}]',
      '["count","mean","p50","p90"]',
      '[{"group":"email","total":1},{"group":"web","total":1}]',
      'true',
      'metric,unit,value',
      'tickets.created,count,2',
      '{"new":1,"open":0,"pending":0,"on_hold":0}',
      'Europe/Berlin',
    ])
  },
  TIMEOUT_MS,
)
