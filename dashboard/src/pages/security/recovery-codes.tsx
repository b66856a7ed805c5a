// The recovery codes of a new enrollment, shown this once (the API keeps only their hashes), with a copy
// button; they stay until the user says they are kept.
import { useEffect, useRef, useState } from 'preact/hooks'

interface RecoveryCodesProps {
  level: 2 | 3
  codes: string[]
  onDone: () => void
}

export function RecoveryCodes({ level, codes, onDone }: RecoveryCodesProps) {
  const Heading = level === 2 ? 'h2' : 'h3'
  const [copied, setCopied] = useState('')
  const heading = useRef<HTMLHeadingElement>(null)
  // The form that had focus is gone: focus goes to what replaced it.
  useEffect(() => heading.current?.focus(), [])
  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'))
      setCopied('Copied the codes.')
    } catch {
      setCopied('Could not copy: select the codes and copy them yourself.')
    }
  }
  return (
    <div class="security-narrow">
      <Heading ref={heading} tabIndex={-1}>
        Your recovery codes
      </Heading>
      <p class="ok">The authenticator app is on.</p>
      <p>
        If you lose the app, each of these codes signs you in once in place of its code. They are shown only now: keep them somewhere safe,
        such as a password manager.
      </p>
      <ul class="security-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="secondary" onClick={copy}>
          Copy the codes
        </button>
        <button type="button" onClick={onDone}>
          I have kept them
        </button>
      </div>
      <p role="status">{copied}</p>
    </div>
  )
}
