// The Security screen: the organization's settings (for roles that may read them), then everyone's own
// MFA and sessions. The MFA status and the sessions are loaded here, as both parts use them.
import { api } from '../../api.ts'
import type { ScreenProps } from '../../screens.ts'
import { ErrorNote, Page, useCan, useLoad } from '../../ui.tsx'
import { MyMfa } from './my-mfa.tsx'
import { OrganizationSecurity } from './organization.tsx'
import { MySessions } from './sessions.tsx'

export function Security(_: ScreenProps) {
  const canRead = useCan('organization:read')
  const mfa = useLoad(() => api().GET('/api/v1/auth/mfa'))
  const sessions = useLoad(() => api().GET('/api/v1/auth/sessions', { params: { query: { page_size: 100 } } }))
  const current = sessions.data?.sessions.find((session) => session.current)
  const hasMfa = mfa.data ? mfa.data.totp.enabled || mfa.data.sms.enabled : undefined
  return (
    <Page title="Security" intro="Your organization's security settings, your multi-factor authentication and where you are signed in.">
      {canRead && <OrganizationSecurity currentIp={current?.ip ?? null} hasMfa={hasMfa} />}
      <section class="panel" aria-labelledby="security-mfa-title">
        <h2 id="security-mfa-title">My multi-factor authentication</h2>
        <ErrorNote error={mfa.error} />
        {mfa.data && <MyMfa status={mfa.data} reload={mfa.reload} />}
      </section>
      <section class="panel" aria-labelledby="security-sessions-title">
        <h2 id="security-sessions-title">My sessions</h2>
        <ErrorNote error={sessions.error} />
        {sessions.data && <MySessions sessions={sessions.data.sessions} reload={sessions.reload} />}
      </section>
    </Page>
  )
}
