// Calls from providers, their settings and recordings, written at once on two instances (PostgreSQL;
// one app on SQLite): the unique provider id and Twilio account make a loser's re-run answer 409 (or find
// the call), a call's row is locked by each Twilio callback (each status reached once), the settings' row
// by a change (no change lost), a recording's by a delete (deleted once, never a spurious 409), and its
// audio reader's verdict is guarded by the status it read (a deletion is never undone).
import { describe, expect, test } from 'bun:test'
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js'
import { backgroundProcessingSettled } from '../../src/modules/calls/recordings/process-recording.ts'
import { json, makeCluster, TEST_ENGINE, WRITERS } from '../helpers/cluster.ts'
import { seedOrganization } from '../helpers/seed.ts'
import { wavFile } from '../modules/calls/calls-api.ts'
import { audited, count, eventsAbout, split, statusesOf } from './contact-centre.ts'

const SLOW_MS = 60_000
const ROUNDS = 3
const cluster = await makeCluster()
const { send, many, org, instances } = cluster
const ACCOUNT = 'AC0123456789abcdef0123456789abcdef'
const TOKEN = 'f1e2d3c4b5a697887766554433221100'
const newCall = (extra: Record<string, unknown> = {}) =>
  send('POST', '/api/v1/calls', { direction: 'inbound', from: '+14155550100', to: '+14155550199', ...extra })
const idOf = async (response: Response) => (await json<{ id: string }>(response)).id

describe(`calls from providers, settings and recordings at once (${TEST_ENGINE}, ${instances.length} instance(s))`, () => {
  test(
    'one provider call id at once: one call, the others 409',
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const responses = await many(WRITERS, () => newCall({ provider: 'twilio', provider_call_id: `CA-once-${round}` }))
        expect(count(statusesOf(responses, [201, 409]), 201)).toBe(1)
      }
    },
    SLOW_MS,
  )

  test(
    'call settings changed at once: no change lost, never an account without its token',
    async () => {
      for (let round = 0; round < 2 * ROUNDS; round++) {
        expect((await send('PATCH', '/api/v1/organization/calls', { twilio_account_sid: null, recording_retention_days: 90 })).status).toBe(
          200,
        )
        const responses = await many(WRITERS, (i) =>
          send(
            'PATCH',
            '/api/v1/organization/calls',
            i % 2 ? { recording_retention_days: 10 + i } : { twilio_account_sid: ACCOUNT, twilio_auth_token: TOKEN },
          ),
        )
        statusesOf(responses, [200])
        const settings = await json<Record<string, unknown>>(await send('GET', '/api/v1/organization/calls'))
        expect(settings).toMatchObject({ twilio_account_sid: ACCOUNT, twilio_auth_token_set: true })
        expect([11, 13, 15, 17, 19, 21, 23, 25]).toContain(settings.recording_retention_days as number)
      }
    },
    SLOW_MS,
  )

  test(
    'one Twilio account connected by two organizations at once: one has it, the other is 409',
    async () => {
      const globex = await seedOrganization(instances[0]!, 'globex')
      const other = 'AC00000000000000000000000000000001'
      const admins = [org.users.admin.auth, globex.users.admin.auth]
      const body = { twilio_account_sid: other, twilio_auth_token: TOKEN }
      const responses = await many(WRITERS, (i) => send('PATCH', '/api/v1/organization/calls', body, admins[i % 2]))
      const [acme, theirs] = split(statusesOf(responses, [200, 409]), (i) => i % 2 === 0)
      // All of one organization's are 200, all of the other's 409.
      expect([acme, theirs].map((statuses) => count(statuses, 200)).sort()).toEqual([0, WRITERS / 2])
    },
    SLOW_MS,
  )

  test(
    "Twilio's callbacks of one call at once (retries, out of order): one call, each event once",
    async () => {
      expect((await send('PATCH', '/api/v1/organization/calls', { twilio_account_sid: ACCOUNT, twilio_auth_token: TOKEN })).status).toBe(
        200,
      )
      const statuses = ['queued', 'ringing', 'in-progress', 'completed']
      for (let round = 0; round < ROUNDS; round++) {
        const sid = `CA${String(round).padStart(32, '7')}`
        const responses = await many(WRITERS, (i) => {
          const params = {
            AccountSid: ACCOUNT,
            CallSid: sid,
            CallStatus: statuses[i % 4]!,
            Direction: 'inbound',
            From: '+14155550123',
            To: '+14155550199',
          }
          const app = instances[i % instances.length]!
          const path = '/api/v1/integrations/twilio/voice-status'
          const signature = getExpectedTwilioSignature(TOKEN, `${app.config.publicUrl}${path}`, params)
          return app.request(path, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
            body: new URLSearchParams(params).toString(),
          })
        })
        statusesOf(responses, [204])
        const { calls } = await json<{ calls: { id: string; provider_call_id: string; status: string }[] }>(
          await send('GET', '/api/v1/calls?provider=twilio&page_size=100'),
        )
        const mine = calls.filter((c) => c.provider_call_id === sid)
        expect(mine.map((c) => c.status)).toEqual(['completed'])
        expect((await eventsAbout(cluster, 'call', mine[0]!.id)).sort()).toEqual(['call.answered', 'call.completed', 'call.started'])
      }
    },
    SLOW_MS,
  )

  test(
    'one recording deleted at once while its audio is read: deleted once, one audit record, never undone',
    async () => {
      const callId = await idOf(await newCall())
      // The audio's reader finishing amid the deletes is what makes a round race: many rounds.
      for (let round = 0; round < 4 * ROUNDS; round++) {
        const upload = await instances[0]!.request('/api/v1/uploads?filename=call.wav&purpose=recording', {
          method: 'POST',
          headers: { ...org.users.admin.auth, 'content-type': 'audio/wav' },
          body: wavFile(0.5),
        })
        const id = await idOf(await send('POST', `/api/v1/calls/${callId}/recordings`, { upload_id: await idOf(upload) }))
        const responses = await many(WRITERS, () => send('DELETE', `/api/v1/recordings/${id}`))
        expect(count(statusesOf(responses, [200, 409]), 200)).toBe(1)
        await Promise.all(instances.map((app) => backgroundProcessingSettled(app.context)))
        expect((await json<{ status: string }>(await send('GET', `/api/v1/recordings/${id}`))).status).toBe('deleted')
        expect(await audited(cluster, 'recording.deleted', id)).toBe(1)
      }
    },
    SLOW_MS,
  )
})
