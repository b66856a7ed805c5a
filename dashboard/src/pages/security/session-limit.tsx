// The session limit: how many live sessions a user may hold at once (empty: no limit), and what a sign-in
// beyond it does (end the oldest session, or be refused), as the API's max_concurrent_sessions and policy.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { formValues } from '../../sign-in.tsx'
import { ErrorNote, useAction } from '../../ui.tsx'
import type { SettingsProps } from './organization.tsx'

const POLICIES = {
  evict_oldest: 'End the oldest session',
  deny_new: 'Refuse the new sign-in',
} as const

export function SessionLimit({ settings, canUpdate, onSaved }: SettingsProps) {
  const { busy, error, run } = useAction()
  const [done, setDone] = useState('')
  async function save(event: SubmitEvent) {
    const { max, policy } = formValues(event)
    setDone('')
    const body = {
      max_concurrent_sessions: max ? Number(max) : null,
      session_limit_policy: policy as keyof typeof POLICIES,
    }
    const data = await run(() => api().PATCH('/api/v1/organization/security', { body }))
    if (!data) return
    onSaved(data)
    setDone('Session limit saved.')
  }
  const limit = settings.max_concurrent_sessions
  return (
    <div class="security-part">
      <h3>Session limit</h3>
      <p>
        {limit === null
          ? 'No limit: a user may be signed in on any number of devices.'
          : `At most ${limit} session${limit === 1 ? '' : 's'} per user. At the limit: ${POLICIES[settings.session_limit_policy].toLowerCase()}.`}
      </p>
      {canUpdate && (
        <form class="inline" onSubmit={save}>
          <label>
            Sessions per user
            <input
              name="max"
              type="number"
              min={1}
              max={1000}
              inputMode="numeric"
              defaultValue={limit === null ? '' : String(limit)}
              aria-describedby="security-limit-hint"
            />
          </label>
          <label>
            At the limit
            <select name="policy">
              {Object.entries(POLICIES).map(([value, label]) => (
                <option value={value} selected={value === settings.session_limit_policy}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy}>
            Save session limit
          </button>
        </form>
      )}
      {canUpdate && (
        <p id="security-limit-hint" class="muted">
          Leave the number empty for no limit.
        </p>
      )}
      <ErrorNote error={error} />
      <p role="status" class="ok">
        {done}
      </p>
    </div>
  )
}
