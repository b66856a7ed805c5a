// Sign-in invariants under concurrent writers on two instances (auth and mfa modules): the session
// limit, refresh-token rotation, a refresh racing a logout, ending a session, and the second factor
// (one mfa_token, one TOTP step, the failure window, the SMS throttle, one enrollment). Each fails on
// PostgreSQL without the mechanism its comment names; on SQLite the one writer makes them serial.
import { describe, expect, test } from 'bun:test'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'
import { PASSWORD, seedOrganization, signIn } from '../helpers/seed.ts'
import { totpAt } from '../helpers/totp.ts'

const SLOW_MS = 60_000
const cluster = await makeCluster()
const { instances, send, many } = cluster
const db = instances[0]!.context.db
const none = {}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const statuses = (responses: Response[]) => responses.map((r) => r.status)
const count = (list: number[], status: number) => list.filter((s) => s === status).length
/** Every instance's clock moves together (each has its own fake clock). */
const advance = (ms: number) => {
  for (const app of instances) app.clock.advance(ms)
}
const now = () => instances[0]!.clock.now()

const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid
/** Until every instance holds these sessions' revocations in memory (another instance's come through Redis). */
async function heard(sids: string[]) {
  const all = () => instances.every((app) => sids.every((sid) => app.context.ports.revocations.isSessionRevoked(sid)))
  for (const deadline = Date.now() + 20_000; !all(); await Bun.sleep(10))
    if (Date.now() > deadline) throw new Error('an instance never heard of a logout')
}

let phones = 0
/** A number no other test texts. */
const newPhone = () => `+1500555${String(++phones).padStart(4, '0')}`
/** The code of the one text sent to `phone`, by whichever instance (the `log` SMS provider). */
function smsCodeTo(phone: string): string {
  const texts = instances.flatMap((app) => app.logs.records().filter((r) => r.msg === 'sms (SMS_PROVIDER=log)' && r.to === phone))
  expect(texts).toHaveLength(1)
  return /\b(\d{6})\b/.exec(String(texts[0]!.text))![1]!
}

const cheapHash = Bun.password.hash(PASSWORD, { algorithm: 'argon2id', memoryCost: 8, timeCost: 1 })
/**
 * The user's password hashed at the lowest cost: at argon2's production cost the checks before the
 * transactions end one after the other and space those out; racing transactions must overlap.
 */
const cheapen = async (userId: string) => {
  const hash = await cheapHash
  await db.write('test.cheap_hash', (tx) => tx.raw.run('UPDATE users SET password_hash = ? WHERE id = ?', [hash, userId]))
}

let orgs = 0
/** A new organization: users nobody else touches (their sessions, MFA state and failure window). */
const freshOrg = () => seedOrganization(instances[0]!, `auth${++orgs}`)
const login = (email: string) => send('POST', '/api/v1/auth/login', { email, password: PASSWORD }, none)
const liveSignIns = async (userId: string) =>
  Number(
    (await db.raw.get<{ n: number }>(
      "SELECT count(*) AS n FROM sessions WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ? AND kind <> 'oauth'",
      [userId, now()],
    ))!.n,
  )

/** A user with TOTP on (through the API); its secret. */
async function totpUser() {
  const { users } = await freshOrg()
  const start = await send('POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth)
  const { secret } = await json<{ secret: string }>(start)
  const confirm = await send('POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, now()) }, users.agent.auth)
  const { recovery_codes } = await json<{ recovery_codes: string[] }>(confirm)
  // The next TOTP step: the enrollment spent the current one.
  advance(30_000)
  return { user: users.agent.user, auth: users.agent.auth, secret, recoveryCodes: recovery_codes }
}

/** `n` sign-ins of the user waiting for their second factor: their mfa_tokens. */
const challenges = async (email: string, n: number) =>
  Promise.all(Array.from({ length: n }, async () => (await json<{ mfa_token: string }>(await login(email))).mfa_token))
const verify = (mfa_token: string, code: string, method: string) =>
  send('POST', '/api/v1/auth/mfa/verify', { mfa_token, code, method }, none)

describe(`sign-ins at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  for (const policy of ['deny_new', 'evict_oldest'] as const)
    test(
      `the session limit (${policy}): ${WRITERS} logins at once (three users) never leave more than the limit live`,
      async () => {
        const seeded = await Promise.all([freshOrg(), freshOrg(), freshOrg()])
        // The logins' password checks end together, so their transactions overlap.
        for (const { users } of seeded) await cheapen(users.agent.user.id)
        const limit = { max_concurrent_sessions: 3, session_limit_policy: policy }
        for (const { users } of seeded)
          expect((await send('PATCH', '/api/v1/organization/security', limit, users.admin.auth)).status).toBe(200)
        const answered = await Promise.all(
          seeded.map(async ({ users }) => statuses(await many(WRITERS, () => login(users.agent.user.email)))),
        )
        // The seeded sign-in holds one of the three places.
        for (const list of answered)
          if (policy === 'deny_new') expect([count(list, 200), count(list, 403)]).toEqual([2, WRITERS - 2])
          else expect(count(list, 200)).toBe(WRITERS)
        for (const { users } of seeded) expect(await liveSignIns(users.agent.user.id)).toBe(3)
      },
      SLOW_MS,
    )

  test(
    `one refresh token sent ${WRITERS} times at once: exactly one succeeds, the rest are reuse`,
    async () => {
      const { users } = await freshOrg()
      const { refreshToken } = await signIn(instances[0]!, users.agent.user)
      const responses = await many(WRITERS, () => send('POST', '/api/v1/auth/refresh', { refresh_token: refreshToken }, none))
      expect([count(statuses(responses), 200), count(statuses(responses), 401)]).toEqual([1, WRITERS - 1])
      // The replays came after the winner: its family is revoked, its new token too.
      const winner = await json<{ refresh_token: string }>(responses.find((r) => r.status === 200)!)
      expect((await send('POST', '/api/v1/auth/refresh', { refresh_token: winner.refresh_token }, none)).status).toBe(401)
    },
    SLOW_MS,
  )

  test(
    `${WRITERS} refreshes each racing its session's logout: every access token they issued is refused once the old one expired`,
    async () => {
      const { users } = await freshOrg()
      const sessions = await Promise.all(Array.from({ length: WRITERS }, () => signIn(instances[0]!, users.agent.user)))
      // New access tokens outlive the sessions' first ones by a minute.
      advance(60_000)
      const refreshes = sessions.map((s) => send('POST', '/api/v1/auth/refresh', { refresh_token: s.refreshToken }, none))
      const logouts = sessions.map((s) => send('POST', '/api/v1/auth/logout', undefined, s.auth))
      const ended = statuses(await Promise.all(logouts))
      const issued = await Promise.all(refreshes)
      for (const status of statuses(issued)) expect([200, 401]).toContain(status)
      const tokens = await Promise.all(
        issued.filter((r) => r.status === 200).map(async (r) => (await json<{ access_token: string }>(r)).access_token),
      )
      // Every instance hears of every logout (through Redis on PostgreSQL), then, past the first tokens'
      // expiry, forgets what it remembered only until then.
      const sids = sessions.map((s) => sidOf(s.accessToken))
      await heard(sids)
      advance(instances[0]!.config.accessTokenTtlS * 1000 - 30_000)
      for (const app of instances) app.context.ports.revocations.prune(app.clock.now())
      const me = await Promise.all(tokens.map((token) => send('GET', '/api/v1/me', undefined, bearer(token))))
      expect({ ended, me: statuses(me) }).toEqual({ ended: sessions.map(() => 204), me: tokens.map(() => 401) })
    },
    SLOW_MS,
  )

  test(
    `one session ended by ${WRITERS} requests at once: one 204, the rest 404`,
    async () => {
      const { users } = await freshOrg()
      const { accessToken } = await signIn(instances[0]!, users.agent.user)
      const sid = sidOf(accessToken)
      const answered = statuses(await many(WRITERS, () => send('DELETE', `/api/v1/auth/sessions/${sid}`, undefined, users.admin.auth)))
      expect([count(answered, 204), count(answered, 404)]).toEqual([1, WRITERS - 1])
    },
    SLOW_MS,
  )
})

describe(`second factors at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    `one mfa_token answered by ${WRITERS} different recovery codes at once: one session, one code spent`,
    async () => {
      const { user, auth, recoveryCodes } = await totpUser()
      const [token] = await challenges(user.email, 1)
      const answered = statuses(await many(WRITERS, (i) => verify(token!, recoveryCodes[i % recoveryCodes.length]!, 'recovery')))
      expect([count(answered, 200), count(answered, 401)]).toEqual([1, WRITERS - 1])
      const status = await json<{ recovery_codes_remaining: number }>(await send('GET', '/api/v1/auth/mfa', undefined, auth))
      expect(status.recovery_codes_remaining).toBe(recoveryCodes.length - 1)
    },
    SLOW_MS,
  )

  for (const method of ['totp', 'recovery'] as const)
    test(
      `one ${method} code in ${WRITERS} sign-ins at once: one succeeds; of the rest, 10 count as wrong and then the user is locked out`,
      async () => {
        const { user, secret, recoveryCodes } = await totpUser()
        const tokens = await challenges(user.email, WRITERS)
        const code = method === 'totp' ? totpAt(secret, now()) : recoveryCodes[0]!
        const answered = statuses(await Promise.all(tokens.map((token) => verify(token, code, method))))
        expect([count(answered, 200), count(answered, 401), count(answered, 429)]).toEqual([1, 10, WRITERS - 11])
      },
      SLOW_MS,
    )

  test(
    `the sign-in that enrolls TOTP confirmed by ${WRITERS} requests at once: one set of recovery codes, the one that works`,
    async () => {
      const { users } = await freshOrg()
      const { secret } = await json<{ secret: string }>(await send('POST', '/api/v1/auth/mfa/totp', undefined, users.agent.auth))
      const code = totpAt(secret, now())
      const responses = await many(WRITERS, () => send('POST', '/api/v1/auth/mfa/totp/confirm', { code }, users.agent.auth))
      expect([count(statuses(responses), 200), count(statuses(responses), 409)]).toEqual([1, WRITERS - 1])
      const { recovery_codes } = await json<{ recovery_codes: string[] }>(responses.find((r) => r.status === 200)!)
      const [token] = await challenges(users.agent.user.email, 1)
      expect((await verify(token!, recovery_codes[0]!, 'recovery')).status).toBe(200)
    },
    SLOW_MS,
  )

  test(
    `an SMS enrollment answered by ${WRITERS} wrong codes at once: five count, the fifth ends it`,
    async () => {
      const { users } = await freshOrg()
      const phone = newPhone()
      expect((await send('POST', '/api/v1/auth/mfa/sms', { phone }, users.agent.auth)).status).toBe(202)
      const wrong = String((Number(smsCodeTo(phone)) + 1) % 1_000_000).padStart(6, '0')
      const confirm = () => send('POST', '/api/v1/auth/mfa/sms/confirm', { code: wrong }, users.agent.auth)
      const answered = statuses(await many(WRITERS, confirm))
      expect([count(answered, 401), count(answered, 409)]).toEqual([5, WRITERS - 5])
    },
    SLOW_MS,
  )

  test(
    `both factors of ${WRITERS / 2} users removed at once (${WRITERS} requests): the recovery codes go with the last`,
    async () => {
      /** A user with SMS and then TOTP on; the TOTP code to remove it with (a step later). */
      const bothFactors = async () => {
        const { users } = await freshOrg()
        const { auth } = users.agent
        const phone = newPhone()
        expect((await send('POST', '/api/v1/auth/mfa/sms', { phone }, auth)).status).toBe(202)
        const sms = await send('POST', '/api/v1/auth/mfa/sms/confirm', { code: smsCodeTo(phone) }, auth)
        const [recovery] = (await json<{ recovery_codes: string[] }>(sms)).recovery_codes
        const { secret } = await json<{ secret: string }>(await send('POST', '/api/v1/auth/mfa/totp', undefined, auth))
        const stepUp = { password: PASSWORD, current_method: 'recovery', current_code: recovery }
        expect((await send('POST', '/api/v1/auth/mfa/totp/confirm', { code: totpAt(secret, now()), ...stepUp }, auth)).status).toBe(200)
        // The removals' password checks end together, so their transactions overlap.
        await cheapen(users.agent.user.id)
        return { auth, secret }
      }
      const holders = await Promise.all(Array.from({ length: WRITERS / 2 }, bothFactors))
      advance(30_000)
      const removals = holders.flatMap(({ auth, secret }) => [
        send('DELETE', '/api/v1/auth/mfa/sms', { password: PASSWORD }, auth),
        send('DELETE', '/api/v1/auth/mfa/totp', { password: PASSWORD, code: totpAt(secret, now()) }, auth),
      ])
      expect(statuses(await Promise.all(removals))).toEqual(removals.map(() => 204))
      for (const { auth } of holders) {
        const status = await json<{ recovery_codes_remaining: number }>(await send('GET', '/api/v1/auth/mfa', undefined, auth))
        expect(status.recovery_codes_remaining).toBe(0)
      }
    },
    SLOW_MS,
  )

  test(
    `${WRITERS} SMS enrollments started at once: one text is sent, the throttle refuses the rest`,
    async () => {
      const { users } = await freshOrg()
      const answered = statuses(await many(WRITERS, () => send('POST', '/api/v1/auth/mfa/sms', { phone: newPhone() }, users.agent.auth)))
      expect([count(answered, 202), count(answered, 429)]).toEqual([1, WRITERS - 1])
    },
    SLOW_MS,
  )
})
