// The organization's security settings (GET/PATCH /api/v1/organization/security): the MFA requirement, the
// IP allowlist and the session limit. Shown to roles with organization:read; changed with organization:update.
import { useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { ErrorNote, useCan, useLoad } from '../../ui.tsx'
import { Allowlist } from './allowlist.tsx'
import { MfaRequirement } from './mfa-requirement.tsx'
import { SessionLimit } from './session-limit.tsx'

export type Settings = Schemas['OrganizationSecurity']

/** What each part gets: the settings as saved, whether they may be changed, and a way to report a save. */
export interface SettingsProps {
  settings: Settings
  canUpdate: boolean
  onSaved: (settings: Settings) => void
}

export function OrganizationSecurity({ currentIp, hasMfa }: { currentIp: string | null; hasMfa: boolean | undefined }) {
  const canUpdate = useCan('organization:update')
  const loaded = useLoad(() => api().GET('/api/v1/organization/security'))
  const [saved, setSaved] = useState<Settings | undefined>()
  const settings = saved ?? loaded.data
  return (
    <section class="panel" aria-labelledby="security-org-title">
      <h2 id="security-org-title">Organization security</h2>
      <ErrorNote error={loaded.error} />
      {settings && (
        <>
          <MfaRequirement settings={settings} canUpdate={canUpdate} onSaved={setSaved} hasMfa={hasMfa} />
          <Allowlist settings={settings} canUpdate={canUpdate} onSaved={setSaved} currentIp={currentIp} />
          <SessionLimit settings={settings} canUpdate={canUpdate} onSaved={setSaved} />
        </>
      )}
    </section>
  )
}
