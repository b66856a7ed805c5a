// Settings > API keys: the signed-in user's personal access tokens, a new one (its value shown once), and
// revoking one. A role without api_key:read reads the API's refusal in words, and no create control.
import { useRef, useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import type { ScreenProps } from '../../screens.ts'
import { ErrorNote, Page, useCan, useLoad } from '../../ui.tsx'
import { type CreatedKey, CreateKey } from './create.tsx'
import { KeyList } from './list.tsx'
import { ShowOnce } from './show-once.tsx'

type ApiKey = Schemas['ApiKey']

/** Every page of the user's keys (a user holds at most 100 live keys: one or two requests). */
async function allKeys(): Promise<{ data?: ApiKey[]; error?: unknown }> {
  const keys: ApiKey[] = []
  let page_token: string | undefined
  do {
    const query = { page_size: 100, ...(page_token ? { page_token } : {}) }
    const { data, error } = await api().GET('/api/v1/api-keys', { params: { query } })
    if (!data) return { error }
    keys.push(...data.api_keys)
    page_token = data.next_page_token ?? undefined
  } while (page_token)
  return { data: keys }
}

export function ApiKeys(_: ScreenProps) {
  const canCreate = useCan('api_key:create')
  const keys = useLoad(allKeys)
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<CreatedKey | undefined>()
  const newButton = useRef<HTMLButtonElement>(null)
  return (
    <Page title="API keys" intro="Personal access tokens for scripts: each acts as you, with your permissions or fewer, until it expires.">
      {canCreate && !creating && (
        <div class="actions">
          <button type="button" ref={newButton} onClick={() => setCreating(true)}>
            New API key
          </button>
        </div>
      )}
      {creating && (
        <CreateKey
          onCancel={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false)
            setCreated(key)
            keys.reload()
          }}
        />
      )}
      {created && (
        <ShowOnce
          created={created}
          onClosed={() => {
            setCreated(undefined)
            newButton.current?.focus()
          }}
        />
      )}
      <h2 id="api-keys-list">Your keys</h2>
      <ErrorNote error={keys.error} />
      {keys.loading && !keys.data && <p class="muted">Loading…</p>}
      {keys.data && <KeyList keys={keys.data} onRevoked={keys.reload} />}
    </Page>
  )
}
