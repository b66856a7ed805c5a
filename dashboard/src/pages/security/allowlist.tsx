// The IP allowlist. A list without the caller's own address is refused by the API (409) unless forced: the
// save is sent unforced first, and that refusal becomes a warning the user must confirm before anything is
// saved. The server decides whether the address is in the list (it knows the address, trusted proxies
// included); the address shown is the one the current session signed in from.
import { useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, useAction } from '../../ui.tsx'
import { Confirm } from './confirm.tsx'
import type { SettingsProps } from './organization.tsx'

/** The entries of the text box: one per line (commas and spaces separate too). */
function entriesOf(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean)
}

export function Allowlist({ settings, canUpdate, onSaved, currentIp }: SettingsProps & { currentIp: string | null }) {
  const { busy, error, run } = useAction()
  const [text, setText] = useState(settings.allowed_ips.join('\n'))
  const [held, setHeld] = useState<string[] | undefined>()
  const [done, setDone] = useState('')
  async function save(entries: string[], force: boolean) {
    setDone('')
    const data = await run(async () => {
      const result = await api().PATCH('/api/v1/organization/security', { body: { allowed_ips: entries, ...(force ? { force } : {}) } })
      // The API's lock-out guard: nothing was saved. Held for the user to confirm or cancel.
      if (!force && (result.error as { code?: string } | undefined)?.code === 'CONFLICT') {
        setHeld(entries)
        return { data: undefined }
      }
      return result
    })
    if (!data) return
    setHeld(undefined)
    onSaved(data)
    setText(data.allowed_ips.join('\n'))
    setDone(data.allowed_ips.length === 0 ? 'Saved: every address is allowed.' : 'Saved: only the listed addresses are allowed.')
  }
  const saved = settings.allowed_ips
  return (
    <div class="security-part">
      <h3>IP allowlist</h3>
      <p>{saved.length === 0 ? 'Every address is allowed.' : `Only these addresses may sign in and use the API: ${saved.join(', ')}.`}</p>
      {currentIp && <p class="muted">You signed in from {currentIp}.</p>}
      {canUpdate && (
        <form
          onSubmit={(event) => {
            event.preventDefault()
            void save(entriesOf(text), false)
          }}
        >
          <label for="security-allowlist">Allowed addresses and ranges</label>
          <textarea
            id="security-allowlist"
            class="security-allowlist"
            rows={5}
            value={text}
            aria-describedby="security-allowlist-hint"
            onInput={(event) => {
              setText((event.currentTarget as HTMLTextAreaElement).value)
              setHeld(undefined)
            }}
          />
          <p id="security-allowlist-hint" class="muted">
            One IPv4 or IPv6 address or CIDR range per line, such as 203.0.113.7 or 10.0.0.0/8. Empty: every address is allowed.
          </p>
          <div class="actions">
            <button type="submit" disabled={busy || held !== undefined}>
              Save allowlist
            </button>
            {currentIp && !entriesOf(text).includes(currentIp) && (
              <button type="button" class="secondary" onClick={() => setText(entriesOf(`${text}\n${currentIp}`).join('\n'))}>
                Add my address
              </button>
            )}
          </div>
        </form>
      )}
      {held && (
        <Confirm confirmLabel="Save anyway" busy={busy} onConfirm={() => save(held, true)} onCancel={() => setHeld(undefined)}>
          Not saved yet: this list does not include the address you are connecting from
          {currentIp ? ` (you signed in from ${currentIp})` : ''}. Saving it locks you out at once, and everyone else outside it; only an
          operator on the server can then clear it (switchboard org clear-allowlist).
        </Confirm>
      )}
      <ErrorNote error={error} />
      <p role="status" class="ok">
        {done}
      </p>
    </div>
  )
}
