// Verifying the organization's audit chain (GET /api/v1/audit-logs/verify): every hash recomputed on the
// server, the answer put in words: intact, or the first record where it breaks and why.
import { useState } from 'preact/hooks'
import type { Schemas } from '../../../../clients/typescript/src/index.ts'
import { api } from '../../api.ts'
import { ErrorNote, useAction } from '../../ui.tsx'

type Verification = Schemas['AuditChainVerification']

function Verdict({ result }: { result: Verification }) {
  const { broken, records } = result
  if (!broken)
    return (
      <p class="ok">
        The chain is intact: all {records} record{records === 1 ? '' : 's'} match their hashes, each following the one before it.
      </p>
    )
  return (
    <p class="error">
      The chain is broken at record {broken.seq} (<code>{broken.id}</code>): {broken.problem}. The records from there on cannot be trusted;
      tell whoever runs the server ({records} records checked).
    </p>
  )
}

export function VerifyChain() {
  const { busy, error, run } = useAction()
  const [result, setResult] = useState<Verification | undefined>()
  async function verify() {
    setResult(undefined)
    const data = await run(() => api().GET('/api/v1/audit-logs/verify'))
    if (data) setResult(data)
  }
  return (
    <section class="panel" aria-labelledby="audit-verify-title">
      <h2 id="audit-verify-title">Integrity</h2>
      <p>
        Each record holds a hash of itself and of the record before it, so a record changed, removed or slipped in later breaks the chain.
      </p>
      <button type="button" onClick={verify} disabled={busy}>
        {busy ? 'Verifying…' : 'Verify the chain'}
      </button>
      <div role="status">{result && <Verdict result={result} />}</div>
      <ErrorNote error={error} />
    </section>
  )
}
