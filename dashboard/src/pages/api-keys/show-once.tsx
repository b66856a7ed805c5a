// The new key's value, shown this once (the API keeps only its hash): a Copy button, and no way out
// before the user says the value is saved; Escape is answered with why, not a silent close.
import { useEffect, useRef, useState } from 'preact/hooks'
import type { CreatedKey } from './create.tsx'

export function ShowOnce({ created, onClosed }: { created: CreatedKey; onClosed: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const [saved, setSaved] = useState(false)
  const [copied, setCopied] = useState('')
  const [warned, setWarned] = useState(false)
  useEffect(() => ref.current!.showModal(), [])
  function cancel(event: Event) {
    if (saved) return
    event.preventDefault()
    setWarned(true)
  }
  // Chrome lets a second Escape close a dialog whatever its cancel handler says: open it again.
  function closed() {
    if (saved) return onClosed()
    ref.current!.showModal()
    setWarned(true)
  }
  async function copy() {
    try {
      await navigator.clipboard.writeText(created.token)
      setCopied('Copied')
    } catch {
      setCopied('Copying failed: select the key and copy it by hand.')
    }
  }
  return (
    <dialog
      ref={ref}
      class="api-keys-once"
      aria-labelledby="api-keys-once-title"
      aria-describedby="api-keys-once-note"
      onCancel={cancel}
      onClose={closed}
    >
      <h2 id="api-keys-once-title">Your new API key</h2>
      <p id="api-keys-once-note">
        This is the only time the key <strong>{created.name}</strong> is shown: copy it now and keep it somewhere safe, such as a password
        manager. Send it as the <code>X-API-Key</code> header or as <code>Authorization: Bearer</code>.
      </p>
      <p class="api-keys-token">
        <code id="api-keys-token">{created.token}</code>
      </p>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy
        </button>
        <span role="status" class={copied === 'Copied' ? 'ok' : 'error'}>
          {copied}
        </span>
      </div>
      <label class="api-keys-choice">
        <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.currentTarget.checked)} /> I have saved this key
      </label>
      {warned && !saved && (
        <p role="alert" class="warn">
          Tick "I have saved this key" first: it will not be shown again.
        </p>
      )}
      <div class="actions">
        <button type="button" disabled={!saved} onClick={() => ref.current!.close()}>
          Close
        </button>
      </div>
    </dialog>
  )
}
