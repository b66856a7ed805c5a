// The signing secret, shown once (after creating a webhook or rotating its secret) in a modal dialog
// with a copy button; it closes only once the user says the secret is stored, since nothing shows it again.
import { useEffect, useRef, useState } from 'preact/hooks'

/** A new random secret: 32 bytes as hex (the API takes 16 to 256 characters). */
export function newSecret(): string {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')
}

export function SecretDialog({ secret, title, onClose }: { secret: string; title: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const [stored, setStored] = useState(false)
  const [copied, setCopied] = useState<string | undefined>()
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null
    dialog.current?.showModal()
    return () => opener?.focus?.()
  }, [])
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret)
      setCopied('Copied to the clipboard.')
    } catch {
      setCopied('The browser did not allow copying: select the secret and copy it yourself.')
    }
  }
  // The browser may close a modal on a repeated Escape whatever the page says: shown again until stored.
  function closed() {
    if (stored) onClose()
    else dialog.current?.showModal()
  }
  return (
    <dialog
      ref={dialog}
      class="webhooks-dialog"
      aria-labelledby="webhooks-secret-title"
      onCancel={(event) => {
        // Escape must not lose the secret before the user has stored it.
        if (!stored) event.preventDefault()
      }}
      onClose={closed}
    >
      <h2 id="webhooks-secret-title">{title}</h2>
      <p>
        Every delivery is signed with this secret. Copy it into your receiver now: <strong>it is not shown again</strong>; rotating it makes
        a new one.
      </p>
      <label for="webhooks-secret">Signing secret</label>
      <input id="webhooks-secret" class="webhooks-secret" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy secret
        </button>
      </div>
      <p role="status">{copied ?? ''}</p>
      <label class="webhooks-check">
        <input type="checkbox" checked={stored} onChange={(e) => setStored(e.currentTarget.checked)} />I have stored the secret
      </label>
      <div class="actions">
        <button type="button" class="secondary" disabled={!stored} onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  )
}
