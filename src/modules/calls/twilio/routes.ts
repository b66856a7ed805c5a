// The HTTP layer of the Twilio integration: POST /api/v1/integrations/twilio/voice-status, the voice
// status callback Twilio calls (form-encoded, signed with X-Twilio-Signature; no token of ours). Set
// it as the StatusCallback of the organization's Twilio calls, at PUBLIC_URL: the signature covers the
// URL exactly as Twilio requested it.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { formParameters } from '../../../http/body.ts'
import { errorResponses } from '../../../http/problem.ts'
import { VOICE_STATUS_PATH } from '../settings/update-settings.ts'
import { receiveVoiceStatus } from './voice-status.ts'

/** The path and query of a request URL, as sent (not re-encoded: the signature covers them byte for byte). */
function pathAndQuery(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2))
}

export function twilioRoutes(app: AppContext) {
  return new Elysia().post(
    VOICE_STATUS_PATH,
    // The whole context, as the OAuth endpoints take it: Elysia then parses the form (formParameters).
    async (c) => {
      const { request } = c
      await receiveVoiceStatus(app, {
        url: app.config.publicUrl + pathAndQuery(request.url),
        signature: request.headers.get('x-twilio-signature'),
        params: formParameters(request) ?? new URLSearchParams(),
      })
      c.set.status = 204
    },
    {
      response: {
        204: t.Void({ description: 'Received (also for a repeated or out-of-order callback, which changes nothing)' }),
        ...errorResponses('VALIDATION_FAILED', 'INSUFFICIENT_PERMISSIONS', 'RATE_LIMITED'),
      },
      detail: {
        tags: ['Calls'],
        operationId: 'receiveTwilioVoiceStatus',
        summary: 'Twilio voice status callback',
        description:
          "Called by Twilio, not by clients: the form parameters of a call's status callback (AccountSid, CallSid, CallStatus, Direction, From, To, CallDuration), signed by Twilio with the auth token of the account connected in PATCH /api/v1/organization/calls. An unknown account or a signature that does not match is 403. The call (provider twilio, provider_call_id = CallSid) is created by its first callback and moved through the lifecycle (Twilio's queued and initiated are queued; in-progress is in_progress; no-answer is no_answer), with the events of the API. A repeated or out-of-order callback changes nothing and is answered 204 all the same.",
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', additionalProperties: { type: 'string' } },
              example: {
                AccountSid: 'AC0123456789abcdef0123456789abcdef',
                CallSid: 'CA0123456789abcdef0123456789abcdef',
                CallStatus: 'ringing',
                Direction: 'inbound',
                From: '+14155550123',
                To: '+14155550199',
              },
            },
          },
        },
      },
    },
  )
}
