// The second step of a sign-in: a code from the authenticator app or a text message, or a recovery code.
import { errorBlock, escapeHtml, hiddenFields, layout } from './html.ts'
import { PATHS } from './paths.ts'

export interface MfaView {
  clientName: string
  /** Which code the field expects first: the app's (totp) or the text message's (sms). */
  mode: 'totp' | 'sms'
  /** The challenge offers text messages: show the button that sends one. */
  smsOffered: boolean
  /** A text message was sent for this challenge. */
  smsSent?: boolean
  error?: string
  /** Shown above the form, e.g. "We sent a code to •••• 1234". */
  notice?: string
  /** The authorization request, the challenge and the CSRF token. */
  hidden: ReadonlyArray<readonly [string, string]>
}

export function mfaPage(view: MfaView): string {
  const described = view.error === undefined ? ' aria-describedby="code-help"' : ' aria-describedby="mfa-error code-help"'
  const prompt =
    view.mode === 'totp'
      ? 'Enter the 6-digit code from your authenticator app.'
      : view.smsSent
        ? 'Enter the 6-digit code of the text message we sent you.'
        : 'Choose "Text me a code" below to receive a 6-digit code by text message.'
  // Carried so that the page shown again (a wrong code, a refused send) still says a message was sent.
  const sent = view.smsSent ? '\n<input type="hidden" name="sms_sent" value="1">' : ''
  const sms = view.smsOffered
    ? `<form class="inline" method="post" action="${PATHS.mfaSms}">
${hiddenFields(view.hidden)}
<input type="hidden" name="method" value="${view.mode}">${sent}
<button type="submit" class="secondary">${view.smsSent ? 'Send a new text message' : view.mode === 'sms' ? 'Text me a code' : 'Text me a code instead'}</button>
</form>`
    : ''
  return layout(
    'Verify it is you',
    `<p class="muted">to continue to <strong>${escapeHtml(view.clientName)}</strong></p>
${view.notice === undefined ? '' : `<p class="notice" role="status">${escapeHtml(view.notice)}</p>`}
${errorBlock('mfa-error', view.error)}
<form method="post" action="${PATHS.mfa}">
${hiddenFields(view.hidden)}
<input type="hidden" name="method" value="${view.mode}">${sent}
<label for="code">Verification code</label>
<p id="code-help" class="muted">${prompt} Lost your device? Enter one of your recovery codes.</p>
<input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" required maxlength="40" autofocus${described}>
<div class="actions"><button type="submit">Verify</button></div>
</form>
${sms}`,
  )
}
