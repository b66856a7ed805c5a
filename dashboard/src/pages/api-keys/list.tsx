// The signed-in user's API keys (never their values): what each may do, when it expires and when it was
// last used, and revoking one after a confirmation.
import { useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { useAction, useCan, When } from '../../ui.tsx'
import { Confirm, outcome } from './confirm.tsx'

type ApiKey = Schemas['ApiKey']

function Permissions({ permissions }: { permissions: string[] | null }) {
  if (permissions === null) return <span>All of yours</span>
  if (permissions.length <= 3) return <span>{permissions.join(', ')}</span>
  return (
    <details>
      <summary>{permissions.length} permissions</summary>
      <ul class="api-keys-perms">
        {permissions.map((permission) => (
          <li>{permission}</li>
        ))}
      </ul>
    </details>
  )
}

export function KeyList({ keys, onRevoked }: { keys: ApiKey[]; onRevoked: () => void }) {
  const canRevoke = useCan('api_key:delete')
  const [revoking, setRevoking] = useState<ApiKey | undefined>()
  const revoke = useAction()
  async function confirm() {
    const id = revoking!.id
    if (!(await revoke.run(() => outcome(api().DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } }))))) return
    setRevoking(undefined)
    onRevoked()
  }
  if (keys.length === 0) return <p>You have no API keys.</p>
  return (
    <>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways on a narrow screen must be reachable by keyboard (WCAG 2.1.1) */}
      <section class="table-wrap" aria-labelledby="api-keys-list" tabIndex={0}>
        <table class="api-keys-table" aria-labelledby="api-keys-list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Permissions</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              {canRevoke && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <th scope="row">{key.name}</th>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>
                  <Permissions permissions={key.permissions} />
                </td>
                <td>
                  <When at={key.created_at} />
                </td>
                <td>
                  <When at={key.expires_at} />
                  {key.expired && <strong class="warn"> (expired)</strong>}
                </td>
                <td>
                  <When at={key.last_used_at} />
                  {key.last_used_ip && <span class="muted"> from {key.last_used_ip}</span>}
                </td>
                {canRevoke && (
                  <td>
                    <button type="button" class="secondary" aria-label={`Revoke ${key.name}`} onClick={() => setRevoking(key)}>
                      Revoke
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {revoking && (
        <Confirm
          title={`Revoke ${revoking.name}?`}
          action="Revoke"
          busy={revoke.busy}
          error={revoke.error}
          onConfirm={confirm}
          onCancel={() => {
            revoke.setError(undefined)
            setRevoking(undefined)
          }}
        >
          <p>
            The key <code>{revoking.prefix}…</code> stops working at once, for every script that uses it. This cannot be undone.
          </p>
        </Confirm>
      )}
    </>
  )
}
