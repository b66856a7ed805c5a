// One user of the list with the controls the signed-in role may use on them: change the role, disable
// (after a confirmation) or enable. None on the organization's only active Super Admin, whom the API protects.
import { useContext, useEffect, useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, ReloadMeContext, useAction, When } from '../../ui.tsx'
import { Confirm, outcome } from '../api-keys/confirm.tsx'
import { ROLE_LABELS, type Role, type UserItem } from './roles.ts'

export interface RowRights {
  /** user:update and role:assign, and the user's role within the signed-in one's. */
  changeRole: boolean
  /** user:delete (disable) and user:update (enable), within the signed-in role. */
  disable: boolean
  enable: boolean
  /** Whether the list has an Actions column (any of the status controls for any user). */
  actions: boolean
  /** The roles the signed-in user may hand out. */
  roles: Role[]
}

export function UserRow(props: {
  user: UserItem
  self: boolean
  only: boolean
  rights: RowRights
  onChanged: (user: UserItem) => void
  onRefused: () => void
}) {
  const { user, self, only, rights } = props
  const [role, setRole] = useState<Role>(user.role)
  useEffect(() => setRole(user.role), [user.role])
  const [confirming, setConfirming] = useState(false)
  const roleChange = useAction()
  const status = useAction()
  const reloadMe = useContext(ReloadMeContext)
  const name = self ? `${user.name} (you)` : user.name
  async function changeRole(event: SubmitEvent) {
    event.preventDefault()
    const changed = await roleChange.run(() => api().PATCH('/api/v1/users/{id}', { params: { path: { id: user.id } }, body: { role } }))
    // A refusal may come from a change made elsewhere (the other Super Admin demoted): see the list as it is now.
    if (changed) props.onChanged(changed)
    else props.onRefused()
    // My own role changed: what the screens offer follows the new permissions at once.
    if (changed && self) reloadMe()
  }
  async function disable() {
    if (!(await status.run(() => outcome(api().DELETE('/api/v1/users/{id}', { params: { path: { id: user.id } } })))))
      return props.onRefused()
    setConfirming(false)
    props.onChanged({ ...user, status: 'disabled' })
  }
  async function enable() {
    const changed = await status.run(() =>
      api().PATCH('/api/v1/users/{id}', { params: { path: { id: user.id } }, body: { status: 'active' } }),
    )
    if (changed) props.onChanged(changed)
  }
  const offered = rights.roles.includes(user.role) ? rights.roles : [user.role, ...rights.roles]
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{user.email}</td>
      <td>
        {rights.changeRole && !only ? (
          <form class="users-role" onSubmit={changeRole}>
            <select aria-label={`Role of ${user.name}`} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {offered.map((r) => (
                <option value={r}>{ROLE_LABELS[r]}</option>
              ))}
            </select>
            <button type="submit" class="secondary" disabled={roleChange.busy || role === user.role}>
              Change role
            </button>
          </form>
        ) : (
          ROLE_LABELS[user.role]
        )}
        {only && <p class="muted users-hint">The only active Super Admin: cannot be demoted or disabled.</p>}
        <ErrorNote error={roleChange.error} />
      </td>
      <td>{user.status === 'active' ? 'Active' : <strong class="warn">Disabled</strong>}</td>
      <td>
        <When at={user.created_at} />
      </td>
      {rights.actions && (
        <td>
          {user.status === 'active' && rights.disable && !only && !self && (
            <button type="button" class="secondary" aria-label={`Disable ${user.name}`} onClick={() => setConfirming(true)}>
              Disable
            </button>
          )}
          {user.status === 'disabled' && rights.enable && (
            <button type="button" class="secondary" aria-label={`Enable ${user.name}`} disabled={status.busy} onClick={enable}>
              Enable
            </button>
          )}
          {!confirming && <ErrorNote error={status.error} />}
          {confirming && (
            <Confirm
              title={`Disable ${user.name}?`}
              action="Disable"
              busy={status.busy}
              error={status.error}
              onConfirm={disable}
              onCancel={() => {
                status.setError(undefined)
                setConfirming(false)
              }}
            >
              <p>Their sessions and API keys stop working at once. They are kept, with their history, and can be enabled again.</p>
            </Confirm>
          )}
        </td>
      )}
    </tr>
  )
}
