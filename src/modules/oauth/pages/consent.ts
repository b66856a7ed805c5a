// The consent page: which application asks, for whom, and what it may do, in words; Allow or Deny.
import { escapeHtml, hiddenFields, layout } from './html.ts'
import { PATHS } from './paths.ts'
import { scopeInWords } from './scope-words.ts'

export interface ConsentView {
  clientName: string
  userEmail: string
  scopes: readonly string[]
  /** The authorization request and the CSRF token. */
  hidden: ReadonlyArray<readonly [string, string]>
}

export function consentPage(view: ConsentView): string {
  const items = view.scopes.map((scope) => `<li>${escapeHtml(scopeInWords(scope))}</li>`).join('\n')
  return layout(
    'Allow access?',
    `<p><strong>${escapeHtml(view.clientName)}</strong> asks to access your account <strong>${escapeHtml(view.userEmail)}</strong>. It will be able to:</p>
<ul class="scopes">
${items}
</ul>
<p class="muted">You can take this back at any time in your account's connected applications.</p>
<form method="post" action="${PATHS.consent}">
${hiddenFields(view.hidden)}
<div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</div>
</form>`,
  )
}
