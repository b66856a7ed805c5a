// The sign-in page: e-mail and password, for the application named at the top.
import { errorBlock, escapeHtml, hiddenFields, layout } from './html.ts'
import { PATHS } from './paths.ts'

export interface SignInView {
  clientName: string
  email: string
  error?: string
  /** The authorization request and the CSRF token. */
  hidden: ReadonlyArray<readonly [string, string]>
}

export function signInPage(view: SignInView): string {
  const described = view.error === undefined ? '' : ' aria-describedby="sign-in-error"'
  return layout(
    'Sign in',
    `<p class="muted">to continue to <strong>${escapeHtml(view.clientName)}</strong></p>
${errorBlock('sign-in-error', view.error)}
<form method="post" action="${PATHS.signIn}">
${hiddenFields(view.hidden)}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(view.email)}"${described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${described}>
<div class="actions"><button type="submit">Sign in</button></div>
</form>`,
  )
}
