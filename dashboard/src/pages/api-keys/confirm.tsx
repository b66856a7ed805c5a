// A modal question before an action that cannot be undone (revoking a key, disabling a user): Escape or
// Cancel backs out, and a refusal of the API is shown inside it, where the user is looking.
import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'
import { ErrorNote } from '../../ui.tsx'

export interface ConfirmProps {
  title: string
  /** The text of the button that does it, e.g. "Revoke". */
  action: string
  busy: boolean
  error: unknown
  onConfirm: () => void
  onCancel: () => void
  children: ComponentChildren
}

export function Confirm({ title, action, busy, error, onConfirm, onCancel, children }: ConfirmProps) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current!
    dialog.showModal()
    return () => dialog.close()
  }, [])
  return (
    <dialog ref={ref} aria-labelledby="confirm-title" onCancel={onCancel}>
      <h2 id="confirm-title">{title}</h2>
      {children}
      <ErrorNote error={error} />
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          {busy ? 'Working…' : action}
        </button>
        {/* Focused first: Enter on an unread question must not do what cannot be undone. */}
        <button type="button" class="secondary" autofocus onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  )
}

/**
 * A call answered without a body (204) as `{data: true}` or its error, for `useAction().run`: the typed
 * client gives `data: undefined` on success there, which run() cannot tell from a failure.
 */
export async function outcome(call: Promise<{ error?: unknown; response: Response }>): Promise<{ data?: true; error?: unknown }> {
  const { error, response } = await call
  if (response.ok) return { data: true }
  return { error: error ?? { message: `The server answered ${response.status}.` } }
}
