// An inline warning that holds a risky change until the user confirms it; focus moves to it, so a keyboard
// or screen-reader user meets it at once.
import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'

interface ConfirmProps {
  children: ComponentChildren
  confirmLabel: string
  busy?: boolean
  onConfirm: () => void
  onCancel: () => void
}

export function Confirm({ children, confirmLabel, busy, onConfirm, onCancel }: ConfirmProps) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => box.current?.focus(), [])
  return (
    <div class="security-confirm" ref={box} tabIndex={-1}>
      <p role="alert" class="warn">
        {children}
      </p>
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" class="secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  )
}
