// The MFA module's public entry: its routes under /api/v1/auth/mfa (the second step of a login: verify,
// SMS send; the caller's own enrollment of TOTP and SMS, with step-up), and what the auth module uses
// at sign-in: the challenge, the user's methods, spending a code. The re-exports come first (see
// access/index.ts).
export {
  createChallenge,
  FAILURE_WINDOW_MS,
  findLiveChallenge,
  type LiveChallenge,
  lockedForSeconds,
  MAX_CHALLENGE_ATTEMPTS,
  MAX_FAILURES_PER_WINDOW,
} from './login-challenge.ts'
export { LoginResult, MfaChallengeBody } from './model.ts'
export { normalizeRecoveryCode, RECOVERY_CODE_COUNT, useRecoveryCode } from './recovery-codes.ts'
export { createSmsSender, SmsDeliveryError, type SmsSender, smsSignature } from './sms-sender.ts'
export {
  checkStepUp,
  type PreparedStepUp,
  prepareStepUp,
  STEP_UP_METHODS,
  type StepUpInput,
  type StepUpMethod,
  type StepUpVerdict,
} from './step-up.ts'
export {
  MFA_METHODS,
  type MfaChallengesTable,
  type MfaFactorsTable,
  type MfaMethod,
  type MfaRecoveryCodesTable,
  type SmsMessagesTable,
} from './table.ts'
export { endOpenChallenges } from './store.ts'
export { MFA_CLEANUP_INTERVAL_MS, mfaCleanupTask } from './jobs.ts'
export { confirmedMethods, useTotpCode } from './user-factors.ts'
export { type CheckedMfa, checkMfaCode, invalidMfaToken, VERIFY_METHODS, type VerifyMethod } from './verify.ts'
export { sendLoginSms } from './send-login-sms.ts'

import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { errorResponses } from '../../http/problem.ts'
import { requestMeta } from '../../http/request-meta.ts'
import { deliverTokens, TokenResponse } from '../auth/index.ts'
import { confirmSmsEnrollment, removeSms, startSmsEnrollment } from './enroll-sms.ts'
import { confirmTotpEnrollment, removeTotp, startTotpEnrollment } from './enroll-totp.ts'
import {
  ConfirmBody,
  EnrolledBody,
  MfaStatusBody,
  PhoneBody,
  RemoveSmsBody,
  RemoveTotpBody,
  SendLoginSmsBody,
  SmsSentBody,
  TotpEnrollmentBody,
  VerifyBody,
} from './model.ts'
import { sendLoginSms } from './send-login-sms.ts'
import { sendStepUpSms } from './step-up.ts'
import { mfaStatus } from './status.ts'
import { verifyMfa } from './verify.ts'

const tags = ['MFA']

export function mfaRoutes(app: AppContext) {
  const meta = (c: Parameters<typeof requestMeta>[0]) => requestMeta(c, app.config.trustedProxies)
  const noStore = (set: { headers: Record<string, unknown> }) => (set.headers['cache-control'] = 'no-store')
  return new Elysia({ prefix: '/api/v1/auth/mfa' })
    .use(authMacros(app))
    .post(
      '/verify',
      async (c) => {
        noStore(c.set)
        const tokens = await verifyMfa(app, c.body, meta(c))
        return deliverTokens(app.config, c.request, c.set.headers, tokens, c.body.refresh_cookie)
      },
      {
        body: VerifyBody,
        response: {
          200: TokenResponse,
          ...errorResponses(
            'VALIDATION_FAILED',
            'TOKEN_INVALID',
            'INVALID_MFA_CODE',
            'IP_NOT_ALLOWED',
            'SESSION_LIMIT_REACHED',
            'RATE_LIMITED',
          ),
        },
        detail: {
          tags,
          operationId: 'verifyMfaLogin',
          summary: 'Complete a login with a second factor',
          description:
            "The mfa_token is single use and valid MFA_TOKEN_TTL seconds (default 5 minutes); 5 wrong codes end it, and 10 wrong codes across sign-ins within 15 minutes pause the account's MFA step (429). A TOTP code is accepted once. method `recovery` takes one of the recovery codes.",
        },
      },
    )
    .post(
      '/sms/send',
      async (c) => {
        c.set.status = 202
        return sendLoginSms(app, c.body, meta(c))
      },
      {
        body: SendLoginSmsBody,
        response: {
          202: SmsSentBody,
          ...errorResponses('VALIDATION_FAILED', 'TOKEN_INVALID', 'IP_NOT_ALLOWED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'),
        },
        detail: {
          tags,
          operationId: 'sendLoginSmsCode',
          summary: 'Text the code of a pending login',
          description: 'A new code replaces the previous one. One message per 30 seconds and 10 per hour per user.',
        },
      },
    )
    .get('', ({ ctx }) => mfaStatus(ctx), {
      session: 'mfa_enrollment',
      response: { 200: MfaStatusBody, ...protectedErrors() },
      detail: { tags, operationId: 'getMfaStatus', summary: 'Your MFA methods and recovery codes left' },
    })
    .post(
      '/totp',
      ({ ctx, set }) => {
        noStore(set)
        return startTotpEnrollment(ctx)
      },
      {
        session: 'mfa_enrollment',
        response: { 200: TotpEnrollmentBody, ...protectedErrors('CONFLICT') },
        detail: {
          tags,
          operationId: 'startTotpEnrollment',
          summary: 'Start TOTP enrollment',
          description: 'Returns a new secret; it is on once confirmed with a code.',
        },
      },
    )
    .post(
      '/totp/confirm',
      async ({ ctx, body, set }) => {
        noStore(set)
        return confirmTotpEnrollment(ctx, body)
      },
      {
        session: 'mfa_enrollment',
        body: ConfirmBody,
        response: { 200: EnrolledBody, ...protectedErrors('VALIDATION_FAILED', 'INVALID_MFA_CODE', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'confirmTotp',
          summary: 'Confirm TOTP with a code: turns it on',
          description:
            'Returns 10 recovery codes, shown once. With SMS already on, also needs `password`, `current_method` and `current_code` (step-up).',
        },
      },
    )
    .delete(
      '/totp',
      async ({ ctx, body, set }) => {
        await removeTotp(ctx, body)
        set.status = 204
      },
      {
        session: 'mfa_enrollment',
        body: RemoveTotpBody,
        response: { 204: t.Void({ description: 'TOTP is off' }), ...protectedErrors('VALIDATION_FAILED', 'INVALID_MFA_CODE', 'CONFLICT') },
        detail: { tags, operationId: 'removeTotp', summary: 'Turn TOTP off', description: 'Needs your password and a current code.' },
      },
    )
    .post(
      '/sms',
      async ({ ctx, body, set }) => {
        set.status = 202
        return startSmsEnrollment(ctx, body)
      },
      {
        session: 'mfa_enrollment',
        body: PhoneBody,
        response: { 202: SmsSentBody, ...protectedErrors('VALIDATION_FAILED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE') },
        detail: {
          tags,
          operationId: 'startSmsEnrollment',
          summary: 'Start SMS enrollment: texts a code to the number',
          description: 'The number (E.164) replaces the current one once confirmed.',
        },
      },
    )
    .post(
      '/sms/confirm',
      async ({ ctx, body, set }) => {
        noStore(set)
        return confirmSmsEnrollment(ctx, body)
      },
      {
        session: 'mfa_enrollment',
        body: ConfirmBody,
        response: { 200: EnrolledBody, ...protectedErrors('VALIDATION_FAILED', 'INVALID_MFA_CODE', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'confirmSms',
          summary: 'Confirm SMS with the code sent: turns it on',
          description:
            'Returns 10 recovery codes, shown once. 5 wrong codes end the enrollment. With MFA already on (a number change, or SMS added to TOTP), also needs `password`, `current_method` and `current_code` (step-up); a moved number is told at the old one.',
        },
      },
    )
    .post(
      '/step-up/sms',
      async ({ ctx, set }) => {
        set.status = 202
        return sendStepUpSms(ctx)
      },
      {
        session: 'mfa_enrollment',
        response: { 202: SmsSentBody, ...protectedErrors('CONFLICT', 'SERVICE_UNAVAILABLE') },
        detail: {
          tags,
          operationId: 'sendStepUpSmsCode',
          summary: 'Text a step-up code to your current number',
          description:
            'For `current_method: sms` when changing or adding a factor. Valid 5 minutes, once. One message per 30 seconds and 10 per hour per user.',
        },
      },
    )
    .delete(
      '/sms',
      async ({ ctx, body, set }) => {
        await removeSms(ctx, body)
        set.status = 204
      },
      {
        session: 'mfa_enrollment',
        body: RemoveSmsBody,
        response: { 204: t.Void({ description: 'SMS is off' }), ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
        detail: { tags, operationId: 'removeSms', summary: 'Turn SMS off', description: 'Needs your password.' },
      },
    )
}
