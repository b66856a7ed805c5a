// The form that creates a user of the organization: name, e-mail, a first password and one of the roles
// the signed-in user may hand out.
import { api } from '../../api.ts'
import { formValues } from '../../sign-in.tsx'
import { ErrorNote, useAction } from '../../ui.tsx'
import { ROLE_LABELS, type Role, type UserItem } from './roles.ts'

export function CreateUser(props: { roles: Role[]; onCreated: (user: UserItem) => void; onCancel: () => void }) {
  const { busy, error, run } = useAction()
  const initial = props.roles.includes('agent') ? 'agent' : props.roles.at(-1)
  async function submit(event: SubmitEvent) {
    const { name, email, password, role } = formValues(event)
    const body = { name: name!.trim(), email: email!.trim(), password: password!, role: role as Role }
    const user = await run(() => api().POST('/api/v1/users', { body }))
    if (user) props.onCreated(user)
  }
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="users-new">
      <h2 id="users-new">New user</h2>
      <label for="users-name">Name</label>
      <input id="users-name" name="name" required maxLength={200} autocomplete="off" />
      <label for="users-email">Email</label>
      <input id="users-email" name="email" type="email" required maxLength={254} autocomplete="off" />
      <label for="users-password">First password</label>
      <input
        id="users-password"
        name="password"
        type="password"
        required
        minLength={8}
        autocomplete="new-password"
        aria-describedby="users-password-hint"
      />
      <p id="users-password-hint" class="muted users-hint">
        At least 8 characters; pass it on safely.
      </p>
      <label for="users-role">Role</label>
      <select id="users-role" name="role">
        {props.roles.map((role) => (
          <option value={role} selected={role === initial}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create user'}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
