// Every route of the app's own /openapi.json, with a Super Admin's token (the operator's on the operator
// routes), on an organization that has one record of every kind: valid and mutated requests (ids of every
// kind, missing and junk in the path; bodies from the documented examples, then with wrong types, nulls,
// huge numbers, long and deep values; bad query parameters). No answer may be a 5xx. Deterministic: a
// seeded PRNG picks the mutations; FUZZ_SEED, FUZZ_BUDGET (requests per operation; 100000 sends them all)
// and FUZZ_ROLE (another role's token) explore further. Issue 27.
import { afterAll, expect, test } from 'bun:test'
import type { Role } from '../../src/modules/access/index.ts'
import { json, makeTestApp } from '../helpers/app.ts'
import { TEST_ENGINE } from '../helpers/engine.ts'
import { signIn } from '../helpers/seed.ts'
import { prng } from './fuzz/mutations.ts'
import { seedEveryKind } from './fuzz/records.ts'
import { type Document, type FuzzRequest, requestsOf } from './fuzz/requests.ts'

const SEED = Number(process.env.FUZZ_SEED ?? 27)
const BUDGET = Number(process.env.FUZZ_BUDGET ?? 12)
const ROLE = (process.env.FUZZ_ROLE ?? 'super_admin') as Role

const app = await makeTestApp()
afterAll(() => app.close())
const { acme, operator, ids, surveyToken } = await seedEveryKind(app)
Object.assign(ids, { survey_token: surveyToken, plan: 'starter' })
const doc = await json<Document>(await app.request('/openapi.json'))

/**
 * When an operation runs: most first; deletes after them (they remove what the others use); then the
 * ones that may end the fuzzer's own session or change its factors; the organization's security last
 * (an allowlist or required MFA locks every later request out).
 */
function phase(method: string, path: string): number {
  if (path === '/api/v1/organization/security') return 3
  if (/^\/api\/v1\/auth\/(logout|password|sessions|mfa)/.test(path)) return 2
  return method === 'delete' ? 1 : 0
}
const operations = Object.entries(doc.paths)
  .flatMap(([path, byMethod]) =>
    Object.keys(byMethod).map((method) => ({ method, path, secured: (byMethod[method]!.security ?? []).length > 0 })),
  )
  .sort((a, b) => phase(a.method, a.path) - phase(b.method, b.path))

function shown(request: FuzzRequest): string {
  const body =
    typeof request.body === 'string'
      ? ` ${request.body.length > 300 ? `${request.body.slice(0, 300)}… (${request.body.length})` : request.body}`
      : ''
  return `${request.method.toUpperCase()} ${request.path.length > 300 ? `${request.path.slice(0, 300)}…` : request.path}${body}`
}

test(`no route answers 5xx (${TEST_ENGINE}, ${ROLE}, seed ${SEED}, ${BUDGET} mutations per operation)`, async () => {
  const random = prng(SEED)
  let root = acme.users[ROLE]
  const failures: string[] = []
  let sent = 0
  for (const { method, path, secured } of operations) {
    for (const request of requestsOf(doc, method, path, ids, random, BUDGET)) {
      const credential = !secured ? {} : path.startsWith('/api/v1/operator/') ? operator : root.auth
      const headers = { ...credential, ...(request.type ? { 'content-type': request.type } : {}) }
      const response = await app.request(request.path, { method: request.method.toUpperCase(), headers, body: request.body })
      sent++
      let text = ''
      // The event stream never ends by itself.
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) await response.body?.cancel()
      else text = await response.text()
      if (response.status >= 500) failures.push(`${response.status} ${shown(request)} -> ${text.slice(0, 300)}`)
    }
    // The operation may have ended the fuzzer's session (a logout, a password change): sign in again.
    if ((await app.request('/api/v1/me', { headers: root.auth })).status === 401) root = await signIn(app, root.user)
  }
  console.log(`fuzz: ${sent} requests over ${operations.length} operations, ${failures.length} answered 5xx`)
  expect(failures).toEqual([])
}, 300_000)
